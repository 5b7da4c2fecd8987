/// How a filled area is coloured.
public enum Paint: Sendable, Hashable {
    /// One colour.
    case solid(Color)
    /// A linear gradient; `toLocal` maps canvas pixels to the layer's unit square (0…1 on both
    /// axes over its bounds), where the gradient's start and end points live.
    case linear(LinearGradient, toLocal: AffineTransform)
    /// An image; `toImage` maps canvas pixels to the image's pixels.
    case image(ImageContent, toImage: AffineTransform)
}

/// A CAGradientLayer-style axial gradient: colours at locations along start → end, in unit
/// coordinates of the layer's bounds.
public struct LinearGradient: Sendable, Hashable {
    public var colors: [Color]
    public var locations: [Double]
    public var start: Point
    public var end: Point

    /// - Parameter locations: one per colour, ascending; evenly spaced when empty.
    public init(colors: [Color], locations: [Double] = [], start: Point = Point(0.5, 0), end: Point = Point(0.5, 1)) {
        self.colors = colors
        self.locations =
            locations.count == colors.count
            ? locations : colors.indices.map { colors.count == 1 ? 0 : Double($0) / Double(colors.count - 1) }
        self.start = start
        self.end = end
    }

    /// The premultiplied colour at parameter `t` (clamped to the ends).
    func color(at t: Double) -> SIMD4<Float> {
        guard let firstLocation = locations.first, let lastLocation = locations.last else { return .zero }
        if t <= firstLocation { return colors[0].premultiplied }
        if t >= lastLocation { return colors[colors.count - 1].premultiplied }
        var k = 1
        while locations[k] < t { k += 1 }
        let span = locations[k] - locations[k - 1]
        let f = Float(span > 0 ? (t - locations[k - 1]) / span : 0)
        return colors[k - 1].premultiplied * (1 - f) + colors[k].premultiplied * f
    }
}

/// A premultiplied RGBA8 image that paints are composited onto (source-over).
///
/// Large fills and group composites run their rows in bands on `threads` threads; every
/// pixel is computed the same way whatever the band, so the bytes do not depend on `threads`.
public struct Canvas: Sendable {
    /// The pixels.
    public var image: Image
    /// Threads a large fill or composite may use.
    public var threads: Int

    public init(image: Image, threads: Int = 1) {
        self.image = image
        self.threads = max(1, threads)
    }

    /// Composites `paint` through `mask`, limited by `clip`, scaled by `opacity`.
    /// - Parameters:
    ///   - cover: what is drawn right after this fill; the fill may skip the pixels it replaces.
    ///   - hidden: rectangles a later opaque fill replaces before anything reads them; the fill
    ///     skips them.
    public mutating func fill(
        _ mask: Mask, with paint: Paint, clip: Mask?, opacity: Double, under cover: Cover? = nil,
        hiddenBy hidden: [PixelRect] = []
    ) {
        let r = mask.rect
        guard r.width > 0, r.height > 0, r.y < image.height, r.x < image.width, r.x + r.width > 0, r.y + r.height > 0
        else { return }
        // Outside the clip's rectangle coverage is 0: only the overlap is visited.
        var (x0, y0) = (max(r.x, 0), max(r.y, 0))
        var (x1, y1) = (min(r.x + r.width, image.width), min(r.y + r.height, image.height))
        if let clip {
            (x0, y0) = (max(x0, clip.rect.x), max(y0, clip.rect.y))
            (x1, y1) = (min(x1, clip.rect.x + clip.rect.width), min(y1, clip.rect.y + clip.rect.height))
        }
        guard x1 > x0, y1 > y0 else { return }
        let threads = threads
        image.bytes.withUnsafeMutableBufferPointer { pixels in
            mask.bytes.withUnsafeBufferPointer { coverage in
                (clip?.bytes ?? []).withUnsafeBufferPointer { clipCoverage in
                    Canvas.withPlanes(of: cover) { first, second in
                        let rows = FillRows(
                            pixels: pixels.baseAddress!, width: image.width, columns: x0..<x1,
                            mask: coverage.baseAddress!, maskRect: r, clip: clip.map { _ in clipCoverage.baseAddress! },
                            clipRect: clip?.rect ?? r, cover: (first, second),
                            hidden: hidden.filter { $0.y < y1 && $0.y + $0.height > y0 }.sorted { $0.x < $1.x },
                            paint: paint, opacity: opacity)
                        RowBands.run(y0..<y1, width: x1 - x0, threads: threads) { rows.run($0) }
                    }
                }
            }
        }
    }

    /// The byte planes that must all read 255 where `cover` is opaque.
    private static func withPlanes<R>(of cover: Cover?, _ body: (CoverPlane?, CoverPlane?) -> R) -> R {
        switch cover {
        case nil: return body(nil, nil)
        case .image(let image, let x, let y):
            return image.bytes.withUnsafeBufferPointer { pixels in
                body(
                    CoverPlane(
                        base: pixels.baseAddress! + 3,
                        rect: PixelRect(x: x, y: y, width: image.width, height: image.height), step: 4),
                    nil)
            }
        case .mask(let mask, let clip):
            // An empty mask or clip covers nothing.
            if mask.bytes.isEmpty || clip?.bytes.isEmpty == true { return body(nil, nil) }
            return mask.bytes.withUnsafeBufferPointer { coverage in
                (clip?.bytes ?? []).withUnsafeBufferPointer { clipCoverage in
                    body(
                        CoverPlane(base: coverage.baseAddress!, rect: mask.rect, step: 1),
                        clip.map { CoverPlane(base: clipCoverage.baseAddress!, rect: $0.rect, step: 1) })
                }
            }
        }
    }

    /// Composites the part `area` of an offscreen group (premultiplied, in the group's own
    /// pixels) with `opacity`; the group's pixel (0, 0) lands on `placement`'s origin.
    public mutating func draw(_ group: Image, at placement: PixelRect, opacity: Double, within area: PixelRect) {
        let o = Float(min(max(opacity, 0), 1))
        let (ox, oy) = (placement.x, placement.y)
        let target = PixelRect(x: area.x + ox, y: area.y + oy, width: area.width, height: area.height)
        guard let target = target.clipped(width: image.width, height: image.height) else { return }
        let (width, groupWidth, threads) = (image.width, group.width, threads)
        image.bytes.withUnsafeMutableBufferPointer { pixels in
            group.bytes.withUnsafeBufferPointer { source in
                let (canvas, group) = (Pixels(pixels.baseAddress!), Pixels(source.baseAddress!))
                RowBands.run(target.y..<(target.y + target.height), width: target.width, threads: threads) { rows in
                    let (x0, count) = (target.x, target.width)
                    for y in rows {
                        let from = group.base + 4 * ((y - oy) * groupWidth + x0 - ox)
                        let to = canvas.base + 4 * (y * width + x0)
                        for i in 0..<count {
                            let (s, d) = (from + 4 * i, to + 4 * i)
                            if s[3] == 0 { continue }
                            // Source-over of an opaque pixel at full opacity is that pixel.
                            if s[3] == 255, o == 1 {
                                UnsafeMutableRawPointer(d).storeBytes(
                                    of: UnsafeRawPointer(s).loadUnaligned(as: UInt32.self), as: UInt32.self)
                                continue
                            }
                            let color = SIMD4<Float>(Float(s[0]), Float(s[1]), Float(s[2]), Float(s[3]))
                            Canvas.blend(color * o, into: d)
                        }
                    }
                }
            }
        }
    }

    /// Source-over of one premultiplied pixel (channels 0…255).
    @inline(__always)
    static func blend(_ source: SIMD4<Float>, into pixel: UnsafeMutablePointer<UInt8>) {
        let keep = 1 - source.w / 255
        let below = SIMD4<Float>(Float(pixel[0]), Float(pixel[1]), Float(pixel[2]), Float(pixel[3]))
        var value = source + below * keep + 0.5
        value.replace(with: 0, where: value .< 0)
        value.replace(with: 255, where: value .> 255)
        // Truncation of 0…255 without a checked conversion: floor, then the integer is the
        // low mantissa bits of floor + 2²³.
        let bits = unsafeBitCast(value.rounded(.down) + 8_388_608, to: SIMD4<UInt32>.self)
        for c in 0..<4 { pixel[c] = UInt8(truncatingIfNeeded: bits[c]) }
    }
}

extension Float {
    /// The value, in 0 ..< 256, truncated to a byte: the same as `UInt8(self)` without the
    /// checked conversion, which costs more than the rest of a rasterizer's inner loop (the
    /// integer is the low mantissa bits of floor + 2²³).
    @inline(__always)
    var truncatedByte: UInt8 {
        UInt8(truncatingIfNeeded: (rounded(.down) + 8_388_608).bitPattern)
    }
}

/// What is drawn right after a fill and replaces pixels outright where it is opaque, so the
/// fill need not blend there: an offscreen group composited at full opacity, or an opaque
/// colour through a mask and clip (a layer's background after its shadow).
public enum Cover: Sendable {
    /// An RGBA image with its pixel (0, 0) at canvas pixel (x, y); opaque where alpha is 255.
    case image(Image, x: Int, y: Int)
    /// Opaque where both the mask and the clip (if any) are 255.
    case mask(Mask, clip: Mask?)
}

/// A pointer handed to the workers of one banded operation, each writing only its own rows.
struct Pixels<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>

    init(_ base: UnsafeMutablePointer<Element>) {
        self.base = base
    }

    init(_ base: UnsafePointer<Element>) {
        self.base = UnsafeMutablePointer(mutating: base)
    }
}
