import BusSchema

/// Stamps outgoing messages: the publisher's name and epoch, a per-topic sequence number
/// and both clocks, encoded into reusable header and payload buffers.
public struct EnvelopeStamper: ~Copyable, Sendable {
    public let publisher: String
    /// Random per process start, in 1..<2^53 so JSON readers keep it exact.
    public let epoch: UInt64
    private var sequences: [String: UInt64] = [:]
    /// The last topic and its sequence number, kept out of the dictionary for runs on one topic.
    private var current: (topic: String, seq: UInt64)?
    /// The encoded header of the last stamped message.
    public private(set) var header = MessagePackWriter(capacity: 96)
    /// The payload of the message being built.
    public var payload = MessagePackWriter(capacity: 256)
    /// The encoded header up to `seq` for the last schema used: it only changes with the schema.
    private var prefix = MessagePackWriter(capacity: 96)
    private var prefixSchema: SchemaID?

    public init(publisher: String, epoch: UInt64 = EnvelopeStamper.newEpoch()) {
        self.publisher = publisher
        self.epoch = epoch
    }

    /// A fresh random epoch.
    public static func newEpoch() -> UInt64 {
        UInt64.random(in: 1..<(1 << 53))
    }

    /// The sequence number the next message on `topic` will get.
    public func nextSeq(on topic: Topic) -> UInt64 {
        if let current = self.current, current.topic == topic.rawValue { return current.seq + 1 }
        return self.sequences[topic.rawValue, default: 0] + 1
    }

    /// Takes the next sequence number for `topic` and encodes the header for `schema`.
    public mutating func stamp(_ schema: SchemaID, on topic: Topic) -> Envelope {
        let seq: UInt64
        if let current = self.current, current.topic == topic.rawValue {
            seq = current.seq + 1
        } else {
            if let current = self.current { self.sequences[current.topic] = current.seq }
            seq = self.sequences[topic.rawValue, default: 0] + 1
        }
        self.current = (topic.rawValue, seq)
        let envelope = Envelope(
            schema: schema, publisher: self.publisher, epoch: self.epoch, seq: seq, mono: Clock.monotonicNs(),
            wall: Clock.wallNs())
        if self.prefixSchema != schema {
            self.prefix.reset()
            envelope.encodePrefix(to: &self.prefix)
            self.prefixSchema = schema
        }
        self.header.reset()
        self.prefix.withUnsafeBytes { self.header.writeRaw($0) }
        Envelope.encodeTail(seq: envelope.seq, mono: envelope.mono, wall: envelope.wall, to: &self.header)
        return envelope
    }
}
