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
        let radius = min(cornerRadius, Double(min(rect.width, rect.height)) / 2)
        self.blend(mode, into: &image, rect: rect) { x, y in
            RoundedRectCoverage.at(x: x, y: y, width: rect.width, height: rect.height, radius: radius)
        }
    }

    /// Blurs `rect` of `image` (seeing only the rectangle, its edges clamped) and blends the
    /// blurred pixels back by `coverage` (of the pixel `x`, `y` in `rect`): 255 takes the blurred
    /// pixel, 0 keeps the original.
    private func blend(
        _ mode: BlurMode, into image: inout Image, rect: PixelRect, coverage: (_ x: Int, _ y: Int) -> UInt8
    ) {
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
            let rowBytes = rect.width * channels
            for y in 0..<rect.height {
                let from = source + y * rowBytes
                let to = target + y * stride
                for x in 0..<rect.width {
                    let m = UInt32(coverage(x, y))
                    if m == 255 {
                        for c in 0..<channels { to[x * channels + c] = from[x * channels + c] }
                    } else if m > 0 {
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
        self.blend(mode, into: &image, rect: rect) { x, y in mask.coverage(rect.x + x, rect.y + y) }
    }
}
