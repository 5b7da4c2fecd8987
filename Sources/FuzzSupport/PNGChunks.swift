/// PNG chunk walking for the fuzzer: mutated PNGs get valid CRCs again.
enum PNGChunks {
    /// `bytes` with the CRC of every whole chunk after the signature recomputed.
    @Sendable static func withCRCsRecomputed(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let end = offset + 8 + length
            guard length <= bytes.count, end + 4 <= bytes.count else { break }
            let crc = Self.crc32(bytes[offset + 4..<end])
            for index in 0..<4 { bytes[end + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
            offset = end + 4
        }
        return bytes
    }

    /// The CRC-32 (ISO 3309, as PNG uses it) of `bytes`.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        ~bytes.reduce(~UInt32(0)) { crc, byte in Self.table[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
    }

    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xedb8_8320 ^ (crc >> 1) : crc >> 1 }
    }
}
