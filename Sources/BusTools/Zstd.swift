import CZstd

/// Zstandard frames through libzstd, for MCAP chunks: one Swift wrapper per C call.
enum Zstd {
    /// The largest uncompressed chunk a reader accepts: far above the writer's ``MCAPWriter/chunkBytes``,
    /// far below what a hostile size field could make it allocate.
    static let maximumFrameBytes = 256 << 20

    /// `bytes` as one zstd frame at `level` (1 fastest). The corresponding C function is `ZSTD_compress`.
    ///
    /// - Throws: ``ToolError`` if libzstd reports an error.
    static func compress(_ bytes: [UInt8], level: Int32) throws -> [UInt8] {
        let bound = ZSTD_compressBound(bytes.count)
        var frame = [UInt8](repeating: 0, count: bound)
        let written = frame.withUnsafeMutableBytes { out in
            bytes.withUnsafeBytes { ZSTD_compress(out.baseAddress, bound, $0.baseAddress, $0.count, level) }
        }
        try Self.check(written, "zstd compression")
        frame.removeSubrange(written...)
        return frame
    }

    /// The uncompressed size the frame `bytes` declares, or nil if it declares none or is not a frame.
    /// The corresponding C function is `ZSTD_getFrameContentSize`.
    static func frameContentSize(_ bytes: ArraySlice<UInt8>) -> UInt64? {
        let size = bytes.withUnsafeBytes { ZSTD_getFrameContentSize($0.baseAddress, $0.count) }
        return size == CZSTD_CONTENTSIZE_UNKNOWN || size == CZSTD_CONTENTSIZE_ERROR ? nil : UInt64(size)
    }

    /// The frame `bytes` decompressed, which must come to exactly `expectedSize` bytes (at most
    /// ``maximumFrameBytes``, checked before anything is allocated). The corresponding C function is
    /// `ZSTD_decompress`.
    ///
    /// - Throws: ``ToolError`` for a size over the limit, a frame declaring another size, or corrupt data.
    static func decompress(_ bytes: ArraySlice<UInt8>, expectedSize: UInt64) throws -> [UInt8] {
        guard expectedSize <= UInt64(Self.maximumFrameBytes) else {
            throw ToolError(
                "declared uncompressed size \(expectedSize) is over the \(Self.maximumFrameBytes)-byte limit")
        }
        guard let declared = Self.frameContentSize(bytes), declared == expectedSize else {
            throw ToolError("zstd frame does not declare the chunk's uncompressed size \(expectedSize)")
        }
        let count = Int(expectedSize)
        var out = [UInt8](repeating: 0, count: count)
        let written = out.withUnsafeMutableBytes { out in
            bytes.withUnsafeBytes { ZSTD_decompress(out.baseAddress, count, $0.baseAddress, $0.count) }
        }
        try Self.check(written, "zstd decompression")
        guard written == count else {
            throw ToolError("zstd frame decompressed to \(written) bytes, not the declared \(count)")
        }
        return out
    }

    /// Throws libzstd's message if `result` is an error code. The corresponding C functions are
    /// `ZSTD_isError` and `ZSTD_getErrorName`.
    private static func check(_ result: Int, _ what: String) throws {
        guard ZSTD_isError(result) != 0 else { return }
        throw ToolError("\(what) failed: \(String(cString: ZSTD_getErrorName(result)))")
    }
}
