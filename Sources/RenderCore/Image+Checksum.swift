extension Image {
    /// FNV-1a (64-bit) of the premultiplied pixels as 16 lower-case hex digits: the
    /// `render.frame` checksum (same pixels, same checksum).
    public var checksum: String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        bytes.withUnsafeBufferPointer { pixels in
            for byte in pixels {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
