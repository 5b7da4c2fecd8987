import Synchronization

/// Renders a layer tree into a premultiplied RGBA8 image: state in, image out.
///
/// Per layer, in Core Animation's order: shadow (beneath everything), background colour,
/// gradient, contents image, shape, backdrop blur, text, sublayers, border; a layer with opacity < 1 (or a shadow
/// taken from its own alpha) is drawn as an offscreen group first, an image covering only what
/// the layer can reach, from a pool kept across frames. `masksToBounds` clips text, sublayers
/// and the layer's own shadow to its rounded bounds. A layer whose contents, sublayers and
/// shadow all lie outside the canvas or its clip is skipped (culled), and text coverage is
/// cached across frames, so the cost of a frame follows what is on screen.
public final class LayerRenderer: Sendable {
    public let blur: BlurKernel
    public let font: FontFace?
    /// Offscreen buffers and cached text, kept across frames.
    let caches = Mutex(Caches())
    let statistics = Mutex(RenderStatistics())

    /// - Parameters:
    ///   - blur: the kernel for shadows and backdrop blurs (its pool is reused across frames).
    ///   - font: the face for text; layers with text are skipped when nil.
    public init(blur: BlurKernel = BlurKernel(), font: FontFace? = nil) {
        self.blur = blur
        self.font = font
    }

    /// What the last finished ``render(_:width:height:scale:background:observer:)`` did.
    public var lastStatistics: RenderStatistics { statistics.withLock { $0 } }

    /// Renders `root` on a `width`×`height` pixel canvas, `scale` pixels per point.
    /// - Parameter observer: told where the blur phases begin and end, for timing them.
    /// - Throws: ``RenderError`` for invalid sizes, NaN or infinite geometry, or bad blur parameters.
    public func render(
        _ root: Layer, width: Int, height: Int, scale: Double = 1, background: Color = .clear,
        observer: (any RenderPhaseObserver)? = nil
    ) throws -> Image {
        try render(
            root, width: width, height: height, scale: scale, origin: (0, 0), background: background, observer: observer
        )
    }

    /// Renders the `width`×`height` pixels at `origin` of the canvas `root` is drawn on (a
    /// damaged window of it, ``render(_:width:height:scale:background:over:damage:observer:)``),
    /// into `reused` bytes when given (an earlier window's), cleared only when something of
    /// them could show.
    func render(
        _ root: Layer, width: Int, height: Int, scale: Double, origin: (x: Int, y: Int), background: Color,
        observer: (any RenderPhaseObserver)?, reusing reused: consuming [UInt8]? = nil
    ) throws -> Image {
        guard scale.isFinite, scale > 0 else { throw RenderError(.invalidParameter, "scale must be > 0, got \(scale)") }
        var parent = AffineTransform.scale(scale, scale)
        if origin != (0, 0) { parent = parent.concatenating(.translation(Double(-origin.x), Double(-origin.y))) }
        let image: Image
        // Consumed, so that the canvas holds the bytes' only reference (drawing copies none).
        if var bytes = consume reused {
            let count = width * height * 4
            if bytes.count > count { bytes.removeLast(bytes.count - count) }
            if bytes.count < count { bytes.append(contentsOf: repeatElement(0, count: count - bytes.count)) }
            if background.premultiplied.w < 255, !Self.covers(root, parent, width: width, height: height) {
                bytes.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            }
            image = try Image(width: width, height: height, bytes: bytes)
        } else {
            image = try Image(width: width, height: height)
        }
        var canvas = Canvas(image: image, threads: blur.threads)
        if background.alpha > 0 {
            canvas.fill(
                Mask(
                    rect: PixelRect(x: 0, y: 0, width: width, height: height),
                    bytes: [UInt8](repeating: 255, count: width * height)), with: .solid(background), clip: nil,
                opacity: 1)
        }
        let pass = Pass(observer)
        let whole = PixelRect(x: 0, y: 0, width: width, height: height)
        try draw(
            root, parent: parent, clip: nil, Occlusion(later: [], interior: whole), into: &canvas, pass)
        caches.withLock { $0.endFrame() }
        statistics.withLock { $0 = pass.statistics }
        return canvas.image
    }

    /// Whether `root`, drawn through `parent` first on a `width`×`height` canvas, stores its
    /// opaque background over every pixel (a rectangle's coverage is 255 wherever it covers a
    /// whole pixel, and an opaque colour at full coverage is stored, not blended), so that what
    /// the canvas held before cannot show: pixels the fill skips are those a later opaque fill
    /// replaces.
    private static func covers(_ root: Layer, _ parent: AffineTransform, width: Int, height: Int) -> Bool {
        let m = transform(of: root, parent: parent)
        guard root.opacity >= 1, root.shadow == nil, root.backdropBlur == nil, root.cornerRadius == 0, m.b == 0,
            m.c == 0, let color = root.backgroundColor, color.premultiplied.w == 255
        else { return false }
        let box = Box(root.bounds, m)
        return box.minX <= 0 && box.minY <= 0 && box.maxX >= Double(width) && box.maxY >= Double(height)
    }

    private func draw(
        _ layer: Layer, parent: AffineTransform, clip: Mask?, _ occlusion: Occlusion, into canvas: inout Canvas,
        _ pass: Pass
    ) throws {
        guard layer.frame.isFinite, layer.frame.width >= 0, layer.frame.height >= 0, layer.opacity.isFinite,
            [
                layer.transform.a, layer.transform.b, layer.transform.c, layer.transform.d, layer.transform.tx,
                layer.transform.ty,
            ].allSatisfy(\.isFinite)
        else { throw RenderError(.invalidParameter, "layer '\(layer.name)' has non-finite or negative geometry") }
        if layer.opacity <= 0 { return }
        let m = Self.transform(of: layer, parent: parent)
        // Everything a layer paints is limited by its clip and the canvas.
        let limit = clip?.rect ?? PixelRect(x: 0, y: 0, width: canvas.image.width, height: canvas.image.height)
        guard let limit = limit.clipped(width: canvas.image.width, height: canvas.image.height),
            Self.extent(of: layer, m, shadows: true).pixels(within: limit) != nil
        else {
            pass.statistics.layersCulled += 1
            return
        }
        pass.statistics.layersDrawn += 1
        let shadow = layer.shadow.flatMap { $0.opacity > 0 && $0.color.alpha > 0 ? $0 : nil }
        // A backdrop blur reads the canvas below, so such a layer is never drawn offscreen.
        let grouped = (layer.opacity < 1 || (shadow != nil && shadow?.path == nil)) && layer.backdropBlur == nil
        if grouped {
            // The group covers only what the layer's contents can reach; a shadow is drawn
            // straight onto the canvas from the group's alpha, so without a clip the group
            // also keeps contents just off the canvas whose shadow falls on it.
            var groupLimit = limit
            if let shadow, clip == nil {
                let far =
                    Self.shadowPad(shadow, m) + (abs(shadow.offset.width) + abs(shadow.offset.height)) * m.meanScale
                // Beyond the largest image a shadow fails anyway (drawShadow says why).
                let reach = Int(far.isFinite ? min(far, Double(Image.maxSide)) : 0) + 1
                groupLimit = PixelRect(
                    x: -reach, y: -reach, width: canvas.image.width + 2 * reach,
                    height: canvas.image.height + 2 * reach)
            }
            guard let area = Self.extent(of: layer, m, shadows: false).pixels(within: groupLimit) else { return }
            try drawGroup(layer, m, shadow, clip: clip, area: area, hiddenBy: occlusion.later, into: &canvas, pass)
            return
        }
        let shape = try Self.shape(
            of: layer, m, width: canvas.image.width, height: canvas.image.height, threads: blur.threads)
        let skips = Self.occlusion(of: layer, m, occlusion)
        if let shadow, let path = shadow.path {
            let mask = try Rasterizer.fill(
                path.applying(m), width: canvas.image.width, height: canvas.image.height, threads: blur.threads)
            let shadowClip = layer.masksToBounds ? (clip.map { $0.intersected(with: shape) } ?? shape) : clip
            // An opaque background, filled next, replaces the pixels it fully covers.
            let cover = layer.backgroundColor.flatMap {
                $0.premultiplied.w == 255 ? Cover.mask(shape, clip: clip) : nil
            }
            try drawShadow(
                shadow, shape: mask, m, clip: shadowClip, opacity: 1, under: cover,
                hiddenBy: layer.backdropBlur == nil ? skips.own : [], into: &canvas, pass)
        }
        try drawContents(layer, m, shape, clip: clip, skips, later: occlusion.later, into: &canvas, pass)
    }

    /// Draws `layer` into a pooled offscreen image covering `area` of the canvas, then its
    /// shadow and the image onto the canvas. A group its clip does not cut, drawn the same way
    /// in two frames, is kept (keyed by its contents and exact placement, whatever its opacity
    /// and shadow), so an unchanged layer is not drawn again.
    private func drawGroup(
        _ layer: Layer, _ m: AffineTransform, _ shadow: Shadow?, clip: Mask?, area: PixelRect,
        hiddenBy hidden: [PixelRect], into canvas: inout Canvas, _ pass: Pass
    ) throws {
        let local = m.concatenating(.translation(Double(-area.x), Double(-area.y)))
        var unplaced = layer
        unplaced.frame.origin = Point(0, 0)
        // Keyed by the contents alone: opacity and the shadow are applied when the image is
        // composited, so a fading or re-shadowed group keeps its image.
        unplaced.opacity = 1
        unplaced.shadow = nil
        let key =
            clip?.isOpaque(over: area) ?? true
            ? GroupKey(layer: unplaced, local: local, width: area.width, height: area.height) : nil
        let entry: GroupEntry
        if let key, let cached = group(key) {
            pass.statistics.groupCacheHits += 1
            entry = cached
        } else {
            var group = Canvas(
                image: try takeOffscreen(width: area.width, height: area.height, pass), threads: blur.threads)
            let localShape = try Self.shape(
                of: layer, local, width: area.width, height: area.height, threads: blur.threads)
            try drawContents(
                layer, local, localShape, clip: clip?.offsetBy(-area.x, -area.y),
                LayerOcclusion(own: [], sublayers: Array(repeating: .none, count: layer.sublayers.count)), later: [],
                into: &group, pass)
            let drawn = Self.opaqueBounds(of: group.image)
            entry = GroupEntry(
                image: group.image, drawn: drawn,
                alpha: shadow != nil && shadow?.path == nil ? Self.alpha(of: group.image, in: drawn) : nil)
            // A kept group's bytes belong to the cache; others go back to the pool.
            if !(key.map { keep(entry, for: $0) } ?? false) { giveBack(group.image) }
        }
        if let shadow {
            // The layer's own shape on the canvas is only needed when it clips its shadow.
            var shadowClip = clip
            if layer.masksToBounds {
                let shape = try Self.shape(
                    of: layer, m, width: canvas.image.width, height: canvas.image.height, threads: blur.threads)
                shadowClip = clip.map { $0.intersected(with: shape) } ?? shape
            }
            let shadowShape =
                try shadow.path.map {
                    try Rasterizer.fill(
                        $0.applying(m), width: canvas.image.width, height: canvas.image.height, threads: blur.threads)
                } ?? (entry.alpha ?? Self.alpha(of: entry.image, in: entry.drawn)).offsetBy(area.x, area.y)
            // The group, drawn next, replaces the pixels where it is opaque: the shadow skips them.
            let cover = layer.opacity >= 1 ? Cover.image(entry.image, x: area.x, y: area.y) : nil
            try drawShadow(
                shadow, shape: shadowShape, m, clip: shadowClip, opacity: layer.opacity, under: cover,
                hiddenBy: hidden, into: &canvas, pass)
        }
        canvas.draw(entry.image, at: area, opacity: layer.opacity, within: entry.drawn)
    }

    /// Draws the layer's own contents and its sublayers; `skips` says what each may leave
    /// unpainted, `later` what the border may.
    private func drawContents(
        _ layer: Layer, _ m: AffineTransform, _ shape: Mask, clip: Mask?, _ skips: LayerOcclusion,
        later: [PixelRect], into canvas: inout Canvas, _ pass: Pass
    ) throws {
        // What a backdrop blur reads must be painted.
        let below = layer.backdropBlur == nil ? skips.own : []
        if let color = layer.backgroundColor {
            canvas.fill(shape, with: .solid(color), clip: clip, opacity: 1, hiddenBy: below)
        }
        if let gradient = layer.gradient, let inverse = m.inverted, layer.frame.width > 0, layer.frame.height > 0 {
            let toUnit = inverse.concatenating(.scale(1 / layer.frame.width, 1 / layer.frame.height))
            canvas.fill(shape, with: .linear(gradient, toLocal: toUnit), clip: clip, opacity: 1, hiddenBy: below)
        }
        if let contents = layer.contents, let inverse = m.inverted, layer.frame.width > 0, layer.frame.height > 0 {
            let toImage = inverse.concatenating(contents.fillTransform(layer.bounds))
            canvas.fill(shape, with: .image(contents, toImage: toImage), clip: clip, opacity: 1, hiddenBy: below)
        }
        if let content = layer.shape {
            let mask = try Rasterizer.fill(
                content.path.applying(m), width: canvas.image.width, height: canvas.image.height, threads: blur.threads)
            canvas.fill(mask, with: .solid(content.color), clip: clip, opacity: 1, hiddenBy: below)
        }
        if let mode = layer.backdropBlur {
            let region = clip.map { shape.intersected(with: $0) } ?? shape
            try Self.timed(.blur, pass.observer) { try blur.apply(mode, to: &canvas.image, through: region) }
        }
        let inner = layer.masksToBounds ? (clip.map { $0.intersected(with: shape) } ?? shape) : clip
        if let text = layer.text, let font {
            try drawText(text, layer, m, font: font, clip: inner, hiddenBy: skips.own, into: &canvas, pass)
        }
        for (sublayer, occlusion) in zip(layer.sublayers, skips.sublayers) {
            try draw(sublayer, parent: m, clip: inner, occlusion, into: &canvas, pass)
        }
        if layer.borderWidth > 0 {
            var ring = Path(roundedRect: layer.bounds, cornerRadius: layer.cornerRadius)
            ring.addRoundedRect(
                layer.bounds.insetBy(layer.borderWidth, layer.borderWidth),
                cornerRadius: max(0, layer.cornerRadius - layer.borderWidth), reversed: true)
            let mask = try Rasterizer.fill(
                ring.applying(m), width: canvas.image.width, height: canvas.image.height, threads: blur.threads)
            canvas.fill(mask, with: .solid(layer.borderColor), clip: clip, opacity: 1, hiddenBy: later)
        }
    }

    /// The coverage of the layer's (rounded) bounds through `m`.
    private static func shape(
        of layer: Layer, _ m: AffineTransform, width: Int, height: Int, threads: Int
    ) throws -> Mask {
        guard m.b == 0, m.c == 0 else {
            return try Rasterizer.fill(
                Path(roundedRect: layer.bounds, cornerRadius: layer.cornerRadius).applying(m), width: width,
                height: height, threads: threads)
        }
        let box = Box(layer.bounds, m)
        if layer.cornerRadius > 0 {
            // The radius Path clamps it to, in pixels down the canvas.
            let radius = min(layer.cornerRadius, layer.bounds.width / 2, layer.bounds.height / 2)
            return try Rasterizer.fillRoundedRect(
                Path(roundedRect: layer.bounds, cornerRadius: layer.cornerRadius).applying(m), minX: box.minX,
                minY: box.minY, maxX: box.maxX, maxY: box.maxY, cornerHeight: radius * abs(m.d), width: width,
                height: height, threads: threads)
        }
        return Rasterizer.fillRect(
            minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY, width: width, height: height,
            threads: threads)
    }

    /// Blurs the shape's alpha alone (one channel, σ = k·radius·scale), offsets it and tints it,
    /// leaving alone the pixels `cover` is about to replace.
    private func drawShadow(
        _ shadow: Shadow, shape: Mask, _ m: AffineTransform, clip: Mask?, opacity: Double, under cover: Cover?,
        hiddenBy hidden: [PixelRect], into canvas: inout Canvas, _ pass: Pass
    ) throws {
        guard shape.rect.width > 0, shadow.radius.isFinite, shadow.radius >= 0, shadow.offset.width.isFinite,
            shadow.offset.height.isFinite
        else {
            if !shadow.radius.isFinite || shadow.radius < 0 {
                throw RenderError(.invalidParameter, "shadow radius must be finite and ≥ 0, got \(shadow.radius)")
            }
            return
        }
        let scale = m.meanScale
        let sigma = Shadow.sigmaPerRadius * shadow.radius * scale
        guard sigma <= 500 else {
            throw RenderError(.invalidParameter, "shadow radius \(shadow.radius) gives σ \(sigma) px, above 500")
        }
        let pad = Int((3 * sigma).rounded(.up)) + 2
        let (width, height) = (shape.rect.width + 2 * pad, shape.rect.height + 2 * pad)
        let key = ShadowKey(width: shape.rect.width, height: shape.rect.height, sigma: sigma, coverage: shape.bytes)
        let blurred = try self.shadow(key, pass) {
            var alpha = try Image(width: width, height: height, channels: 1)
            let rowBytes = shape.rect.width
            alpha.bytes.withUnsafeMutableBufferPointer { target in
                shape.bytes.withUnsafeBufferPointer { source in
                    for y in 0..<shape.rect.height {
                        (target.baseAddress! + (y + pad) * width + pad).update(
                            from: source.baseAddress! + y * rowBytes, count: rowBytes)
                    }
                }
            }
            try Self.timed(.blur, pass.observer) { try blur.apply(.gaussian(sigma: sigma), to: &alpha) }
            return alpha.bytes
        }
        let dx = Int((shadow.offset.width * scale).rounded())
        let dy = Int((shadow.offset.height * scale).rounded())
        let mask = Mask(
            rect: PixelRect(x: shape.rect.x - pad + dx, y: shape.rect.y - pad + dy, width: width, height: height),
            bytes: blurred)
        canvas.fill(
            mask, with: .solid(shadow.color), clip: clip, opacity: shadow.opacity * opacity, under: cover,
            hiddenBy: hidden)
    }

    /// Runs `body` between the observer's begin and end marks for `phase`.
    private static func timed(
        _ phase: RenderPhase, _ observer: (any RenderPhaseObserver)?, _ body: () throws -> Void
    ) rethrows {
        observer?.phaseBegan(phase)
        defer { observer?.phaseEnded(phase) }
        try body()
    }

    /// One render call's observer and counts.
    final class Pass {
        let observer: (any RenderPhaseObserver)?
        var statistics = RenderStatistics()

        init(_ observer: (any RenderPhaseObserver)?) {
            self.observer = observer
        }
    }

    /// The smallest rectangle holding every pixel with alpha > 0.
    private static func opaqueBounds(of image: Image) -> PixelRect {
        var (x0, y0, x1, y1) = (image.width, image.height, 0, 0)
        let width = image.width
        image.bytes.withUnsafeBytes {
            $0.withMemoryRebound(to: UInt32.self) { words in
                for y in 0..<image.height {
                    let row = words.baseAddress! + y * width
                    // Alpha is the top byte of each little-endian pixel word.
                    guard let first = (0..<width).first(where: { row[$0] > 0x00FF_FFFF }) else { continue }
                    let last = (first..<width).last(where: { row[$0] > 0x00FF_FFFF })!
                    (x0, x1) = (min(x0, first), max(x1, last + 1))
                    (y0, y1) = (min(y0, y), y + 1)
                }
            }
        }
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// The alpha channel of `area` as a mask.
    private static func alpha(of image: Image, in area: PixelRect) -> Mask {
        let width = image.width
        let bytes = image.bytes.withUnsafeBufferPointer { pixels in
            [UInt8](unsafeUninitializedCapacity: area.width * area.height) { out, count in
                for y in 0..<area.height {
                    let row = pixels.baseAddress! + 4 * ((area.y + y) * width + area.x) + 3
                    for x in 0..<area.width { out[y * area.width + x] = row[4 * x] }
                }
                count = area.width * area.height
            }
        }
        return Mask(rect: area, bytes: bytes)
    }
}
