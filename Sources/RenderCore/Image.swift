/// A raster of 8-bit pixels, rows packed without padding.
///
/// Four-channel images hold premultiplied RGBA (every colour channel ≤ alpha); one-channel
/// images hold coverage or alpha only (shadow masks).
public struct Image: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes per pixel: 4 (premultiplied RGBA8) or 1 (alpha8).
    public let channels: Int
    /// `width * height * channels` bytes, row by row.
    public var bytes: [UInt8]

    /// The largest side accepted anywhere.
    public static let maxSide = 16384
    /// The most pixels accepted anywhere (8192², 256 MiB as RGBA).
    public static let maxPixels = 8192 * 8192

    /// An image filled with one pixel value (transparent black by default).
    /// - Throws: ``RenderError`` with code `invalidSize` for a zero, negative or huge size.
    public init(width: Int, height: Int, channels: Int = 4, fill: RGBA8 = .clear) throws {
        try Image.checkSize(width: width, height: height, channels: channels)
        self.width = width
        self.height = height
        self.channels = channels
        if channels == 1 {
            self.bytes = [UInt8](repeating: fill.a, count: width * height)
        } else {
            self.bytes = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
                let pixel = fill.packed
                buffer.baseAddress!.withMemoryRebound(to: UInt32.self, capacity: width * height) { words in
                    words.initialize(repeating: pixel, count: width * height)
                }
                count = width * height * 4
            }
        }
    }

    /// Wraps existing bytes.
    /// - Throws: ``RenderError`` (`invalidSize`) when the size is bad or `bytes` has the wrong length.
    public init(width: Int, height: Int, channels: Int = 4, bytes: [UInt8]) throws {
        try Image.checkSize(width: width, height: height, channels: channels)
        guard bytes.count == width * height * channels else {
            throw RenderError(.invalidSize, "\(bytes.count) bytes for \(width)x\(height)x\(channels)")
        }
        self.width = width
        self.height = height
        self.channels = channels
        self.bytes = bytes
    }

    static func checkSize(width: Int, height: Int, channels: Int) throws {
        guard channels == 1 || channels == 4 else {
            throw RenderError(.invalidSize, "channels must be 1 or 4, got \(channels)")
        }
        guard width > 0, height > 0, width <= maxSide, height <= maxSide, width * height <= maxPixels else {
            throw RenderError(
                .invalidSize, "size \(width)x\(height) is outside 1...\(maxSide) per side or above \(maxPixels) pixels")
        }
    }

    /// The pixel at (x, y) of a four-channel image.
    public func pixel(_ x: Int, _ y: Int) -> RGBA8 {
        let i = (y * width + x) * channels
        if channels == 1 { return RGBA8(0, 0, 0, bytes[i]) }
        return RGBA8(bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3])
    }

    /// Sets the pixel at (x, y) of a four-channel image.
    public mutating func setPixel(_ x: Int, _ y: Int, _ value: RGBA8) {
        let i = (y * width + x) * channels
        if channels == 1 {
            bytes[i] = value.a
            return
        }
        bytes[i] = value.r
        bytes[i + 1] = value.g
        bytes[i + 2] = value.b
        bytes[i + 3] = value.a
    }
}

/// One premultiplied RGBA8 pixel.
public struct RGBA8: Sendable, Hashable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Transparent black.
    public static let clear = RGBA8(0, 0, 0, 0)

    /// The four bytes as one little-endian word, in memory order r, g, b, a.
    var packed: UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
    }

    public var description: String { "(\(r),\(g),\(b),\(a))" }
}
