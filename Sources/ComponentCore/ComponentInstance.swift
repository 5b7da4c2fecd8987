import BusSchema
import GestureCore

/// One component's machine, whatever its kind, built from the scene.
public enum ComponentInstance: Sendable {
    case scrollView(ScrollViewMachine)
    case pullToRefresh(PullToRefreshMachine)
    case pager(PagerMachine)
    case slideTable(SlideTableMachine)
    case drawer(DrawerMachine)
    case numberPad(NumberPadMachine)
    case canvas(CanvasMachine)
    case zoomView(ZoomViewMachine)
    case memoBoard(MemoBoardMachine)

    /// Builds the machine for `component`, checking its settings.
    ///
    /// - Throws: ``SceneError`` naming the bad setting.
    public init(_ component: ComponentScene.Component) throws(SceneError) {
        let config = ConfigReader(component.config, path: "\(component.path).config")
        let frame = component.view.frame
        let id = component.instance
        switch component.kind {
        case .scrollView:
            var insets = ScrollViewState.Insets()
            if let reader = try config.object("insets") {
                insets = ScrollViewState.Insets(
                    top: try reader.number("top", default: 0, minimum: -.infinity),
                    left: try reader.number("left", default: 0, minimum: -.infinity),
                    bottom: try reader.number("bottom", default: 0, minimum: -.infinity),
                    right: try reader.number("right", default: 0, minimum: -.infinity))
            }
            let minScale = try config.number("min_scale", default: 1, exclusive: true)
            let maxScale = try config.number("max_scale", default: minScale, exclusive: true)
            guard maxScale >= minScale else {
                throw SceneError(.invalidValue, field: "\(config.path).max_scale", "below min_scale \(minScale)")
            }
            self = .scrollView(
                ScrollViewMachine(
                    instance: id,
                    config: ScrollViewMachine.Config(
                        viewportWidth: frame.width, viewportHeight: frame.height,
                        contentWidth: try config.number("content_width", default: frame.width),
                        contentHeight: try config.number("content_height", default: frame.height), insets: insets,
                        paging: try config.bool("paging", default: false),
                        bounces: try config.bool("bounces", default: true),
                        decelerationRate: try Self.rate(config), minScale: minScale, maxScale: maxScale)))
        case .pullToRefresh:
            let labels = try config.object("labels")
            let defaults = PullToRefreshMachine.Labels()
            self = .pullToRefresh(
                PullToRefreshMachine(
                    instance: id,
                    config: PullToRefreshMachine.Config(
                        headerHeight: try config.number("header_height", default: 60),
                        thresholdMargin: try config.number("threshold_margin", default: 20),
                        timeoutMs: try config.number("timeout_ms", default: 10_000),
                        labels: PullToRefreshMachine.Labels(
                            pulling: try labels?.optionalString("pulling") ?? defaults.pulling,
                            release: try labels?.optionalString("release") ?? defaults.release,
                            refreshing: try labels?.optionalString("refreshing") ?? defaults.refreshing,
                            offline: try labels?.optionalString("offline") ?? defaults.offline),
                        viewportHeight: component.scrollFrame?.height ?? frame.height)))
        case .pager:
            let labels = try config.object("labels")
            let defaults = PagerMachine.Labels()
            self = .pager(
                PagerMachine(
                    instance: id,
                    config: PagerMachine.Config(
                        pageCount: try config.int("page_count", default: 1, minimum: 1), pageWidth: frame.width,
                        barHeight: try config.number("bar_height", default: PagerMachine.navigationBarHeight),
                        pullThreshold: try config.number("pull_threshold", default: 120),
                        viewportHeight: frame.height,
                        labels: PagerMachine.Labels(
                            idle: try labels?.optionalString("idle") ?? defaults.idle,
                            pulling: try labels?.optionalString("pulling") ?? defaults.pulling,
                            release: try labels?.optionalString("release") ?? defaults.release,
                            loading: try labels?.optionalString("refreshing") ?? defaults.loading))))
        case .slideTable:
            self = .slideTable(
                SlideTableMachine(
                    instance: id,
                    config: SlideTableMachine.Config(
                        // Every state carries one offset per row: a huge count once trapped allocating them.
                        rows: try config.int("rows", default: 0, minimum: 0, maximum: SlideTableMachine.maximumRows),
                        rowHeight: try config.number("row_height", default: 44, exclusive: true), rowWidth: frame.width,
                        top: frame.y, viewportHeight: frame.height,
                        openDurationMs: try config.number("open_duration_ms", default: SlideTableMachine.openMs),
                        closeDurationMs: try config.number("close_duration_ms", default: SlideTableMachine.closeMs))))
        case .drawer:
            self = .drawer(
                DrawerMachine(
                    instance: id,
                    config: DrawerMachine.Config(
                        edge: try config.enumValue("edge", default: DrawerState.Side.left),
                        width: try config.number("width", default: frame.width),
                        initiallyOpen: try config.bool("initially_open", default: false))))
        case .numberPad:
            self = .numberPad(
                NumberPadMachine(
                    instance: id,
                    config: NumberPadMachine.Config(
                        layout: try config.enumValue("layout", default: NumberPadState.Layout.standard),
                        enabled: try config.digits("enabled") ?? Set(0...9),
                        sequenceWindowMs: try config.number("sequence_window_ms", default: 750), left: frame.x,
                        width: frame.width)))
        case .canvas:
            self = .canvas(
                CanvasMachine(
                    instance: id,
                    config: CanvasMachine.Config(
                        strokeWidth: try config.number("stroke_width", default: 4, exclusive: true),
                        strokeColor: try config.color("stroke_color", default: "#000000"), originX: frame.x,
                        originY: frame.y)))
        case .zoomView:
            let minScale = try config.number("min_scale", default: 1, exclusive: true)
            let maxScale = try config.number("max_scale", default: 4, exclusive: true)
            guard maxScale >= minScale else {
                throw SceneError(.invalidValue, field: "\(config.path).max_scale", "below min_scale \(minScale)")
            }
            self = .zoomView(
                ZoomViewMachine(
                    instance: id,
                    config: ZoomViewMachine.Config(
                        minScale: minScale, maxScale: maxScale, viewportWidth: frame.width,
                        viewportHeight: frame.height, image: try config.optionalString("image"), originX: frame.x,
                        originY: frame.y)))
        case .memoBoard:
            let client = try config.optionalString("client") ?? id
            if let problem = MemoClientName.problem(client) {
                throw SceneError(.invalidValue, field: "\(config.path).client", "'\(client)': \(problem)")
            }
            self = .memoBoard(
                MemoBoardMachine(
                    instance: id,
                    config: MemoBoardMachine.Config(
                        client: client,
                        background: try config.optionalString("background"),
                        memoWidth: try config.number("memo_width", default: 160, exclusive: true),
                        memoHeight: try config.number("memo_height", default: 120, exclusive: true),
                        // A resend sooner than a millisecond after the last would spin, not wait.
                        retryInitialMs: try config.number("retry_initial_ms", default: 100, minimum: 1),
                        retryMaxMs: try config.number("retry_max_ms", default: 2000, minimum: 1), originX: frame.x,
                        originY: frame.y, width: frame.width)))
        }
    }

    private static func rate(_ config: ConfigReader) throws(SceneError) -> Double {
        let rate = try config.number("deceleration_rate", default: 0.998)
        guard rate > 0, rate < 1 else {
            throw SceneError(
                .invalidValue, field: "\(config.path).deceleration_rate", "\(rate) must lie strictly between 0 and 1")
        }
        return rate
    }

    /// The component's full state now.
    public func snapshot(tMs: Double) -> ComponentState {
        switch self {
        case .scrollView(let machine): .scrollView(machine.snapshot(tMs: tMs))
        case .pullToRefresh(let machine): .pullToRefresh(machine.snapshot(tMs: tMs))
        case .pager(let machine): .pager(machine.snapshot(tMs: tMs))
        case .slideTable(let machine): .slideTable(machine.snapshot(tMs: tMs))
        case .drawer(let machine): .drawer(machine.snapshot(tMs: tMs))
        case .numberPad(let machine): .numberPad(machine.snapshot(tMs: tMs))
        case .canvas(let machine): .canvas(machine.snapshot(tMs: tMs))
        case .zoomView(let machine): .zoomView(machine.snapshot(tMs: tMs))
        case .memoBoard(let machine): .memoBoard(machine.snapshot(tMs: tMs))
        }
    }

    /// Vertical content offset, for components a pull-to-refresh header sits on.
    public var contentOffsetY: Double? {
        switch self {
        case .scrollView(let machine): machine.offset.y
        case .slideTable(let machine): machine.contentOffset
        default: nil
        }
    }
}
