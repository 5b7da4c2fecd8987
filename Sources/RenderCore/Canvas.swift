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
        var gradient: (LinearGradient, AffineTransform)?
        switch paint {
        case .solid(let color): solid = color.premultiplied
        case .linear(let g, let toLocal): gradient = (g, toLocal)
        }
        // An opaque colour at full coverage replaces the pixel outright.
        let opaque: UInt32? =
            gradient == nil && solid.w == 255 && opacity >= 1
            ? UInt32(solid.x.rounded()) | UInt32(solid.y.rounded()) << 8 | UInt32(solid.z.rounded()) << 16 | 0xFF00_0000
            : nil
        image.bytes.withUnsafeMutableBufferPointer { pixels in
            mask.bytes.withUnsafeBufferPointer { coverageBytes in
                for y in max(r.y, 0)..<min(r.y + r.height, height) {
                    for x in max(r.x, 0)..<min(r.x + r.width, width) {
                        var coverage = Float(coverageBytes[(y - r.y) * r.width + (x - r.x)])
                        if coverage == 0 { continue }
                        if let clip {
                            coverage *= Float(clip.coverage(x, y)) / 255
                            if coverage == 0 { continue }
                        }
                        if coverage == 255, let opaque {
                            UnsafeMutableRawPointer(pixels.baseAddress! + 4 * (y * width + x))
                                .storeBytes(of: opaque, as: UInt32.self)
                            continue
                        }
                        var source = solid
                        if let (g, toLocal) = gradient {
                            let p = toLocal.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
                            let (dx, dy) = (g.end.x - g.start.x, g.end.y - g.start.y)
                            let length = dx * dx + dy * dy
                            let t = length > 0 ? ((p.x - g.start.x) * dx + (p.y - g.start.y) * dy) / length : 0
                            source = g.color(at: t)
                        }
                        Canvas.blend(source * (coverage * o), into: pixels.baseAddress! + 4 * (y * width + x))
                    }
                }
            }
        }
    }

    /// Composites the part `area` of another canvas-sized premultiplied image (an offscreen
    /// group) with `opacity`.
    public mutating func draw(_ group: Image, opacity: Double, within area: PixelRect) {
        let o = Float(min(max(opacity, 0), 1))
        guard let area = area.clipped(width: image.width, height: image.height) else { return }
        for y in area.y..<(area.y + area.height) {
            for x in area.x..<(area.x + area.width) {
                let i = 4 * (y * image.width + x)
                if group.bytes[i + 3] == 0 { continue }
                let source = SIMD4<Float>(
                    Float(group.bytes[i]), Float(group.bytes[i + 1]), Float(group.bytes[i + 2]),
                    Float(group.bytes[i + 3]))
                image.bytes.withUnsafeMutableBufferPointer { Canvas.blend(source * o, into: $0.baseAddress! + i) }
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
