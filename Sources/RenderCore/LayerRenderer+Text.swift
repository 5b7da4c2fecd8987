/// Text: laid out in the layer's space at device resolution, then mapped through the layer's
/// transform with bilinear sampling; both steps are cached across frames.
extension LayerRenderer {
    func drawText(
        _ text: TextContent, _ layer: Layer, _ m: AffineTransform, font: FontFace, clip: Mask?,
        hiddenBy hidden: [PixelRect], into canvas: inout Canvas, _ pass: Pass
    ) throws {
        let density = m.meanScale
        guard text.fontSize.isFinite, text.fontSize > 0, text.fontSize * density <= 2000, text.inset.isFinite,
            layer.frame.width * density <= Double(Image.maxSide), layer.frame.height * density <= Double(Image.maxSide)
        else {
            throw RenderError(.invalidParameter, "text in layer '\(layer.name)' has a bad font size, inset or frame")
        }
        let (w, h) = (Int((layer.frame.width * density).rounded(.up)), Int((layer.frame.height * density).rounded(.up)))
        let whole = Box(layer.bounds, m)
        let (ix, iy) = (m.tx.rounded(.down), m.ty.rounded(.down))
        let canvasRect = PixelRect(x: 0, y: 0, width: canvas.image.width, height: canvas.image.height)
        guard w > 0, h > 0, let inverse = m.inverted, let visible = whole.pixels(within: canvasRect),
            let box = whole.pixels()
        else { return }
        // The whole box is sampled and cached, also where the canvas cuts it, so that it is the
        // same wherever the layer moves by whole pixels; text far larger than the canvas (a long
        // scrolled list) is sampled where it shows and not cached.
        guard box.width * box.height <= 4 * canvasRect.width * canvasRect.height else {
            pass.statistics.textCacheMisses += 1
            let local = try TextLayout.render(text, font: font, width: w, height: h, pixelsPerPoint: density)
            let mask = Self.sample(local, through: inverse, density: density, over: visible)
            return canvas.fill(mask, with: .solid(text.color), clip: clip, opacity: 1, hiddenBy: hidden)
        }
        // The sub-pixel phase in 1/256 pixel: the same placement computed two ways (a memo moved
        // by a whole number of points) differs in its last bits.
        let key = SampledKey(
            text: text, size: layer.frame.size, a: m.a, b: m.b, c: m.c, d: m.d, fx: ((m.tx - ix) * 256).rounded(),
            fy: ((m.ty - iy) * 256).rounded())
        let mask: Mask
        if let cached = sampled(key) {
            pass.statistics.textCacheHits += 1
            mask = cached.offsetBy(Int(ix), Int(iy))
        } else {
            pass.statistics.textCacheMisses += 1
            let local = try layout(LayoutKey(text: text, width: w, height: h, density: density)) {
                try TextLayout.render(text, font: font, width: w, height: h, pixelsPerPoint: density)
            }
            mask = Self.sample(local, through: inverse, density: density, over: box)
            store(mask.offsetBy(-Int(ix), -Int(iy)), for: key)
        }
        canvas.fill(mask, with: .solid(text.color), clip: clip, opacity: 1, hiddenBy: hidden)
    }

    /// Bilinear samples (0 outside) of the one-channel `local` image at each pixel centre of
    /// `region` mapped through `inverse` and scaled by `density`.
    private static func sample(
        _ local: Image, through inverse: AffineTransform, density: Double, over region: PixelRect
    )
        -> Mask
    {
        var bytes = [UInt8](repeating: 0, count: region.width * region.height)
        let (width, height) = (local.width, local.height)
        local.bytes.withUnsafeBufferPointer { image in
            func at(_ x: Int, _ y: Int) -> Double {
                x >= 0 && y >= 0 && x < width && y < height ? Double(image[y * width + x]) : 0
            }
            bytes.withUnsafeMutableBufferPointer { out in
                for y in 0..<region.height {
                    for x in 0..<region.width {
                        let p = inverse.apply(Point(Double(region.x + x) + 0.5, Double(region.y + y) + 0.5))
                        let (sx, sy) = (p.x * density - 0.5, p.y * density - 0.5)
                        let (fx0, fy0) = (sx.rounded(.down), sy.rounded(.down))
                        // Far outside the layout: skip (also keeps Int conversion in range).
                        guard fx0 >= -1, fy0 >= -1, fx0 < Double(width), fy0 < Double(height) else { continue }
                        let (x0, y0) = (Int(fx0), Int(fy0))
                        let (fx, fy) = (sx - fx0, sy - fy0)
                        let top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx
                        let bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
                        out[y * region.width + x] = UInt8(min(255, (top * (1 - fy) + bottom * fy).rounded()))
                    }
                }
            }
        }
        return Mask(rect: region, bytes: bytes)
    }
}
