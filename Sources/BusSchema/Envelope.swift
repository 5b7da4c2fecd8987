/// The header frame of every bus message (schema `envelope` v1).
///
/// It says what the payload is (schema id and version), who sent it (publisher and the
/// epoch of that process start) and when, and its place in the publisher's per-topic
/// sequence, from which subscribers count gaps, duplicates and reorders.
public struct Envelope: Sendable, Hashable {
    /// The envelope version this code writes and reads.
    public static let currentVersion = 1
    public static let schema = SchemaID("envelope", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("v", "integer"), FieldSpec("schema", "string"), FieldSpec("major", "integer"),
        FieldSpec("minor", "integer"), FieldSpec("pub", "string"), FieldSpec("epoch", "integer"),
        FieldSpec("seq", "integer"), FieldSpec("mono", "integer"), FieldSpec("wall", "integer"),
    ]

    public var version: Int
    public var schema: String
    public var major: Int
    public var minor: Int
    /// The publishing service's name.
    public var publisher: String
    /// Random per process start, below 2^53 so JSON readers keep it exact.
    public var epoch: UInt64
    /// Per publisher and topic, from 1 in each epoch.
    public var seq: UInt64
    /// CLOCK_MONOTONIC at publication, in nanoseconds.
    public var mono: UInt64
    /// CLOCK_REALTIME at publication, in nanoseconds.
    public var wall: UInt64

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
        writer.writeKey("v")
        writer.write(self.version)
        writer.writeKey("schema")
        writer.write(self.schema)
        writer.writeKey("major")
        writer.write(self.major)
        writer.writeKey("minor")
        writer.write(self.minor)
        writer.writeKey("pub")
        writer.write(self.publisher)
        writer.writeKey("epoch")
        writer.write(self.epoch)
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
    /// - Throws: ``CodecError`` for malformed bytes or a missing field.
    public init(from reader: inout MessagePackReader) throws {
        var version: Int?
        var schema: String?
        var major: Int?
        var minor: Int?
        var publisher: String?
        var epoch: UInt64?
        var seq: UInt64?
        var mono: UInt64?
        var wall: UInt64?
        try reader.readMap { reader, key in
            switch key {
            case "v": version = Int(try reader.readInt())
            case "schema": schema = try reader.readString()
            case "major": major = Int(try reader.readInt())
            case "minor": minor = Int(try reader.readInt())
            case "pub": publisher = try reader.readString()
            case "epoch": epoch = try reader.readUInt()
            case "seq":
                let start = reader.offset
                let value = try reader.readUInt()
                // A larger seq would let one forged header add up to 2^64 to a subscriber's gaps.
                guard (1...Envelope.maxSeq).contains(value) else {
                    throw CodecError(
                        .invalidValue, offset: start, context: "seq: \(value) is outside 1...\(Envelope.maxSeq)")
                }
                seq = value
            case "mono": mono = try reader.readUInt()
            case "wall": wall = try reader.readUInt()
            default: try reader.skip()
            }
        }
        self.version = try reader.require(version, "v")
        self.schema = try reader.require(schema, "schema")
        self.major = try reader.require(major, "major")
        self.minor = try reader.require(minor, "minor")
        self.publisher = try reader.require(publisher, "pub")
        self.epoch = try reader.require(epoch, "epoch")
        self.seq = try reader.require(seq, "seq")
        self.mono = try reader.require(mono, "mono")
        self.wall = try reader.require(wall, "wall")
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
