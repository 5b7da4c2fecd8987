/// The rows of one ``Canvas/fill(_:with:clip:opacity:)``: coverage is the mask byte, times
/// the clip byte / 255 when clipped. Runs of zero coverage are skipped and runs of full
/// coverage under an opaque colour stored outright, eight mask bytes at a time; the pixels in
/// between are blended one by one.
struct FillRows: @unchecked Sendable {
    private let words: UnsafeMutablePointer<UInt32>
    private let width: Int
    private let columns: Range<Int>
    private let mask: UnsafePointer<UInt8>
    private let maskRect: PixelRect
    private let clip: UnsafePointer<UInt8>?
    private let clipRect: PixelRect
    /// The alpha bytes of the image drawn next, its rectangle on the canvas.
    private let cover: (alpha: UnsafePointer<UInt8>, rect: PixelRect)?
    private let solid: SIMD4<Float>
    private let gradient: LinearGradient?
    private let toLocal: AffineTransform
    /// The pixel an opaque solid colour at full coverage stores.
    private let opaque: UInt32?
    private let scale: Float

    init(
        pixels: UnsafeMutablePointer<UInt8>, width: Int, columns: Range<Int>, mask: UnsafePointer<UInt8>,
        maskRect: PixelRect, clip: UnsafePointer<UInt8>?, clipRect: PixelRect,
        cover: (Cover, UnsafePointer<UInt8>)?, paint: Paint, opacity: Double
    ) {
        self.cover = cover.map { cover, pixels in
            (
                pixels + 3,
                PixelRect(
                    x: cover.origin.x, y: cover.origin.y, width: cover.image.width, height: cover.image.height)
            )
        }
        words = UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt32.self)
        (self.width, self.columns, self.mask, self.maskRect, self.clip, self.clipRect) =
            (width, columns, mask, maskRect, clip, clipRect)
        scale = Float(min(max(opacity, 0), 1)) / 255
        switch paint {
        case .solid(let color): (solid, gradient, toLocal) = (color.premultiplied, nil, .identity)
        case .linear(let g, let map): (solid, gradient, toLocal) = (.zero, g, map)
        }
        opaque =
            gradient == nil && solid.w == 255 && opacity >= 1
            ? UInt32(solid.x.rounded()) | UInt32(solid.y.rounded()) << 8 | UInt32(solid.z.rounded()) << 16 | 0xFF00_0000
            : nil
    }

    func run(_ rows: Range<Int>) {
        for y in rows {
            let maskRow = mask + (y - maskRect.y) * maskRect.width - maskRect.x
            let clipRow = clip.map { $0 + (y - clipRect.y) * clipRect.width - clipRect.x }
            let coverRow = cover.flatMap { alpha, rect in
                rect.y <= y && y < rect.y + rect.height ? alpha + 4 * ((y - rect.y) * rect.width - rect.x) : nil
            }
            run(row: y, maskRow, clipRow, coverRow)
        }
    }

    @inline(__always)
    private func run(
        row y: Int, _ maskRow: UnsafePointer<UInt8>, _ clipRow: UnsafePointer<UInt8>?, _ coverRow: UnsafePointer<UInt8>?
    ) {
        let (coverStart, coverEnd) = cover.map { ($0.rect.x, $0.rect.x + $0.rect.width) } ?? (0, 0)
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
        @inline(__always) func covered(_ x: Int) -> Float {
            let coverage = Float(maskRow[x])
            return clipRow.map { coverage * Float($0[x]) / 255 } ?? coverage
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
                let coverage = covered(x)
                if coverage == 255, let opaque {
                    var last = x + 1
                    while last + 8 <= end, full8(last) { last += 8 }
                    while last < end, full(last) { last += 1 }
                    (words + y * width + x).update(repeating: opaque, count: last - x)
                    x = last
                    continue
                }
                defer { x += 1 }
                if coverage == 0 { continue }
                if let coverRow, coverStart <= x, x < coverEnd, coverRow[4 * x] == 255 { continue }
                var source = solid
                if let gradient {
                    let p = toLocal.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
                    let (dx, dy) = (gradient.end.x - gradient.start.x, gradient.end.y - gradient.start.y)
                    let length = dx * dx + dy * dy
                    let t = length > 0 ? ((p.x - gradient.start.x) * dx + (p.y - gradient.start.y) * dy) / length : 0
                    source = gradient.color(at: t)
                }
                Canvas.blend(
                    source * (coverage * scale),
                    into: UnsafeMutableRawPointer(words + y * width + x).assumingMemoryBound(to: UInt8.self))
            }
        }
    }
}
