/// The header frame of every bus message (schema `envelope` v1).
///
/// It says what the payload is (schema id and version), who sent it (publisher and the
/// epoch of that process start) and when, and its place in the publisher's per-topic
/// sequence, from which subscribers count gaps, duplicates and reorders.
public struct Envelope: MapFields, Sendable, Hashable {
    /// The envelope version this code writes and reads.
    public static let currentVersion = 1
    public static let schema = SchemaID("envelope", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("v", "integer"), FieldSpec("schema", "string"), FieldSpec("major", "integer"),
        FieldSpec("minor", "integer"), FieldSpec("pub", "string"), FieldSpec("epoch", "integer"),
        FieldSpec("seq", "integer"), FieldSpec("mono", "integer"), FieldSpec("wall", "integer"),
    ]

    public var version = 0
    public var schema = ""
    public var major = 0
    public var minor = 0
    /// The publishing service's name.
    public var publisher = ""
    /// Random per process start, below 2^53 so JSON readers keep it exact.
    public var epoch: UInt64 = 0
    /// Per publisher and topic, from 1 in each epoch.
    public var seq: UInt64 = 0
    /// CLOCK_MONOTONIC at publication, in nanoseconds.
    public var mono: UInt64 = 0
    /// CLOCK_REALTIME at publication, in nanoseconds.
    public var wall: UInt64 = 0

    /// The largest `seq` (the schema's `maximum`, 2^53 − 1, exact in JSON); decoders refuse more.
    public static let maxSeq: UInt64 = (1 << 53) - 1

    public init(
        schema: SchemaID, publisher: String, epoch: UInt64, seq: UInt64, mono: UInt64, wall: UInt64,
        version: Int = Envelope.currentVersion
    ) {
        self.version = version
        self.schema = schema.id
        self.major = schema.major
        self.minor = schema.minor
        self.publisher = publisher
        self.epoch = epoch
        self.seq = seq
        self.mono = mono
        self.wall = wall
    }

    /// Every field empty, to decode over.
    public init() {}

    public var schemaID: SchemaID { SchemaID(self.schema, major: self.major, minor: self.minor) }

    /// Appends the header map to `writer`.
    ///
    /// `seq`, `mono` and `wall` come last, always as 9-byte uint64s, so everything before them
    /// (the ``prefix``) is the same for every message of one publisher and schema: publishers
    /// cache it and ``EnvelopeDecoder`` recognises it, reading only the ``tailSize``-byte tail.
    public func encode(to writer: inout MessagePackWriter) {
        self.encodePrefix(to: &writer)
        Self.encodeTail(seq: self.seq, mono: self.mono, wall: self.wall, to: &writer)
    }

    /// The size of the tail that ``encodeTail(seq:mono:wall:to:)`` writes.
    public static let tailSize = 41

    /// Appends everything before `seq`: the map header and the six fields that stay the same.
    public func encodePrefix(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(9)
        writer.write("v", self.version)
        writer.write("schema", self.schema)
        writer.write("major", self.major)
        writer.write("minor", self.minor)
        writer.write("pub", self.publisher)
        writer.write("epoch", self.epoch)
    }

    /// Appends `seq`, `mono` and `wall`, each as a fixed-width uint64: exactly ``tailSize`` bytes.
    public static func encodeTail(seq: UInt64, mono: UInt64, wall: UInt64, to writer: inout MessagePackWriter) {
        writer.writeKey("seq")
        writer.writeFixedWidth(seq)
        writer.writeKey("mono")
        writer.writeFixedWidth(mono)
        writer.writeKey("wall")
        writer.writeFixedWidth(wall)
    }

    /// Decodes a header map; unknown keys are skipped.
    ///
    /// - Throws: ``CodecError`` for malformed bytes or a missing field, naming it.
    public init(from reader: inout MessagePackReader) throws {
        self.init()
        try reader.readFields(into: &self, path: "")
    }

    /// The fields as the decoder reads them. The encoder writes the same keys in this order, but
    /// by hand (``encodePrefix(to:)``, ``encodeTail(seq:mono:wall:to:)``): its tail is fixed-width.
    public mutating func visitFields<V: MapFieldVisitor & ~Copyable>(_ visitor: inout V) throws(V.Failure) {
        try visitor.field("v", &self.version, Int64.min...Int64.max)
        try visitor.field("schema", &self.schema, .any)
        try visitor.field("major", &self.major, Int64.min...Int64.max)
        try visitor.field("minor", &self.minor, Int64.min...Int64.max)
        try visitor.field("pub", &self.publisher, .any)
        try visitor.field("epoch", &self.epoch, 0...UInt64.max)
        // A larger seq would let one forged header add up to 2^64 to a subscriber's gaps.
        try visitor.field("seq", &self.seq, 1...Envelope.maxSeq)
        try visitor.field("mono", &self.mono, 0...UInt64.max)
        try visitor.field("wall", &self.wall, 0...UInt64.max)
    }

    /// Decodes a complete header frame.
    public init(messagePack bytes: UnsafeRawBufferPointer) throws {
        var reader = MessagePackReader(bytes)
        self = try Envelope(from: &reader)
        try reader.expectEnd()
    }

    /// The header as a dynamic value, keys as on the wire.
    public var value: Value {
        var writer = MessagePackWriter(capacity: 96)
        self.encode(to: &writer)
        return (try? Value(messagePack: writer.bytes)) ?? .null
    }
}
