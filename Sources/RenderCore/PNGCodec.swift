import CPNG

/// PNG encoding and decoding through libpng's simplified API (`png_image_*`), which reports
/// errors in `png_image.message` instead of `longjmp`, so bad input is an error, never a crash.
///
/// PNG stores straight (unassociated) alpha; ``Image`` holds premultiplied pixels. Decoding
/// premultiplies, encoding un-premultiplies.
public enum PNGCodec {
    /// Decodes a PNG of any colour type into a premultiplied RGBA8 image.
    /// Wraps `png_image_begin_read_from_memory` and `png_image_finish_read`.
    /// - Throws: ``RenderError`` `badPNG` for unreadable, truncated or corrupt data, `invalidSize`
    ///   for images larger than ``Image/maxSide``.
    public static func decode(_ data: [UInt8]) throws -> Image {
        try Self.checkChunkLengths(data)
        var png = png_image()
        png.version = CPNG_IMAGE_VERSION
        let begun = data.withUnsafeBytes { bytes in
            png_image_begin_read_from_memory(&png, bytes.baseAddress, bytes.count)
        }
        guard begun != 0 else { throw RenderError(.badPNG, message(of: &png)) }
        defer { png_image_free(&png) }
        let width = Int(png.width)
        let height = Int(png.height)
        try Image.checkSize(width: width, height: height, channels: 4)
        png.format = CPNG_FORMAT_RGBA
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = pixels.withUnsafeMutableBytes { buffer in
            data.withUnsafeBytes { _ in
                png_image_finish_read(&png, nil, buffer.baseAddress, Int32(width * 4), nil)
            }
        }
        guard finished != 0 else { throw RenderError(.badPNG, message(of: &png)) }
        premultiply(&pixels)
        return try Image(width: width, height: height, bytes: pixels)
    }

    /// Rejects a chunk whose length runs past the end of the data. libpng allocates what a chunk
    /// claims before reading it: an 89-byte file claiming a 1 GiB `sPLT` took seconds (fuzzing).
    private static func checkChunkLengths(_ data: [UInt8]) throws {
        var offset = 8
        while offset + 8 <= data.count {
            let length = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let available = data.count - offset - 12
            guard length <= available else {
                throw RenderError(
                    .badPNG, "chunk at byte \(offset) claims \(length) bytes, \(max(available, 0)) follow")
            }
            offset += 12 + length
        }
    }

    /// Encodes an image as an 8-bit RGBA PNG with straight alpha (one-channel images are
    /// written as grey + alpha = white with the mask as alpha).
    /// Wraps `png_image_write_to_memory` (with `PNG_IMAGE_FLAG_FAST`).
    /// - Throws: ``RenderError`` `pngWriteFailed` when libpng reports an error.
    public static func encode(_ image: Image) throws -> [UInt8] {
        var straight = [UInt8](repeating: 255, count: image.width * image.height * 4)
        if image.channels == 4 {
            straight = image.bytes
            unpremultiply(&straight)
        } else {
            for i in 0..<(image.width * image.height) { straight[4 * i + 3] = image.bytes[i] }
        }
        var png = png_image()
        png.version = CPNG_IMAGE_VERSION
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = CPNG_FORMAT_RGBA
        png.flags = UInt32(PNG_IMAGE_FLAG_FAST)
        var size = 0
        let sized = straight.withUnsafeBytes { pixels in
            png_image_write_to_memory(&png, nil, &size, 0, pixels.baseAddress, Int32(image.width * 4), nil)
        }
        guard sized != 0 else { throw RenderError(.pngWriteFailed, message(of: &png)) }
        var output = [UInt8](repeating: 0, count: size)
        let written = output.withUnsafeMutableBytes { out in
            straight.withUnsafeBytes { pixels in
                png_image_write_to_memory(
                    &png, out.baseAddress, &size, 0, pixels.baseAddress, Int32(image.width * 4), nil)
            }
        }
        guard written != 0 else { throw RenderError(.pngWriteFailed, message(of: &png)) }
        output.removeLast(output.count - size)
        return output
    }

    /// c' = (c·a + 127) / 255 for every colour channel.
    static func premultiply(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                let a = UInt32(p[i + 3])
                if a == 255 { continue }
                for c in 0..<3 { p[i + c] = UInt8((UInt32(p[i + c]) * a + 127) / 255) }
            }
        }
    }

    /// c = (c'·255 + a/2) / a, clamped to 255; (0,0,0,0) where a = 0.
    static func unpremultiply(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                let a = UInt32(p[i + 3])
                if a == 255 { continue }
                for c in 0..<3 { p[i + c] = a == 0 ? 0 : UInt8(min(255, (UInt32(p[i + c]) * 255 + a / 2) / a)) }
            }
        }
    }

    /// libpng's message from `png_image.message`.
    private static func message(of png: inout png_image) -> String {
        withUnsafeBytes(of: &png.message) { raw in
            let text = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            return text.isEmpty ? "libpng reported an error" : text
        }
    }
}
