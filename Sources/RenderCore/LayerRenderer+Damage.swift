/// Drawing only what changed: the damage between two layer trees, and a frame redrawn within
/// it over the frame before.
extension LayerRenderer {
    /// Pixels added around every damaged box for antialiasing (coverage rounds outwards already;
    /// one more pixel absorbs rounding of the transforms).
    static let antialiasMargin = 2

    /// The pixels of a `width`×`height` canvas at `scale` that can differ between `old` and
    /// `new`, as non-overlapping rectangles (at most `maximumCount`, else their bounding box);
    /// empty when the trees are equal; nil when the change cannot be bounded (a non-finite
    /// box), so the caller draws the whole frame.
    ///
    /// A layer whose own properties and sublayer count are unchanged, that is not composited
    /// as a group (opacity 1, no shadow from its alpha) and blurs nothing, passes the question
    /// to its sublayers; any other changed layer damages its whole extent (shadow included)
    /// before and after. A backdrop blur reads every pixel of its region, so a blur whose
    /// region meets the damage damages that region too, until no more blur does.
    public static func damage(
        from old: Layer, to new: Layer, width: Int, height: Int, scale: Double, maximumCount: Int = 64
    ) -> [PixelRect]? {
        let root = AffineTransform.scale(scale, scale)
        var boxes: [Box] = []
        collectDamage(old, root, new, root, clip: nil, into: &boxes)
        if boxes.isEmpty { return [] }
        let canvas = PixelRect(x: 0, y: 0, width: width, height: height)
        var rects: [PixelRect] = []
        for box in boxes {
            guard [box.minX, box.minY, box.maxX, box.maxY].allSatisfy(\.isFinite) else { return nil }
            if let rect = box.pixels(within: nil).map({ $0.expanded(by: antialiasMargin) })?.intersection(canvas) {
                rects.append(rect)
            }
        }
        var blurs: [PixelRect] = []
        collectBlurs(new, root, into: &blurs)
        collectBlurs(old, root, into: &blurs)
        var pending = blurs.compactMap { $0.intersection(canvas) }
        var grew = true
        while grew {
            grew = false
            pending.removeAll { region in
                guard rects.contains(where: { $0.intersection(region) != nil }) else { return false }
                rects.append(region)
                grew = true
                return true
            }
        }
        return PixelRect.merged(rects, maximumCount: maximumCount)
    }

    /// Adds the boxes that changed between `old` (through `mOld`) and `new` (through `mNew`),
    /// cut to `clip`: the bounds of the unchanged ancestors that mask to them, outside which
    /// nothing the layers paint lands (a pager's pages off its sides damage nothing).
    private static func collectDamage(
        _ old: Layer, _ mOld: AffineTransform, _ new: Layer, _ mNew: AffineTransform, clip: Box?,
        into boxes: inout [Box]
    ) {
        let (oldM, newM) = (transform(of: old, parent: mOld), transform(of: new, parent: mNew))
        if oldM == newM, old == new { return }
        var (oldOwn, newOwn) = (old, new)
        (oldOwn.sublayers, newOwn.sublayers) = ([], [])
        let composited = new.opacity < 1 || (new.shadow != nil && new.shadow?.path == nil) || new.backdropBlur != nil
        if oldM == newM, oldOwn == newOwn, old.sublayers.count == new.sublayers.count, !composited {
            var inner = clip
            if new.masksToBounds {
                // Sublayers that cannot show paint nothing that changes.
                guard let bounds = Box(new.bounds, newM).intersection(clip) else { return }
                inner = bounds
            }
            for (before, after) in zip(old.sublayers, new.sublayers) {
                collectDamage(before, oldM, after, newM, clip: inner, into: &boxes)
            }
            return
        }
        for (layer, m) in [(old, oldM), (new, newM)] where layer.opacity > 0 {
            if let box = extent(of: layer, m, shadows: true).intersection(clip) { boxes.append(box) }
        }
    }

    /// Adds the pixel regions of every backdrop blur in the tree.
    private static func collectBlurs(_ layer: Layer, _ parent: AffineTransform, into regions: inout [PixelRect]) {
        guard layer.opacity > 0 else { return }
        let m = transform(of: layer, parent: parent)
        if layer.backdropBlur != nil, let region = Box(layer.bounds, m).pixels(within: nil) {
            regions.append(region.expanded(by: antialiasMargin))
        }
        for sublayer in layer.sublayers { collectBlurs(sublayer, m, into: &regions) }
    }

    /// How far beyond `rect` the pixels its pixels depend on can lie, besides backdrop blurs
    /// (whose whole region ``damage(from:to:width:height:scale:maximumCount:)`` includes): the
    /// blur and offset of the farthest shadow that can fall on it, in canvas pixels. A shadow
    /// elsewhere paints none of `rect`, so the shape it blurs need not be whole there.
    static func reach(of layer: Layer, _ parent: AffineTransform, toward rect: PixelRect) -> Int {
        let m = transform(of: layer, parent: parent)
        var reach = 0
        if let shadow = layer.shadow, shadow.opacity > 0, shadow.color.alpha > 0,
            extent(of: layer, m, shadows: true).pixels(within: rect) != nil
        {
            let far = shadowPad(shadow, m) + (abs(shadow.offset.width) + abs(shadow.offset.height)) * m.meanScale
            reach = far.isFinite ? Int(min(far, Double(Image.maxSide)).rounded(.up)) + 1 : Image.maxSide
        }
        for sublayer in layer.sublayers where sublayer.opacity > 0 {
            reach = max(reach, Self.reach(of: sublayer, m, toward: rect))
        }
        return reach
    }

    /// Renders `root` again only within `damage`, over `frame` (the frame that showed the
    /// layers the damage was found against), in place: each rectangle is drawn on a canvas of
    /// its own, widened by the reach of the farthest shadow falling on it so that shadows cast
    /// from outside it fall the same, and its pixels replace the frame's. The result is the frame
    /// ``render(_:width:height:scale:background:observer:)`` draws, byte for byte.
    ///
    /// The frame's bytes are written where they are when nothing else holds them (no copy of
    /// the whole frame); on an error the frame may be partly redrawn.
    /// - Returns: where the pixels changed: each damaged rectangle trimmed to the pixels that
    ///   differ from the frame before (compared while they are replaced), in bands as
    ///   ``Image/damage(since:within:maximumCount:joinGap:)`` finds them, at most
    ///   `bandsPerRect` for each.
    /// - Throws: ``RenderError`` as `render` does, or `invalidSize` when `frame` is not
    ///   `width`×`height` RGBA.
    @discardableResult
    public func render(
        _ root: Layer, width: Int, height: Int, scale: Double = 1, background: Color = .clear,
        over frame: inout Image, damage: [PixelRect], bandsPerRect: Int = 8,
        observer: (any RenderPhaseObserver)? = nil
    ) throws -> [PixelRect] {
        guard frame.width == width, frame.height == height, frame.channels == 4 else {
            throw RenderError(
                .invalidSize, "previous frame \(frame.width)×\(frame.height) is not the \(width)×\(height) canvas")
        }
        let canvas = PixelRect(x: 0, y: 0, width: width, height: height)
        var total = RenderStatistics()
        var changed: [PixelRect] = []
        for rect in damage {
            guard let rect = rect.intersection(canvas) else { continue }
            let margin = Self.reach(of: root, .scale(scale, scale), toward: rect) + Self.antialiasMargin
            guard let window = rect.expanded(by: margin).intersection(canvas) else { continue }
            // The last window's bytes, taken so that this render holds the only reference.
            var reused: [UInt8] = []
            caches.withLock { swap(&reused, &$0.window) }
            let drawn = try self.render(
                root, width: window.width, height: window.height, scale: scale, origin: (window.x, window.y),
                background: background, observer: observer, reusing: consume reused)
            total.add(self.lastStatistics)
            changed += frame.changes(from: drawn, at: (window.x, window.y), within: rect, maximumCount: bandsPerRect)
            frame.copy(
                from: drawn,
                PixelRect(x: rect.x - window.x, y: rect.y - window.y, width: rect.width, height: rect.height),
                to: (rect.x, rect.y))
            caches.withLock { $0.window = drawn.bytes }
        }
        self.statistics.withLock { $0 = total }
        return changed
    }
}

extension PixelRect {
    /// This rectangle grown by `pixels` on every side.
    func expanded(by pixels: Int) -> PixelRect {
        PixelRect(x: x - pixels, y: y - pixels, width: width + 2 * pixels, height: height + 2 * pixels)
    }

    /// The smallest rectangle holding both.
    func union(_ other: PixelRect) -> PixelRect {
        let (x0, y0) = (min(x, other.x), min(y, other.y))
        let (x1, y1) = (max(x + width, other.x + other.width), max(y + height, other.y + other.height))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// `rects` with every overlapping pair replaced by its bounding box until none overlaps;
    /// their bounding box when more than `maximumCount` remain.
    public static func merged(_ rects: [PixelRect], maximumCount: Int) -> [PixelRect] {
        var result: [PixelRect] = []
        for rect in rects {
            var rect = rect
            while let index = result.firstIndex(where: { $0.intersection(rect) != nil }) {
                rect = rect.union(result.remove(at: index))
            }
            result.append(rect)
        }
        guard result.count > maximumCount, let first = result.first else { return result }
        return [result.dropFirst().reduce(first) { $0.union($1) }]
    }

    /// At most `maximumCount` rectangles that hold every one of `rects` whole (each in one of
    /// them), with few pixels more: overlapping ones merged, then the two whose bounding box adds
    /// the fewest pixels to theirs, until few enough remain. Quadratic in the count of each
    /// round; for the few dozen tiles a stream holds.
    public static func clustered(_ rects: [PixelRect], maximumCount: Int) -> [PixelRect] {
        var boxes = merged(rects, maximumCount: Int.max)
        while boxes.count > max(maximumCount, 1) {
            var best = (first: 0, second: 1, union: boxes[0], added: Int.max)
            for i in boxes.indices {
                for j in boxes.indices where j > i {
                    let union = boxes[i].union(boxes[j])
                    let added = union.area - boxes[i].area - boxes[j].area
                    if added < best.added { best = (i, j, union, added) }
                }
            }
            boxes.remove(at: best.second)
            boxes.remove(at: best.first)
            boxes = merged(boxes + [best.union], maximumCount: Int.max)
        }
        return boxes
    }

    /// Its pixels.
    var area: Int { width * height }
}

extension RenderStatistics {
    /// Adds the counts of another render call (the largest group is the larger of the two).
    mutating func add(_ other: RenderStatistics) {
        layersDrawn += other.layersDrawn
        layersCulled += other.layersCulled
        offscreenGroups += other.offscreenGroups
        largestOffscreenPixels = max(largestOffscreenPixels, other.largestOffscreenPixels)
        offscreenAllocations += other.offscreenAllocations
        textCacheHits += other.textCacheHits
        textCacheMisses += other.textCacheMisses
        groupCacheHits += other.groupCacheHits
        shadowCacheHits += other.shadowCacheHits
        shadowCacheMisses += other.shadowCacheMisses
    }
}

extension Image {
    /// Copies `rect` of `source` to `origin` in this image (both RGBA, the rectangle inside both).
    mutating func copy(from source: Image, _ rect: PixelRect, to origin: (x: Int, y: Int)) {
        let rowBytes = rect.width * channels
        let (targetWidth, sourceWidth, channels) = (width, source.width, channels)
        bytes.withUnsafeMutableBytes { target in
            source.bytes.withUnsafeBytes { from in
                for row in 0..<rect.height {
                    let to = ((origin.y + row) * targetWidth + origin.x) * channels
                    let at = ((rect.y + row) * sourceWidth + rect.x) * channels
                    (target.baseAddress! + to).copyMemory(from: from.baseAddress! + at, byteCount: rowBytes)
                }
            }
        }
    }
}
