import BusSchema

/// Stamps outgoing messages: the publisher's name and epoch, a per-topic sequence number
/// and both clocks, encoded into reusable header and payload buffers.
public struct EnvelopeStamper: ~Copyable, Sendable {
    public let publisher: String
    /// Random per process start, in 1..<2^53 so JSON readers keep it exact.
    public let epoch: UInt64
    /// The last sequence number of each topic stamped, by slot.
    private var sequences: [UInt64] = []
    /// Each topic's slot in ``sequences``; the topics stamped lately are found without hashing
    /// (a publisher interleaves a few topics, usually the very same strings).
    private var slots = RecentlyUsedDictionary<String, Int>()
    /// The encoded header of the last stamped message.
    public private(set) var header = MessagePackWriter(capacity: 96)
    /// The payload of the message being built.
    public var payload = MessagePackWriter(capacity: 256)
    /// The encoded header up to `seq` for the schemas used lately: it only changes with the schema.
    private var prefixes = RecentlyUsed<SchemaID, [UInt8]>(capacity: 4)

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
        guard let slot = self.slots.all[topic.rawValue] else { return 1 }
        return self.sequences[slot] + 1
    }

    /// Takes the next sequence number for `topic` and encodes the header for `schema`.
    public mutating func stamp(_ schema: SchemaID, on topic: Topic) -> Envelope {
        let next = self.sequences.count
        let slot = self.slots.value(for: topic.rawValue) { next }
        if slot == next { self.sequences.append(0) }
        self.sequences[slot] += 1
        let envelope = Envelope(
            schema: schema, publisher: self.publisher, epoch: self.epoch, seq: self.sequences[slot],
            mono: Clock.monotonicNs(), wall: Clock.wallNs())
        self.header.reset()
        if let prefix = self.prefixes.value(for: schema) {
            prefix.withUnsafeBytes { self.header.writeRaw($0) }
        } else {
            envelope.encodePrefix(to: &self.header)
            self.prefixes.remember(schema, self.header.withUnsafeBytes { Array($0) })
        }
        Envelope.encodeTail(seq: envelope.seq, mono: envelope.mono, wall: envelope.wall, to: &self.header)
        return envelope
    }

}
