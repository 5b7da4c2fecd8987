/// How a filled area is coloured.
public enum Paint: Sendable, Hashable {
    /// One colour.
    case solid(Color)
    /// A linear gradient; `toLocal` maps canvas pixels to the layer's unit square (0…1 on both
    /// axes over its bounds), where the gradient's start and end points live.
    case linear(LinearGradient, toLocal: AffineTransform)
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
public struct Canvas: Sendable {
    /// The pixels.
    public var image: Image

    public init(image: Image) {
        self.image = image
    }

    /// Composites `paint` through `mask`, limited by `clip`, scaled by `opacity`.
    public mutating func fill(_ mask: Mask, with paint: Paint, clip: Mask?, opacity: Double) {
        let width = image.width
        let height = image.height
        let o = Float(min(max(opacity, 0), 1)) / 255
        let r = mask.rect
        guard r.width > 0, r.height > 0, r.y < height, r.x < width, r.x + r.width > 0, r.y + r.height > 0 else {
            return
        }
        var solid = SIMD4<Float>.zero
        var gradient: LinearGradient?
        var toLocal = AffineTransform.identity
        switch paint {
        case .solid(let color): solid = color.premultiplied
        case .linear(let g, let map): (gradient, toLocal) = (g, map)
        }
        // An opaque colour at full coverage replaces the pixel outright.
        let opaque: UInt32? =
            gradient == nil && solid.w == 255 && opacity >= 1
            ? UInt32(solid.x.rounded()) | UInt32(solid.y.rounded()) << 8 | UInt32(solid.z.rounded()) << 16 | 0xFF00_0000
            : nil
        // Outside the clip's rectangle coverage is 0: only the overlap is visited.
        var (x0, y0) = (max(r.x, 0), max(r.y, 0))
        var (x1, y1) = (min(r.x + r.width, width), min(r.y + r.height, height))
        if let clip {
            (x0, y0) = (max(x0, clip.rect.x), max(y0, clip.rect.y))
            (x1, y1) = (min(x1, clip.rect.x + clip.rect.width), min(y1, clip.rect.y + clip.rect.height))
        }
        guard x1 > x0, y1 > y0 else { return }
        let clipRect = clip?.rect ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
        let clipBytes = clip?.bytes ?? []
        let clipped = clip != nil
        image.bytes.withUnsafeMutableBufferPointer { pixels in
            mask.bytes.withUnsafeBufferPointer { coverageBytes in
                clipBytes.withUnsafeBufferPointer { clipCoverage in
                    let words = UnsafeMutableRawPointer(pixels.baseAddress!).assumingMemoryBound(to: UInt32.self)
                    let (maskBase, clipBase) = (coverageBytes.baseAddress!, clipCoverage.baseAddress)
                    for y in y0..<y1 {
                        let maskRow = maskBase + (y - r.y) * r.width - r.x
                        let clipRow = clipped ? clipBase! + (y - clipRect.y) * clipRect.width - clipRect.x : maskRow
                        @inline(__always) func covered(_ x: Int) -> Float {
                            let coverage = Float(maskRow[x])
                            return clipped ? coverage * Float(clipRow[x]) / 255 : coverage
                        }
                        var x = x0
                        while x < x1 {
                            let coverage = covered(x)
                            // A run of fully covered pixels under an opaque colour is stored at once.
                            if coverage == 255, let opaque {
                                var end = x + 1
                                while end < x1, covered(end) == 255 { end += 1 }
                                (words + y * width + x).update(repeating: opaque, count: end - x)
                                x = end
                                continue
                            }
                            defer { x += 1 }
                            if coverage == 0 { continue }
                            var source = solid
                            if let gradient {
                                let p = toLocal.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
                                let (dx, dy) = (gradient.end.x - gradient.start.x, gradient.end.y - gradient.start.y)
                                let length = dx * dx + dy * dy
                                let t =
                                    length > 0
                                    ? ((p.x - gradient.start.x) * dx + (p.y - gradient.start.y) * dy) / length : 0
                                source = gradient.color(at: t)
                            }
                            Canvas.blend(source * (coverage * o), into: pixels.baseAddress! + 4 * (y * width + x))
                        }
                    }
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
        let (width, groupWidth) = (image.width, group.width)
        image.bytes.withUnsafeMutableBufferPointer { pixels in
            group.bytes.withUnsafeBufferPointer { source in
                for y in target.y..<(target.y + target.height) {
                    for x in target.x..<(target.x + target.width) {
                        let s = 4 * ((y - oy) * groupWidth + x - ox)
                        if source[s + 3] == 0 { continue }
                        let color = SIMD4<Float>(
                            Float(source[s]), Float(source[s + 1]), Float(source[s + 2]), Float(source[s + 3]))
                        Canvas.blend(color * o, into: pixels.baseAddress! + 4 * (y * width + x))
                    }
                }
            }
        }
    }

    /// Source-over of one premultiplied pixel (channels 0…255).
    @inline(__always)
    static func blend(_ source: SIMD4<Float>, into pixel: UnsafeMutablePointer<UInt8>) {
        let keep = 1 - source.w / 255
        for c in 0..<4 {
            let value = source[c] + Float(pixel[c]) * keep
            pixel[c] = UInt8(min(max(value + 0.5, 0), 255))
        }
    }
}
