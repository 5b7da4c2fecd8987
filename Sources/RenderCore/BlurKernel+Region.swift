/// A rectangle of whole pixels.
public struct PixelRect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The part of this rectangle inside `width`×`height`, or nil when nothing is left.
    func clipped(width: Int, height: Int) -> PixelRect? {
        let x0 = max(x, 0)
        let y0 = max(y, 0)
        let x1 = min(x + self.width, width)
        let y1 = min(y + self.height, height)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

extension BlurKernel {
    /// Blurs a sub-rectangle as SABlurImageView does and blends it back through an
    /// anti-aliased rounded-rectangle mask: inside the mask the blurred pixels, outside the
    /// original ones. The blur sees only the region (its edges are clamped, never faded).
    /// - Parameters:
    ///   - region: the rectangle in pixels; parts outside the image are ignored.
    ///   - cornerRadius: the mask's corner radius in pixels (20 by default), at most half a side.
    /// - Throws: ``RenderError`` (`invalidParameter`) for bad blur parameters or a negative or
    ///   non-finite radius.
    public func apply(_ mode: BlurMode, to image: inout Image, region: PixelRect, cornerRadius: Double = 20) throws {
        try mode.validate()
        guard cornerRadius.isFinite, cornerRadius >= 0 else {
            throw RenderError(.invalidParameter, "corner radius must be finite and ≥ 0, got \(cornerRadius)")
        }
        guard let rect = region.clipped(width: image.width, height: image.height) else { return }
        let cascade = BoxCascade(mode, gaussianPasses: gaussianPasses)
        if cascade == .identity { return }
        let channels = image.channels
        let stride = image.width * channels
        let blurred = pool.take(byteCount: rect.width * rect.height * channels)
        defer { pool.give(back: blurred) }
        let radius = min(cornerRadius, Double(min(rect.width, rect.height)) / 2)
        image.bytes.withUnsafeMutableBytes { bytes in
            let origin = bytes.baseAddress! + rect.y * stride + rect.x * channels
            blur(
                cascade, src: UnsafeRawPointer(origin), srcStride: stride, dst: blurred.pointer,
                dstStride: rect.width * channels, width: rect.width, height: rect.height, channels: channels)
            let source = blurred.pointer.assumingMemoryBound(to: UInt8.self)
            let target = origin.assumingMemoryBound(to: UInt8.self)
            let rowBytes = rect.width * channels
            for y in 0..<rect.height {
                let from = source + y * rowBytes
                let to = target + y * stride
                for x in 0..<rect.width {
                    let coverage = RoundedRectCoverage.at(
                        x: x, y: y, width: rect.width, height: rect.height, radius: radius)
                    if coverage == 255 {
                        for c in 0..<channels { to[x * channels + c] = from[x * channels + c] }
                    } else if coverage > 0 {
                        let m = UInt32(coverage)
                        for c in 0..<channels {
                            let i = x * channels + c
                            to[i] = UInt8((UInt32(from[i]) * m + UInt32(to[i]) * (255 - m) + 127) / 255)
                        }
                    }
                }
            }
        }
    }
}

extension BlurKernel {
    /// Blurs the pixels under `mask` and blends them back by its coverage: the general form
    /// of the rounded-rectangle region blur, for rotated or clipped regions. The blur sees only
    /// the mask's bounding rectangle (clamped at its edges).
    public func apply(_ mode: BlurMode, to image: inout Image, through mask: Mask) throws {
        try mode.validate()
        guard let rect = mask.rect.clipped(width: image.width, height: image.height) else { return }
        let cascade = BoxCascade(mode, gaussianPasses: gaussianPasses)
        if cascade == .identity { return }
        let channels = image.channels
        let stride = image.width * channels
        let blurred = pool.take(byteCount: rect.width * rect.height * channels)
        defer { pool.give(back: blurred) }
        image.bytes.withUnsafeMutableBytes { bytes in
            let origin = bytes.baseAddress! + rect.y * stride + rect.x * channels
            blur(
                cascade, src: UnsafeRawPointer(origin), srcStride: stride, dst: blurred.pointer,
                dstStride: rect.width * channels, width: rect.width, height: rect.height, channels: channels)
            let source = blurred.pointer.assumingMemoryBound(to: UInt8.self)
            let target = origin.assumingMemoryBound(to: UInt8.self)
            for y in 0..<rect.height {
                for x in 0..<rect.width {
                    let m = UInt32(mask.coverage(rect.x + x, rect.y + y))
                    if m == 0 { continue }
                    for c in 0..<channels {
                        let i = y * rect.width * channels + x * channels + c
                        let j = y * stride + x * channels + c
                        target[j] = UInt8((UInt32(source[i]) * m + UInt32(target[j]) * (255 - m) + 127) / 255)
                    }
                }
            }
        }
    }
}

/// Anti-aliased coverage of a pixel by a rounded rectangle.
enum RoundedRectCoverage {
    /// Coverage (0…255) of pixel (x, y) by the rectangle [0, width]×[0, height] with corner
    /// `radius`: 255 away from the corners, and in a corner 0.5 − (distance past the arc).
    static func at(x: Int, y: Int, width: Int, height: Int, radius: Double) -> UInt8 {
        let px = Double(x) + 0.5
        let py = Double(y) + 0.5
        let cx = px < radius ? radius : (px > Double(width) - radius ? Double(width) - radius : px)
        let cy = py < radius ? radius : (py > Double(height) - radius ? Double(height) - radius : py)
        if cx == px || cy == py { return 255 }
        let distance = ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot() - radius
        let coverage = min(max(0.5 - distance, 0), 1)
        return UInt8((coverage * 255).rounded())
    }
}
