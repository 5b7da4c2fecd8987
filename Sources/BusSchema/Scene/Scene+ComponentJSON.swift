extension Scene {
    /// A view's `component`: its kind picks which `config` properties it accepts.
    static func component(_ object: SceneObject, frame: Frame, parent: String?) throws(SceneError) -> Component {
        let kind = try object.requiredEnum("kind", Component.Kind.self)
        let id = try Self.id(object, "id")
        let config = try object.object("config") ?? SceneObject(emptyAt: object.child("config"))
        let parsed = try Self.config(kind, config, frame: frame, parent: parent, instance: id)
        try config.finish()
        try object.finish()
        return Component(id: id, config: parsed)
    }

    private static func config(
        _ kind: Component.Kind, _ config: SceneObject, frame: Frame, parent: String?, instance: String
    ) throws(SceneError) -> Config {
        let size = 0...Double.infinity
        switch kind {
        case .scrollView:
            var scroll = Config.ScrollView(
                contentWidth: try config.number("content_width", in: size) ?? frame.width,
                contentHeight: try config.number("content_height", in: size) ?? frame.height)
            if let insets = try config.object("insets") {
                scroll.insetTop = try insets.requiredNumber("top")
                scroll.insetLeft = try insets.requiredNumber("left")
                scroll.insetBottom = try insets.requiredNumber("bottom")
                scroll.insetRight = try insets.requiredNumber("right")
                try insets.finish()
            }
            scroll.paging = try config.bool("paging") ?? scroll.paging
            scroll.bounces = try config.bool("bounces") ?? scroll.bounces
            if let rate = try config.number("deceleration_rate", in: 0...1) {
                guard rate > 0, rate < 1 else {
                    throw SceneError(
                        path: config.child("deceleration_rate"), rule: .exclusiveMinimum,
                        "\(rate) must lie strictly between 0 and 1")
                }
                scroll.decelerationRate = rate
            }
            (scroll.minScale, scroll.maxScale) = try Self.scales(config, maximum: nil)
            return .scrollView(scroll)
        case .pullToRefresh:
            var pull = Config.PullToRefresh()
            pull.scrollView = try config.string("scroll_view") ?? parent
            pull.headerHeight = try config.number("header_height", in: size) ?? pull.headerHeight
            pull.thresholdMargin = try config.number("threshold_margin", in: size) ?? pull.thresholdMargin
            pull.timeoutMs = try config.number("timeout_ms", in: size) ?? pull.timeoutMs
            pull.utcOffsetMin = try config.number("utc_offset_min", in: -1440...1440) ?? pull.utcOffsetMin
            pull.labels = try Self.labels(config, keys: ["pulling", "release", "refreshing", "offline"])
            return .pullToRefresh(pull)
        case .pager:
            var pager = Config.Pager()
            pager.pageCount = try config.int("page_count", in: 1...Int(SceneBounds.maxMagnitude)) ?? pager.pageCount
            pager.navHeight = try config.number("nav_height", in: size) ?? pager.navHeight
            pager.menuHeight = try config.number("menu_height", in: size) ?? pager.menuHeight
            pager.barHeight = try config.number("bar_height", in: size) ?? pager.barHeight
            pager.pullThreshold = try config.number("pull_threshold", in: size) ?? pager.pullThreshold
            pager.labels = try Self.labels(config, keys: ["idle", "pulling", "release", "refreshing"])
            return .pager(pager)
        case .slideTable:
            var table = Config.SlideTable()
            table.rows = try config.int("rows", in: 0...Config.SlideTable.maximumRows) ?? table.rows
            table.rowHeight = try config.number("row_height", in: size, above: 0) ?? table.rowHeight
            table.openDurationMs = try config.number("open_duration_ms", in: size) ?? table.openDurationMs
            table.closeDurationMs = try config.number("close_duration_ms", in: size) ?? table.closeDurationMs
            return .slideTable(table)
        case .drawer:
            var drawer = Config.Drawer(width: try config.number("width", in: size) ?? frame.width)
            drawer.edge = try config.enumValue("edge", DrawerState.Side.self) ?? drawer.edge
            drawer.initiallyOpen = try config.bool("initially_open") ?? drawer.initiallyOpen
            return .drawer(drawer)
        case .numberPad:
            var pad = Config.NumberPad()
            pad.layout = try config.enumValue("layout", NumberPadState.Layout.self) ?? pad.layout
            if let digits = try config.array(
                "enabled", unique: true,
                { value, path throws(SceneError) in
                    try SceneObject.int(value, path: path, in: 0...9)
                })
            {
                pad.enabled = Set(digits)
            }
            pad.sequenceWindowMs = try config.number("sequence_window_ms", in: size) ?? pad.sequenceWindowMs
            return .numberPad(pad)
        case .canvas:
            var canvas = Config.Canvas()
            canvas.strokeWidth = try config.number("stroke_width", in: size, above: 0) ?? canvas.strokeWidth
            canvas.strokeColor = try config.color("stroke_color") ?? canvas.strokeColor
            canvas.zoomView = try config.string("zoom_view")
            return .canvas(canvas)
        case .zoomView:
            var zoom = Config.ZoomView()
            (zoom.minScale, zoom.maxScale) = try Self.scales(config, maximum: zoom.maxScale)
            zoom.image = try config.string("image")
            zoom.overlays = try config.strings("overlays", unique: true) ?? []
            return .zoomView(zoom)
        case .memoBoard:
            var board = Config.MemoBoard(client: try config.string("client") ?? instance)
            if let problem = MemoClientName.problem(board.client) {
                throw SceneError(path: config.child("client"), rule: .pattern, "'\(board.client)': \(problem)")
            }
            board.background = try config.string("background")
            board.memoWidth = try config.number("memo_width", in: size, above: 0) ?? board.memoWidth
            board.memoHeight = try config.number("memo_height", in: size, above: 0) ?? board.memoHeight
            // A resend sooner than a millisecond after the last would spin, not wait.
            board.retryInitialMs = try config.number("retry_initial_ms", in: 1...(.infinity)) ?? board.retryInitialMs
            board.retryMaxMs = try config.number("retry_max_ms", in: 1...(.infinity)) ?? board.retryMaxMs
            return .memoBoard(board)
        }
    }

    /// `min_scale` (1 by default) and `max_scale` (`maximum`, else `min_scale`), the maximum not below the minimum.
    private static func scales(_ config: SceneObject, maximum: Double?) throws(SceneError) -> (Double, Double) {
        let minScale = try config.number("min_scale", in: 0...(.infinity), above: 0) ?? 1
        let maxScale = try config.number("max_scale", in: 0...(.infinity), above: 0) ?? maximum ?? minScale
        guard maxScale >= minScale else {
            throw SceneError(
                path: config.child("max_scale"), rule: .consistent, "\(maxScale) is below min_scale \(minScale)")
        }
        return (minScale, maxScale)
    }

    /// The `labels` object, accepting only `keys`.
    private static func labels(_ config: SceneObject, keys: [String]) throws(SceneError) -> Config.Labels {
        var labels = Config.Labels()
        guard let object = try config.object("labels") else { return labels }
        for key in keys {
            let text = try object.text(key)
            switch key {
            case "idle": labels.idle = text
            case "pulling": labels.pulling = text
            case "release": labels.release = text
            case "refreshing": labels.refreshing = text
            default: labels.offline = text
            }
        }
        try object.finish()
        return labels
    }
}
