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
                UnsafeRawBufferPointer(start: base + prefixCount, count: Envelope.tailSize)),
            (1...Envelope.maxSeq).contains(seq)
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

    /// The three values of a well-formed tail, or nil.
    ///
    /// Each key is checked as one little-endian word: its fixstr header, its bytes and the 0xcf
    /// marker of the uint64 after it (`a3 "seq" cf`, `a4 "mono" cf`, `a4 "wall" cf`).
    private static func tail(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64, UInt64)? {
        guard bytes.count == Envelope.tailSize, let base = bytes.baseAddress,
            Self.word(base, at: 0) & 0xff_ffff_ffff == 0xcf_7165_73a3,
            Self.word(base, at: 13) & 0xffff_ffff_ffff == 0xcf6f_6e6f_6da4,
            Self.word(base, at: 27) & 0xffff_ffff_ffff == 0xcf6c_6c61_77a4
        else { return nil }
        return (Self.uint64(base, at: 5), Self.uint64(base, at: 19), Self.uint64(base, at: 33))
    }

    @inline(__always)
    private static func word(_ base: UnsafeRawPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func uint64(_ base: UnsafeRawPointer, at offset: Int) -> UInt64 {
        UInt64(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
