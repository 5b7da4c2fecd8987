/// Overdraw: pixels that a later opaque, axis-aligned, unrounded background replaces outright
/// need not be painted first (the views of a scene cover its root, a page covers its pager).
/// Only layers drawn straight onto the canvas count, and a backdrop blur, which reads the pixels
/// below it, ends the reach of the layers after it over the layers before it.
extension LayerRenderer {
    /// What one layer's drawing may skip.
    struct Occlusion {
        /// The opaque rectangles drawn after the layer and all its sublayers (up to the next
        /// backdrop blur): the layer's border may skip them.
        var later: [PixelRect]
        /// Where the layer's clip is 255 (the canvas without a clip); nil inside an offscreen
        /// group or a rounded or turned clip, where the layer's subtree adds no rectangle.
        var interior: PixelRect?

        static let none = Occlusion(later: [], interior: nil)
    }

    /// A layer's skips before its sublayers (shadow, background, text) and for each sublayer.
    struct LayerOcclusion {
        var own: [PixelRect]
        var sublayers: [Occlusion]
    }

    static func occlusion(of layer: Layer, _ m: AffineTransform, _ outer: Occlusion) -> LayerOcclusion {
        guard !layer.sublayers.isEmpty else { return LayerOcclusion(own: outer.later, sublayers: []) }
        let inner = layer.masksToBounds ? interior(of: layer, m, within: outer.interior) : outer.interior
        var later = outer.later
        var sublayers = [Occlusion](repeating: .none, count: layer.sublayers.count)
        for index in layer.sublayers.indices.reversed() {
            sublayers[index] = Occlusion(later: later, interior: inner)
            let drawn = opaqueRectangles(of: layer.sublayers[index], parent: m, interior: inner)
            later = drawn.blurs ? [] : later + drawn.rectangles
        }
        return LayerOcclusion(own: later, sublayers: sublayers)
    }

    /// The rectangles `layer`'s subtree fills with an opaque colour at full coverage on the
    /// canvas, and whether it holds a backdrop blur.
    private static func opaqueRectangles(of layer: Layer, parent: AffineTransform, interior: PixelRect?) -> (
        rectangles: [PixelRect], blurs: Bool
    ) {
        let alphaShadow = layer.shadow.map { $0.opacity > 0 && $0.color.alpha > 0 && $0.path == nil } ?? false
        // Not drawn, or drawn offscreen (a blur there reads the group, not the canvas).
        if !(layer.opacity > 0) || ((layer.opacity < 1 || alphaShadow) && layer.backdropBlur == nil) {
            return ([], false)
        }
        let m = transform(of: layer, parent: parent)
        var rectangles: [PixelRect] = []
        if layer.opacity >= 1, layer.backdropBlur == nil, let color = layer.backgroundColor,
            color.premultiplied.w == 255, let opaque = Self.interior(of: layer, m, within: interior)
        {
            rectangles.append(opaque)
        }
        var blurs = layer.backdropBlur != nil
        let inner = layer.masksToBounds ? Self.interior(of: layer, m, within: interior) : interior
        for sublayer in layer.sublayers {
            let drawn = opaqueRectangles(of: sublayer, parent: m, interior: inner)
            rectangles += drawn.rectangles
            blurs = blurs || drawn.blurs
        }
        return (rectangles, blurs)
    }

    /// The pixels an unrounded, axis-aligned layer covers fully (its mask is 255 there), within
    /// `limit`; nil for other layers or when none.
    private static func interior(of layer: Layer, _ m: AffineTransform, within limit: PixelRect?) -> PixelRect? {
        guard let limit, layer.cornerRadius <= 0, m.b == 0, m.c == 0 else { return nil }
        let box = Box(layer.bounds, m)
        // Far-off coordinates must not overflow Int; such a layer is clipped to `limit` anyway.
        let bound = 1e12
        let (x0, y0) = (box.minX.rounded(.up), box.minY.rounded(.up))
        let (x1, y1) = (box.maxX.rounded(.down), box.maxY.rounded(.down))
        guard [x0, y0, x1, y1].allSatisfy({ $0.isFinite && abs($0) <= bound }), x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0)).intersection(limit)
    }
}
