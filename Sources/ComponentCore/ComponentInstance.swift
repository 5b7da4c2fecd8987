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

    /// Builds the machine for `component` from its scene settings (checked, defaults filled in).
    public init(_ component: ComponentScene.Component) {
        let frame = component.view.frame
        let id = component.instance
        switch component.config {
        case .scrollView(let config):
            self = .scrollView(
                ScrollViewMachine(
                    instance: id,
                    config: ScrollViewMachine.Config(
                        viewportWidth: frame.width, viewportHeight: frame.height, contentWidth: config.contentWidth,
                        contentHeight: config.contentHeight,
                        insets: ScrollViewState.Insets {
                            $0.top = config.insetTop
                            $0.left = config.insetLeft
                            $0.bottom = config.insetBottom
                            $0.right = config.insetRight
                        },
                        paging: config.paging, bounces: config.bounces, decelerationRate: config.decelerationRate,
                        minScale: config.minScale, maxScale: config.maxScale)))
        case .pullToRefresh(let config):
            self = .pullToRefresh(
                PullToRefreshMachine(
                    instance: id,
                    config: PullToRefreshMachine.Config(
                        headerHeight: config.headerHeight, thresholdMargin: config.thresholdMargin,
                        timeout: .milliseconds(fractional: config.timeoutMs),
                        labels: config.labels,
                        viewportHeight: component.scrollFrame?.height ?? frame.height)))
        case .pager(let config):
            self = .pager(
                PagerMachine(
                    instance: id,
                    config: PagerMachine.Config(
                        pageCount: config.pageCount, pageWidth: frame.width, barHeight: config.barHeight,
                        pullThreshold: config.pullThreshold, viewportHeight: frame.height,
                        labels: config.labels)))
        case .slideTable(let config):
            self = .slideTable(
                SlideTableMachine(
                    instance: id,
                    config: SlideTableMachine.Config(
                        rows: config.rows, rowHeight: config.rowHeight, rowWidth: frame.width, top: frame.y,
                        viewportHeight: frame.height, openDuration: .milliseconds(fractional: config.openDurationMs),
                        closeDuration: .milliseconds(fractional: config.closeDurationMs))))
        case .drawer(let config):
            self = .drawer(
                DrawerMachine(
                    instance: id,
                    config: DrawerMachine.Config(
                        edge: config.edge, width: config.width, initiallyOpen: config.initiallyOpen, frame: frame)))
        case .numberPad(let config):
            self = .numberPad(
                NumberPadMachine(
                    instance: id,
                    config: NumberPadMachine.Config(
                        layout: config.layout, enabled: config.enabled,
                        sequenceWindow: .milliseconds(fractional: config.sequenceWindowMs),
                        left: frame.x, width: frame.width)))
        case .canvas(let config):
            self = .canvas(
                CanvasMachine(
                    instance: id,
                    config: CanvasMachine.Config(
                        strokeWidth: config.strokeWidth, strokeColor: config.strokeColor.description,
                        originX: frame.x, originY: frame.y)))
        case .zoomView(let config):
            self = .zoomView(
                ZoomViewMachine(
                    instance: id,
                    config: ZoomViewMachine.Config(
                        minScale: config.minScale, maxScale: config.maxScale, viewportWidth: frame.width,
                        viewportHeight: frame.height, image: config.image, originX: frame.x, originY: frame.y)))
        case .memoBoard(let config):
            self = .memoBoard(
                MemoBoardMachine(
                    instance: id,
                    config: MemoBoardMachine.Config(
                        client: config.client, background: config.background, memoWidth: config.memoWidth,
                        memoHeight: config.memoHeight, retryInitial: .milliseconds(fractional: config.retryInitialMs),
                        retryMax: .milliseconds(fractional: config.retryMaxMs), originX: frame.x, originY: frame.y,
                        width: frame.width)))
        }
    }

    /// The component's full state now.
    public func snapshot(at instant: SourceInstant) -> ComponentState {
        switch self {
        case .scrollView(let machine): .scrollView(machine.snapshot(at: instant))
        case .pullToRefresh(let machine): .pullToRefresh(machine.snapshot(at: instant))
        case .pager(let machine): .pager(machine.snapshot(at: instant))
        case .slideTable(let machine): .slideTable(machine.snapshot(at: instant))
        case .drawer(let machine): .drawer(machine.snapshot(at: instant))
        case .numberPad(let machine): .numberPad(machine.snapshot(at: instant))
        case .canvas(let machine): .canvas(machine.snapshot(at: instant))
        case .zoomView(let machine): .zoomView(machine.snapshot(at: instant))
        case .memoBoard(let machine): .memoBoard(machine.snapshot(at: instant))
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
