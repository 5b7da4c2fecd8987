import BusSchema

/// One drawing per component kind, from its latest state (schemas `state.<kind>`) and its scene
/// config: simple, but each recognisable (the drawer's panel and dim, the table's slid cells
/// and their buttons, the pager's collapsing header and tab strip, …). Sublayer names are
/// stable, so the render worker can animate them between states.
extension SceneLayers {
    /// The most pager pages drawn (a channel strip holds a few dozen).
    static let pageLimit = 64

    /// `value` as a whole number, NaN as 0 and anything past ±10⁹ clamped: states come off the
    /// bus, and converting a huge or NaN Double to Int would trap.
    private static func whole(_ value: Double) -> Int {
        value.isNaN ? 0 : Int(min(max(value, -1e9), 1e9))
    }

    private static func label(_ text: String, _ frame: Rect, size: Double, color: Color, name: String) -> Layer {
        var layer = Layer(name: name, frame: frame)
        layer.text = TextContent(string: text, fontSize: size, color: color, inset: 0)
        return layer
    }

    /// A scroll view: rows of content moved by the content offset.
    static func scrollContent(_ state: ScrollViewState?, size: Size) -> [Layer] {
        let offset = state?.offsetY ?? 0
        let rowHeight = 44.0
        let first = max(0, whole((offset / rowHeight).rounded(.down)))
        let last = whole(((offset + size.height) / rowHeight).rounded(.up))
        guard first <= last else { return [] }
        return (first...last).map { index in
            var row = Layer(
                name: "item\(index)",
                frame: Rect(x: 0, y: Double(index) * rowHeight - offset, width: size.width, height: rowHeight))
            row.sublayers = [
                label(
                    "項目 \(index + 1)", Rect(x: 16, y: 12, width: size.width - 32, height: 22), size: 15,
                    color: Color(hex: 0x1C1C1E), name: "title"),
                separator(y: rowHeight - 0.5, width: size.width, inset: 16),
            ]
            return row
        }
    }

    private static func separator(y: Double, width: Double, inset: Double) -> Layer {
        var line = Layer(name: "separator", frame: Rect(x: inset, y: y, width: max(0, width - inset), height: 0.5))
        line.backgroundColor = Color(hex: 0xC6C6C8)
        return line
    }

    /// A drawer: the dim over the view and the panel sliding in from its edge by `progress`. The
    /// closed panel leaves its state's `tab` showing at the edge, with a menu mark in it.
    static func drawer(_ state: DrawerState?, config: Scene.Config.Drawer, view: Scene.View, size: Size) -> [Layer] {
        let progress = min(max(state?.progress ?? 0, 0), 1)
        let width = min(state?.width ?? config.width, size.width)
        let rightEdge = (state?.edge?.rawValue ?? config.edge.rawValue) == "right"
        let tab = min(max(state?.tab ?? 0, 0), width)
        var dim = Layer(name: "dim", frame: Rect(x: 0, y: 0, width: size.width, height: size.height))
        dim.backgroundColor = .black
        dim.opacity = 0.4 * progress
        let x = DrawerState.panelX(
            progress: progress, width: width, tab: tab, edge: rightEdge ? .right : .left, viewWidth: size.width)
        var panel = Layer(name: "panel", frame: Rect(x: x, y: 0, width: width, height: size.height))
        panel.backgroundColor = view.background.map(color) ?? Color(hex: 0x2C2C2E)
        if let declared = view.shadow, progress > 0 || tab > 0 {
            panel.shadow = shadow(declared, path: Path(rect: Rect(x: 0, y: 0, width: width, height: size.height)))
        }
        // The titles end before the tab, so the closed menu shows only its mark.
        let titleWidth = max(0, width - 24 - max(tab, 24))
        panel.sublayers = ["ホーム", "メモ", "お絵かき", "写真", "設定"].enumerated().map { index, title in
            label(
                title,
                Rect(
                    x: rightEdge ? width - 24 - titleWidth : 24, y: 60 + Double(index) * 52, width: titleWidth,
                    height: 28),
                size: 18, color: .white, name: "menu\(index)")
        }
        if tab > 0 { panel.sublayers.append(menuMark(x: rightEdge ? 0 : width - tab, side: tab)) }
        return [dim, panel]
    }

    /// Three bars centred in the `side`-point square at the top of the drawer's tab.
    private static func menuMark(x: Double, side: Double) -> Layer {
        var mark = Layer(name: "tab", frame: Rect(x: x, y: 0, width: side, height: side))
        let barWidth = side * 0.5
        let barHeight = max(1, (side / 15).rounded())
        mark.sublayers = (0..<3).map { index in
            var bar = Layer(
                name: "bar\(index)",
                frame: Rect(
                    x: (side - barWidth) / 2, y: side / 2 + Double(index - 1) * barHeight * 2.5 - barHeight / 2,
                    width: barWidth, height: barHeight))
            bar.backgroundColor = Color(hex: 0xC7C7CC)
            bar.cornerRadius = barHeight / 2
            return bar
        }
        return mark
    }

    /// A slide table: visible rows, each a front view slid by its offset over its action
    /// buttons (drawn while the row is slid or sliding), all pushed down by `pulled` under a
    /// pull-to-refresh header. Fronts are direct sublayers, so the render worker can animate them.
    static func slideTable(
        _ state: SlideTableState?, config: Scene.Config.SlideTable, size: Size, pulled: Double = 0
    ) -> [Layer] {
        // A negative count draws nothing (and `rows - 1` below must not overflow).
        let rows = max(0, state?.rows ?? config.rows)
        let rowHeight = config.rowHeight
        let scroll = (state?.scrollOffset ?? 0) - pulled
        let offsets = state?.offsets ?? []
        let animatingRow = state?.animatingRow ?? nil
        let highlightedRow = state?.highlightedRow
        let selectedRow = state?.selectedRow
        let first = max(0, whole((scroll / rowHeight).rounded(.down)))
        let last = min(rows - 1, whole(((scroll + size.height) / rowHeight).rounded(.up)))
        guard first <= last else { return [] }
        return (first...last).flatMap { index -> [Layer] in
            let y = Double(index) * rowHeight - scroll
            let offset = index < offsets.count ? offsets[index] : 0
            var layers: [Layer] = []
            if offset != 0 || index == animatingRow {
                var actions = Layer(
                    name: "actions\(index)", frame: Rect(x: 0, y: y, width: size.width, height: rowHeight))
                let buttons = [("既読", Color(hex: 0x34C759)), ("削除", Color(hex: 0xFF3B30))]
                let width = size.width / Double(buttons.count)
                actions.sublayers = buttons.enumerated().map { slot, button in
                    var layer = Layer(
                        name: "action\(slot)",
                        frame: Rect(x: Double(slot) * width, y: 0, width: width, height: rowHeight))
                    layer.backgroundColor = button.1
                    layer.text = TextContent(string: button.0, fontSize: 15, color: .white, inset: 12)
                    return layer
                }
                actions.masksToBounds = true
                actions.sublayers.append(edgeShadow(width: size.width))
                layers.append(actions)
            }
            var front = Layer(name: "front\(index)", frame: Rect(x: offset, y: y, width: size.width, height: rowHeight))
            front.backgroundColor = index == highlightedRow ? SelectionStyle.pressed : .white
            if index == selectedRow { front.gradient = SelectionStyle.gradient }
            front.sublayers = [
                label(
                    "行 \(index + 1)", Rect(x: 16, y: 20, width: size.width - 32, height: 24), size: 17, color: .black,
                    name: "title"),
                separator(y: rowHeight - 0.5, width: size.width, inset: 16),
            ]
            layers.append(front)
            return layers
        }
    }

    /// The source's own selection drawing (BaseView): a selected row's front view draws a
    /// gradient from 0.9 white at 0.9 alpha at its top to 0.7 white at 0.7 alpha at its bottom
    /// over its background, which is white, or light grey while the row is pressed.
    enum SelectionStyle {
        static let gradient = LinearGradient(colors: [
            Color(red: 0.9, green: 0.9, blue: 0.9, alpha: 0.9), Color(red: 0.7, green: 0.7, blue: 0.7, alpha: 0.7),
        ])
        /// UIColor.lightGrayColor: 2/3 white.
        static let pressed = Color(red: 2.0 / 3, green: 2.0 / 3, blue: 2.0 / 3)
    }

    /// The source's SlideView edge shadow: a white bar just outside the revealed view's top
    /// left (CUSTOMCELL_OBJECT_LENGTH 10 pt thick, reaching 10 pt left of it) casts its shadow
    /// (CUSTOMCELL_SHADOW_OFFSET 5, CUSTOMCELL_SHADOW_BLUR 5, CGContextSetShadow's black at 1/3)
    /// in; the bar itself is clipped away, so only the shade along the edge shows.
    enum SlideShadow {
        static let length = 10.0
        static let offset = 5.0
        static let blur = 5.0
        static let opacity = 1.0 / 3
    }

    static func edgeShadow(width: Double) -> Layer {
        let length = SlideShadow.length
        let bar = Rect(x: 0, y: 0, width: width + length, height: length)
        var layer = Layer(name: "edgeShadow", frame: Rect(x: -length, y: -length, width: bar.width, height: length))
        layer.backgroundColor = .white
        layer.shadow = Shadow(
            opacity: SlideShadow.opacity, offset: Size(SlideShadow.offset, SlideShadow.offset),
            radius: SlideShadow.blur, path: Path(rect: bar))
        return layer
    }

    /// The pull-to-refresh header's drawing (the source's HeaderView).
    enum RefreshStyle {
        static let band = Color(hex: 0xE5E5EA)
        static let ink = Color(hex: 0x8E8E93)
        /// UIActivityIndicatorView (gray): twelve spokes, fading behind the brightest.
        static let spokes = 12
        static let spinnerSize = 20.0
        /// The arrow image's box.
        static let arrowSize = Size(16, 30)
        /// Before the last-updated date and time (最終更新: 2011/08/22 10:15).
        static let updatedPrefix = "最終更新: "
    }

    /// A pull-to-refresh header: a band as tall as the header with its bottom at the pull (the
    /// rows start there), so it slides down with the finger, stays whole past the header
    /// height, and snaps back up out of the view. The arrow (a direct sublayer, so the render
    /// worker turns it over the state's `arrow_animation`) points down at angle 0 and shows
    /// only while pulling, as the source's image view; while refreshing a spinner takes its
    /// place. Under the label, the last-updated line once a refresh has finished.
    static func pullToRefresh(_ state: PullToRefreshState?, config: Scene.Config.PullToRefresh, size: Size) -> [Layer] {
        let headerHeight = state?.headerHeight ?? size.height
        let pulled = max(0, state?.offset ?? 0)
        let phase = state?.phase
        let top = pulled - headerHeight
        var header = Layer(name: "header", frame: Rect(x: 0, y: top, width: size.width, height: headerHeight))
        header.backgroundColor = RefreshStyle.band
        let middle = headerHeight / 2
        let arrowSize = RefreshStyle.arrowSize
        var arrow = Layer(
            name: "arrow",
            frame: Rect(
                x: 28 - arrowSize.width / 2, y: top + middle - arrowSize.height / 2, width: arrowSize.width,
                height: arrowSize.height))
        arrow.shape = ShapeContent(path: Self.arrowPath(arrowSize), color: RefreshStyle.ink)
        arrow.transform = .rotation(state?.arrowAngle ?? 0)
        arrow.opacity = phase == .pullingDown || phase == .overThreshold ? 1 : 0
        let updated = state?.updatedAtMs.map { millis in
            RefreshStyle.updatedPrefix
                + Self.dateTime(millis, offsetMinutes: config.utcOffsetMin)
        }
        // With a last-updated line the two lines share the band's middle, as the classic header has them.
        let labelY = updated == nil ? middle - 11 : middle - 21
        header.sublayers = [
            label(
                state?.label ?? "", Rect(x: 56, y: labelY, width: size.width - 72, height: 24),
                size: 15, color: Color(hex: 0x3A3A3C), name: "label")
        ]
        if let updated {
            var line = label(
                updated, Rect(x: 56, y: middle + 3, width: size.width - 72, height: 18), size: 12,
                color: RefreshStyle.ink, name: "updated")
            line.text?.singleLine = true
            header.sublayers.append(line)
        }
        if phase == .refreshing { header.sublayers.append(spinner(centre: Point(28, middle))) }
        return [header, arrow]
    }

    /// An arrow pointing down in a box of `size`: a shaft and a head as wide as the box.
    private static func arrowPath(_ size: Size) -> Path {
        let head = size.width * 0.9
        let shaft = size.width * 0.36
        var path = Path(
            rect: Rect(x: (size.width - shaft) / 2, y: 0, width: shaft, height: size.height - head + 1))
        path.addPolygon([
            Point(0, size.height - head), Point(size.width, size.height - head), Point(size.width / 2, size.height),
        ])
        return path
    }

    /// `millis` (wall clock, ms since the Unix epoch) as `yyyy/MM/dd HH:mm` at `offsetMinutes`
    /// from UTC: the classic header's short date and time.
    static func dateTime(_ millis: Double, offsetMinutes: Double) -> String {
        let offset = offsetMinutes.isFinite ? min(max(offsetMinutes, -1440), 1440) : 0
        // States are checked finite on the way in; a date past ±10¹⁵ ms (year ±33658) is clamped.
        let shifted = min(max(millis + offset * 60_000, -1e15), 1e15)
        return CivilTime(milliseconds: Int64(shifted.rounded(.down))).short
    }

    /// A grey activity indicator: spokes around `centre`, the first the darkest.
    static func spinner(centre: Point, phase: Int = 0) -> Layer {
        let size = RefreshStyle.spinnerSize
        var layer = Layer(
            name: "spinner", frame: Rect(x: centre.x - size / 2, y: centre.y - size / 2, width: size, height: size))
        layer.sublayers = (0..<RefreshStyle.spokes).map { k in
            let step = (k + phase) % RefreshStyle.spokes
            var spoke = Layer(name: "spoke\(k)", frame: Rect(x: size / 2 - 1, y: 0, width: 2, height: size * 0.3))
            spoke.backgroundColor = RefreshStyle.ink
            spoke.cornerRadius = 1
            spoke.opacity = 1 - 0.75 * Double(step) / Double(RefreshStyle.spokes)
            // Each spoke turns about the spinner's centre, `pivot` below its own centre.
            let angle = 2 * Double.pi * Double(k) / Double(RefreshStyle.spokes)
            let pivot = size / 2 - spoke.frame.height / 2
            spoke.transform = AffineTransform.translation(0, -pivot).concatenating(.rotation(angle))
                .concatenating(.translation(0, pivot))
            return spoke
        }
        return layer
    }

    /// A SmartNews-style pager: pages side by side at `page_offset` under the source's header:
    /// the progress area on top (`nav_height`, the status and navigation bars; it grows with
    /// the pull and shows the pull label), and the menu (tab strip) under it, which a scroll
    /// moves up over the navigation bar by `header_offset`, at most `bar_height`. Pages, the
    /// progress area, its label, the menu and the indicator are direct sublayers whose frames
    /// carry the offsets, so the render worker animates page and menu snaps.
    static func pager(_ state: PagerState?, config: Scene.Config.Pager, size: Size) -> [Layer] {
        // Every page is built each frame: a bad state's page count must not multiply the work.
        let count = min(max(1, state?.pageCount ?? config.pageCount), Self.pageLimit)
        let pageOffset = state?.pageOffset ?? Double(state?.page ?? 0)
        let navHeight = config.navHeight
        let menuHeight = config.menuHeight
        let barHeight = min(max(config.barHeight, 0), navHeight)
        let collapse = min(max(state?.headerOffset ?? 0, 0), barHeight)
        let pull = max(0, state?.pullOffset ?? 0)
        let menuTop = navHeight + pull - collapse
        let headerBottom = menuTop + menuHeight
        let hues: [UInt32] = [0xFDE2E4, 0xE2ECE9, 0xDFE7FD, 0xFFF1D0, 0xE8DFF5]
        // Every page is built, off screen ones too (the renderer culls them), so a page snap
        // has its pages to move; each reaches the view's bottom however far the menu has
        // moved (the view clips it), so none shows a gap while the menu snaps.
        var layers = (0..<count).map { index in
            var page = Layer(
                name: "page\(index)",
                frame: Rect(
                    x: (Double(index) - pageOffset) * size.width, y: headerBottom, width: size.width,
                    height: size.height))
            page.backgroundColor = Color(hex: hues[index % hues.count])
            page.sublayers = (0..<4).map { item in
                var card = Layer(
                    name: "card\(item)",
                    frame: Rect(x: 16, y: 16 + Double(item) * 92, width: size.width - 32, height: 80))
                card.backgroundColor = .white
                card.cornerRadius = 8
                card.text = TextContent(string: "ニュース \(index + 1)-\(item + 1)", fontSize: 16, color: .black, inset: 12)
                return card
            }
            return page
        }
        var nav = Layer(name: "nav", frame: Rect(x: 0, y: 0, width: size.width, height: navHeight + pull))
        nav.backgroundColor = Color(hex: 0xD7263D)
        // The source's progressTextLabel: the title, or the pull's stage, in the navigation
        // bar's place at the progress area's bottom (the menu covers it as it moves up).
        var title = Layer(
            name: "pullLabel", frame: Rect(x: 0, y: navHeight + pull - barHeight, width: size.width, height: barHeight))
        title.text = TextContent(
            string: state?.label ?? "ニュース", fontSize: 20, color: .white, inset: 10, singleLine: true)
        var tabs = Layer(name: "tabs", frame: Rect(x: 0, y: menuTop, width: size.width, height: menuHeight))
        tabs.backgroundColor = .white
        let tabWidth = size.width / Double(count)
        tabs.sublayers = (0..<count).map { index in
            label(
                "タブ\(index + 1)",
                Rect(x: Double(index) * tabWidth + 8, y: 10, width: max(0, tabWidth - 16), height: 24),
                size: 14, color: Color(hex: 0x3A3A3C), name: "tab\(index)")
        }
        var indicator = Layer(
            name: "indicator",
            frame: Rect(x: pageOffset * tabWidth, y: headerBottom - 3, width: tabWidth, height: 3))
        indicator.backgroundColor = Color(hex: 0xD7263D)
        layers += [nav, title, tabs, indicator]
        let progress = min(max(state?.progress ?? 0, 0), 100)
        if state?.loading == true || progress > 0 {
            var bar = Layer(
                name: "progress", frame: Rect(x: 0, y: headerBottom, width: size.width * progress / 100, height: 3))
            bar.backgroundColor = Color(hex: 0x0A84FF)
            // A finished load's bar fades out (the render worker animates the opacity).
            bar.opacity = min(max(state?.progressOpacity ?? 1, 0), 1)
            layers.append(bar)
        }
        return layers
    }

    /// A drawing canvas: each stroke as a chain of segment quads.
    static func canvas(_ state: CanvasState?, config: Scene.Config.Canvas) -> [Layer] {
        (state?.strokes ?? []).compactMap { stroke in
            let points = stroke.points.map { Point($0.x, $0.y) }
            guard !points.isEmpty else { return nil }
            let width = stroke.width
            var path = Path()
            for (p, q) in zip(points, points.dropFirst() + [points[points.count - 1]]) {
                let (dx, dy) = (q.x - p.x, q.y - p.y)
                let length = (dx * dx + dy * dy).squareRoot()
                // A lone point (or a repeated one) becomes a square dot.
                let (nx, ny) = length > 0 ? (-dy / length * width / 2, dx / length * width / 2) : (0, width / 2)
                let (ex, ey) = length > 0 ? (dx / length * width / 2, dy / length * width / 2) : (width / 2, 0)
                path.addPolygon([
                    Point(p.x - ex + nx, p.y - ey + ny), Point(q.x + ex + nx, q.y + ey + ny),
                    Point(q.x + ex - nx, q.y + ey - ny), Point(p.x - ex - nx, p.y - ey - ny),
                ])
            }
            var layer = Layer(name: "stroke\(stroke.id)", frame: Rect(x: 0, y: 0, width: 0, height: 0))
            layer.shape = ShapeContent(path: path, color: color(hex: stroke.color) ?? color(config.strokeColor))
            return layer
        }
    }

    /// A zoomable image (a drawn landscape, scaled and panned) and its caption overlay (the view
    /// `overlay`, styled as it declares: blur, corner radius, tint), shown while `overlay_visible`.
    static func zoomView(_ state: ZoomViewState?, overlay: Scene.View?, in frame: Rect) -> [Layer] {
        let size = frame.size
        let scale = max(0.01, state?.scale ?? 1)
        let offset = Point(state?.offsetX ?? 0, state?.offsetY ?? 0)
        let (width, height) = (size.width * scale, size.height * scale)
        // Sky, ground and sun are direct sublayers whose frames are affine in scale and offset,
        // so the render worker animating each frame animates the zoom. Solid colours: a
        // gradient this large costs more than the rest of the frame.
        var photo = Layer(name: "image", frame: Rect(x: -offset.x, y: -offset.y, width: width, height: height))
        photo.backgroundColor = Color(hex: 0x7DB8EC)
        var ground = Layer(
            name: "ground", frame: Rect(x: -offset.x, y: 0.55 * height - offset.y, width: width, height: 0.45 * height))
        ground.backgroundColor = Color(hex: 0x3F7D3A)
        var sun = Layer(
            name: "sun",
            frame: Rect(
                x: 0.7 * width - offset.x, y: 0.12 * height - offset.y, width: 0.12 * width, height: 0.12 * width))
        sun.backgroundColor = Color(hex: 0xFFD54F)
        // Round at any size it passes through while animated (the radius is clamped to half a side).
        sun.cornerRadius = .greatestFiniteMagnitude
        guard let overlay else { return [photo, ground, sun] }
        var caption = Layer(
            name: "overlay",
            frame: Rect(
                x: overlay.frame.x - frame.minX, y: overlay.frame.y - frame.minY, width: overlay.frame.width,
                height: overlay.frame.height))
        caption.backgroundColor = overlay.background.map(color) ?? Color(hex: 0x000000, alpha: 0.35)
        caption.cornerRadius = overlay.cornerRadius
        caption.text = TextContent(string: "写真 — ピンチで拡大", fontSize: 18, color: .white, inset: 16)
        if let declared = overlay.shadow {
            caption.shadow = shadow(
                declared,
                path: Path(
                    roundedRect: caption.bounds, cornerRadius: min(caption.cornerRadius, caption.bounds.maxRadius)))
        }
        style(&caption, overlay)
        caption.opacity = state?.overlayVisible == false ? 0 : 1
        return [photo, ground, sun, caption]
    }

    /// A memo board's background image, drawn as cork: a warm tone with pin-prick dots.
    static func boardBackground(size: Size) -> Layer {
        var cork = Layer(name: "background", frame: Rect(x: 0, y: 0, width: size.width, height: size.height))
        cork.backgroundColor = Color(hex: 0xC89B5E)
        var dots = Path()
        var random = SplitMix64(seed: 7)
        for _ in 0..<Int(size.width * size.height / 2000) {
            let x = Double(random.next() % 10_000) / 10_000 * size.width
            let y = Double(random.next() % 10_000) / 10_000 * size.height
            dots.addRect(Rect(x: x, y: y, width: 1.5, height: 1.5))
        }
        cork.shape = ShapeContent(path: dots, color: Color(hex: 0x8A5F2E, alpha: 0.5))
        return cork
    }
}
