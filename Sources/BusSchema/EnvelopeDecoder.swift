/// Decodes header frames, fast when publishers repeat themselves.
///
/// A header from ``Envelope/encode(to:)`` is a prefix that stays the same for one publisher,
/// epoch and schema, then a fixed 41-byte tail (`seq`, `mono`, `wall`). The decoder keeps the
/// last few prefixes it decoded in full (a subscriber hears a few publishers and schemas,
/// interleaved); a header with one of those exact prefixes and a well-formed tail is read from
/// the tail alone. Anything else (a new publisher, another encoder's layout) takes the general
/// path, so the result is always what ``Envelope/init(from:)`` would give.
public struct EnvelopeDecoder: Sendable {
    /// Prefixes decoded in full and their envelopes, most recently decoded first.
    private var templates: [(prefix: [UInt8], envelope: Envelope)] = []
    /// How many prefixes are kept; a miss costs a full decode and a look at each of them.
    public static let capacity = 8

    public init() {}

    /// Decodes a complete header frame.
    ///
    /// - Throws: ``CodecError`` for a malformed header.
    public mutating func decode(_ bytes: UnsafeRawBufferPointer) throws -> Envelope {
        let prefixCount = bytes.count - Envelope.tailSize
        guard prefixCount > 0, let base = bytes.baseAddress,
            let (seq, mono, wall) = Self.tail(
                UnsafeRawBufferPointer(start: base + prefixCount, count: Envelope.tailSize))
        else { return try Envelope(messagePack: bytes) }
        for index in self.templates.indices where self.templates[index].prefix.count == prefixCount {
            let matches = self.templates[index].prefix.withUnsafeBytes {
                bytesEqual($0.baseAddress!, base, count: prefixCount)
            }
            guard matches else { continue }
            var envelope = self.templates[index].envelope
            envelope.seq = seq
            envelope.mono = mono
            envelope.wall = wall
            return envelope
        }
        let envelope = try Envelope(messagePack: bytes)
        if self.templates.count == Self.capacity { self.templates.removeLast() }
        self.templates.insert((Array(bytes[..<prefixCount]), envelope), at: 0)
        return envelope
    }

    /// The tail's keys as encoded: fixstr headers (0xa3, 0xa4) and the key bytes.
    private static let seqKey: [UInt8] = [0xa3] + Array("seq".utf8)
    private static let monoKey: [UInt8] = [0xa4] + Array("mono".utf8)
    private static let wallKey: [UInt8] = [0xa4] + Array("wall".utf8)

    /// The three values of a well-formed tail, or nil.
    private static func tail(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64, UInt64)? {
        guard bytes.count == Envelope.tailSize,
            let seq = Self.field(bytes, at: 0, key: Self.seqKey),
            let mono = Self.field(bytes, at: 13, key: Self.monoKey),
            let wall = Self.field(bytes, at: 27, key: Self.wallKey)
        else { return nil }
        return (seq, mono, wall)
    }

    /// The uint64 after `key` at `offset`, if the key and the 0xcf marker are there.
    @inline(__always)
    private static func field(_ bytes: UnsafeRawBufferPointer, at offset: Int, key: [UInt8]) -> UInt64? {
        let matches = key.withUnsafeBytes { bytesEqual($0.baseAddress!, bytes.baseAddress! + offset, count: key.count) }
        guard matches else { return nil }
        let marker = offset + key.count
        guard bytes[marker] == 0xcf else { return nil }
        return UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: marker + 1, as: UInt64.self))
    }
}
