/// Where a layer can paint, so that layers off the canvas or outside their clip cost nothing
/// and offscreen groups cover only their layer.
extension LayerRenderer {
    /// The map from `layer`'s bounds to canvas pixels, given its superlayer's map.
    static func transform(of layer: Layer, parent: AffineTransform) -> AffineTransform {
        let (w, h) = (layer.frame.width, layer.frame.height)
        return AffineTransform.translation(-w / 2, -h / 2).concatenating(layer.transform)
            .concatenating(.translation(layer.frame.minX + w / 2, layer.frame.minY + h / 2)).concatenating(parent)
    }

    /// A canvas-space box holding every pixel `layer` paints through `m`: its bounds, its shape,
    /// the sublayers it does not clip and, when `shadows` is set, its own shadow (blur pad and
    /// offset included).
    static func extent(of layer: Layer, _ m: AffineTransform, shadows: Bool) -> Box {
        var box = Box(layer.bounds, m)
        if let shape = layer.shape { box.formUnion(Box(shape.path.subpaths.joined(), m)) }
        if !layer.masksToBounds {
            for sublayer in layer.sublayers where sublayer.opacity > 0 {
                box.formUnion(extent(of: sublayer, transform(of: sublayer, parent: m), shadows: true))
            }
        }
        if shadows, let shadow = layer.shadow, shadow.opacity > 0, shadow.color.alpha > 0 {
            let pad = shadowPad(shadow, m)
            let scale = m.meanScale
            var cast = shadow.path.map { Box($0.subpaths.joined(), m) } ?? box
            cast = Box(
                minX: cast.minX - pad, minY: cast.minY - pad, maxX: cast.maxX + pad, maxY: cast.maxY + pad)
            let (dx, dy) = (shadow.offset.width * scale, shadow.offset.height * scale)
            box.formUnion(Box(minX: cast.minX + dx, minY: cast.minY + dy, maxX: cast.maxX + dx, maxY: cast.maxY + dy))
        }
        return box
    }

    /// How far a shadow's blur reaches beyond its shape, in canvas pixels.
    static func shadowPad(_ shadow: Shadow, _ m: AffineTransform) -> Double {
        3 * Shadow.sigmaPerRadius * max(shadow.radius, 0) * m.meanScale + 3
    }

    /// An axis-aligned box in canvas pixels.
    struct Box {
        var minX: Double
        var minY: Double
        var maxX: Double
        var maxY: Double

        init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
            (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
        }

        /// The bounding box of `rect` mapped through `m`.
        init(_ rect: Rect, _ m: AffineTransform) {
            self.init(
                [
                    Point(rect.minX, rect.minY), Point(rect.maxX, rect.minY), Point(rect.minX, rect.maxY),
                    Point(rect.maxX, rect.maxY),
                ], m)
        }

        /// The bounding box of `points` mapped through `m` (empty at the origin for no points).
        init(_ points: some Sequence<Point>, _ m: AffineTransform) {
            var iterator = points.makeIterator()
            let first = m.apply(iterator.next() ?? Point(0, 0))
            self.init(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
            while let point = iterator.next() {
                let p = m.apply(point)
                formUnion(Box(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y))
            }
        }

        mutating func formUnion(_ other: Box) {
            minX = min(minX, other.minX)
            minY = min(minY, other.minY)
            maxX = max(maxX, other.maxX)
            maxY = max(maxY, other.maxY)
        }

        /// The part of this box inside `clip` (all of it when nil), nil when they do not meet.
        /// A box or clip with a NaN or infinite side cuts nothing: such a box is drawing's
        /// error to report, and the damage treats it as unbounded.
        func intersection(_ clip: Box?) -> Box? {
            guard let clip, [minX, minY, maxX, maxY, clip.minX, clip.minY, clip.maxX, clip.maxY].allSatisfy(\.isFinite)
            else { return self }
            let (x0, y0) = (max(minX, clip.minX), max(minY, clip.minY))
            let (x1, y1) = (min(maxX, clip.maxX), min(maxY, clip.maxY))
            return x1 > x0 && y1 > y0 ? Box(minX: x0, minY: y0, maxX: x1, maxY: y1) : nil
        }

        /// The whole pixels this box touches, within `limit` if given; nil when none. A box with a
        /// NaN or infinite side (bad geometry that drawing reports) covers all of `limit`.
        func pixels(within limit: PixelRect? = nil) -> PixelRect? {
            var (x0, y0, x1, y1) = (minX.rounded(.down), minY.rounded(.down), maxX.rounded(.up), maxY.rounded(.up))
            if ![x0, y0, x1, y1].allSatisfy(\.isFinite) {
                guard let limit else { return nil }
                (x0, y0) = (Double(limit.x), Double(limit.y))
                (x1, y1) = (Double(limit.x + limit.width), Double(limit.y + limit.height))
            }
            if let limit {
                (x0, y0) = (max(x0, Double(limit.x)), max(y0, Double(limit.y)))
                (x1, y1) = (min(x1, Double(limit.x + limit.width)), min(y1, Double(limit.y + limit.height)))
            }
            guard x1 > x0, y1 > y0 else { return nil }
            return PixelRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
        }
    }
}
