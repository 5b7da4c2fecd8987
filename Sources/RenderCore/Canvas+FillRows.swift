/// The rows of one ``Canvas/fill(_:with:clip:opacity:under:hiddenBy:)``: coverage is the mask byte, times
/// the clip byte / 255 when clipped. Runs of zero coverage are skipped and runs of full
/// coverage under an opaque colour stored outright, eight mask bytes at a time; the pixels in
/// between are blended one by one.
struct FillRows: @unchecked Sendable {
    /// The canvas's RGBA bytes (bound to `UInt8`, as the image's array stores them).
    private let pixels: UnsafeMutablePointer<UInt8>
    private let width: Int
    private let columns: Range<Int>
    private let mask: UnsafePointer<UInt8>
    private let maskRect: PixelRect
    private let clip: UnsafePointer<UInt8>?
    private let clipRect: PixelRect
    /// Where what is drawn next replaces the pixel: both planes (when present) read 255.
    private let cover: (CoverPlane?, CoverPlane?)
    /// Rectangles left alone (a later opaque fill replaces them), sorted by their left edge.
    private let hidden: [PixelRect]
    private let solid: SIMD4<Float>
    private let gradient: LinearGradient?
    private let picture: ImageContent?
    /// Canvas pixels to the gradient's unit square or the picture's pixels.
    private let toLocal: AffineTransform
    /// The pixel an opaque solid colour at full coverage stores.
    private let opaque: UInt32?
    private let scale: Float

    init(
        pixels: UnsafeMutablePointer<UInt8>, width: Int, columns: Range<Int>, mask: UnsafePointer<UInt8>,
        maskRect: PixelRect, clip: UnsafePointer<UInt8>?, clipRect: PixelRect,
        cover: (CoverPlane?, CoverPlane?), hidden: [PixelRect], paint: Paint, opacity: Double
    ) {
        (self.cover, self.hidden) = (cover, hidden)
        self.pixels = pixels
        (self.width, self.columns, self.mask, self.maskRect, self.clip, self.clipRect) =
            (width, columns, mask, maskRect, clip, clipRect)
        scale = Float(min(max(opacity, 0), 1)) / 255
        switch paint {
        case .solid(let color): (solid, gradient, picture, toLocal) = (color.premultiplied, nil, nil, .identity)
        case .linear(let g, let map): (solid, gradient, picture, toLocal) = (.zero, g, nil, map)
        case .image(let content, let map): (solid, gradient, picture, toLocal) = (.zero, nil, content, map)
        }
        opaque =
            gradient == nil && picture == nil && solid.w == 255 && opacity >= 1
            ? UInt32(solid.x.rounded()) | UInt32(solid.y.rounded()) << 8 | UInt32(solid.z.rounded()) << 16 | 0xFF00_0000
            : nil
    }

    func run(_ rows: Range<Int>) {
        for y in rows {
            let maskRow = mask + (y - maskRect.y) * maskRect.width - maskRect.x
            let clipRow = clip.map { $0 + (y - clipRect.y) * clipRect.width - clipRect.x }
            let (first, second) = (cover.0?.row(y), cover.1?.row(y))
            // The row's columns outside the hidden rectangles.
            var x = columns.lowerBound
            for rect in hidden where rect.y <= y && y < rect.y + rect.height {
                if rect.x > x { run(row: y, x..<min(rect.x, columns.upperBound), maskRow, clipRow, first, second) }
                x = max(x, rect.x + rect.width)
                if x >= columns.upperBound { break }
            }
            if x < columns.upperBound { run(row: y, x..<columns.upperBound, maskRow, clipRow, first, second) }
        }
    }

    @inline(__always)
    private func run(
        row y: Int, _ columns: Range<Int>, _ maskRow: UnsafePointer<UInt8>, _ clipRow: UnsafePointer<UInt8>?,
        _ firstCover: CoverPlane.Row?, _ secondCover: CoverPlane.Row?
    ) {
        // Without the first plane on this row nothing is covered; no second plane is no limit.
        @inline(__always) func hidden(_ x: Int) -> Bool {
            guard let firstCover, firstCover.opaque(x) else { return false }
            return cover.1 == nil || secondCover?.opaque(x) == true
        }
        @inline(__always) func word(_ row: UnsafePointer<UInt8>, _ x: Int) -> UInt64 {
            UnsafeRawPointer(row + x).loadUnaligned(as: UInt64.self)
        }
        // Eight pixels are fully covered (or uncovered) when both bytes say so for each.
        @inline(__always) func full8(_ x: Int) -> Bool {
            word(maskRow, x) == ~0 && (clipRow.map { word($0, x) == ~0 } ?? true)
        }
        @inline(__always) func full(_ x: Int) -> Bool {
            maskRow[x] == 255 && (clipRow.map { $0[x] == 255 } ?? true)
        }
        let end = columns.upperBound
        var x = columns.lowerBound
        while x < end {
            var stop = end
            if x + 8 <= end {
                if word(maskRow, x) == 0 || (clipRow.map { word($0, x) == 0 } ?? false) {
                    x += 8
                    continue
                }
                stop = x + 8
            }
            while x < stop {
                // Coverage m·c/255 is 0 exactly when a byte is 0 and 255 exactly when both are.
                let (m, c) = (maskRow[x], clipRow?[x] ?? 255)
                if m == 0 || c == 0 {
                    x += 1
                    continue
                }
                if m & c == 255, let opaque {
                    var last = x + 1
                    while last + 8 <= end, full8(last) { last += 8 }
                    while last < end, full(last) { last += 1 }
                    // Whole pixels as words, through a temporary rebinding (the bytes stay `UInt8` memory).
                    (pixels + 4 * (y * width + x)).withMemoryRebound(to: UInt32.self, capacity: last - x) {
                        $0.update(repeating: opaque, count: last - x)
                    }
                    x = last
                    continue
                }
                defer { x += 1 }
                if hidden(x) { continue }
                let coverage = c == 255 ? Float(m) : Float(m) * Float(c) / 255
                var source = solid
                if let gradient {
                    let p = toLocal.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
                    let (dx, dy) = (gradient.end.x - gradient.start.x, gradient.end.y - gradient.start.y)
                    let length = dx * dx + dy * dy
                    let t = length > 0 ? ((p.x - gradient.start.x) * dx + (p.y - gradient.start.y) * dy) / length : 0
                    source = gradient.color(at: t)
                } else if let picture {
                    source = picture.sample(toLocal.apply(Point(Double(x) + 0.5, Double(y) + 0.5)))
                }
                Canvas.blend(
                    source * (coverage * scale),
                    into: pixels + 4 * (y * width + x))
            }
        }
    }
}

/// One byte per pixel (every `step` bytes) over `rect` of the canvas, read by a fill to skip
/// the pixels a ``Cover`` replaces.
struct CoverPlane {
    let base: UnsafePointer<UInt8>
    let rect: PixelRect
    let step: Int

    /// The plane's row `y`, nil when the plane does not reach it.
    @inline(__always)
    func row(_ y: Int) -> Row? {
        guard rect.y <= y, y < rect.y + rect.height else { return nil }
        return Row(
            bytes: base + step * ((y - rect.y) * rect.width - rect.x), columns: rect.x..<(rect.x + rect.width),
            step: step)
    }

    struct Row {
        let bytes: UnsafePointer<UInt8>
        let columns: Range<Int>
        let step: Int

        @inline(__always)
        func opaque(_ x: Int) -> Bool { columns.contains(x) && bytes[step * x] == 255 }
    }
}
