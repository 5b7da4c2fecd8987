/// Decodes header frames, fast when a publisher repeats itself.
///
/// A header from ``Envelope/encode(to:)`` is a prefix that stays the same for one publisher,
/// epoch and schema, then a fixed 41-byte tail (`seq`, `mono`, `wall`). The decoder keeps the
/// last prefix it decoded in full; a header with that exact prefix and a well-formed tail is
/// read from the tail alone. Anything else (another publisher, another encoder's layout) takes
/// the general path, so the result is always what ``Envelope/init(from:)`` would give.
public struct EnvelopeDecoder: Sendable {
    private var prefix: [UInt8] = []
    private var template: Envelope?

    public init() {}

    /// Decodes a complete header frame.
    ///
    /// - Throws: ``CodecError`` for a malformed header.
    public mutating func decode(_ bytes: UnsafeRawBufferPointer) throws -> Envelope {
        let prefixCount = bytes.count - Envelope.tailSize
        if var envelope = self.template, prefixCount == self.prefix.count, let base = bytes.baseAddress,
            self.prefix.withUnsafeBytes({ bytesEqual($0.baseAddress!, base, count: prefixCount) }),
            let (seq, mono, wall) = Self.tail(
                UnsafeRawBufferPointer(start: base + prefixCount, count: Envelope.tailSize))
        {
            envelope.seq = seq
            envelope.mono = mono
            envelope.wall = wall
            return envelope
        }
        let envelope = try Envelope(messagePack: bytes)
        if prefixCount > 0, Self.tail(UnsafeRawBufferPointer(rebasing: bytes[prefixCount...])) != nil {
            self.prefix = Array(bytes[..<prefixCount])
            self.template = envelope
        }
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
