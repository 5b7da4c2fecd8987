/// The full state of one component, tagged by kind, or (for a memo board) what changed since
/// its last state: what the component host publishes and the render worker draws.
public enum ComponentState: Sendable, Hashable {
    case scrollView(ScrollViewState)
    case pullToRefresh(PullToRefreshState)
    case pager(PagerState)
    case slideTable(SlideTableState)
    case drawer(DrawerState)
    case numberPad(NumberPadState)
    case canvas(CanvasState)
    case zoomView(ZoomViewState)
    case memoBoard(MemoBoardState)
    /// The memos and fields changed since the board's previous message, on
    /// `ui/memoBoard/<instance>/delta/`.
    case memoBoardDelta(MemoBoardDelta)

    /// The message, for encoding.
    public var message: any ValueMessage {
        switch self {
        case .scrollView(let state): state
        case .pullToRefresh(let state): state
        case .pager(let state): state
        case .slideTable(let state): state
        case .drawer(let state): state
        case .numberPad(let state): state
        case .canvas(let state): state
        case .zoomView(let state): state
        case .memoBoard(let state): state
        case .memoBoardDelta(let delta): delta
        }
    }

    /// The message's schema, without boxing the state into ``message`` (a copy and an allocation).
    public var schema: SchemaID {
        switch self {
        case .scrollView: ScrollViewState.schema
        case .pullToRefresh: PullToRefreshState.schema
        case .pager: PagerState.schema
        case .slideTable: SlideTableState.schema
        case .drawer: DrawerState.schema
        case .numberPad: NumberPadState.schema
        case .canvas: CanvasState.schema
        case .zoomView: ZoomViewState.schema
        case .memoBoard: MemoBoardState.schema
        case .memoBoardDelta: MemoBoardDelta.schema
        }
    }

    /// The state carrying `input`, the touch frame whose effect it shows.
    public func with(input: TouchInput?) -> ComponentState {
        switch self {
        case .scrollView(let state): .scrollView(state.with(input: input))
        case .pullToRefresh(let state): .pullToRefresh(state.with(input: input))
        case .pager(let state): .pager(state.with(input: input))
        case .slideTable(let state): .slideTable(state.with(input: input))
        case .drawer(let state): .drawer(state.with(input: input))
        case .numberPad(let state): .numberPad(state.with(input: input))
        case .canvas(let state): .canvas(state.with(input: input))
        case .zoomView(let state): .zoomView(state.with(input: input))
        case .memoBoard(let state): .memoBoard(state.with(input: input))
        // memoBoardDelta v1 has no `input`; the next full state carries the provenance.
        case .memoBoardDelta: self
        }
    }

    /// The payload map (what `replay` prints and the bus carries).
    public var payload: Value { self.message.payload }

    /// Appends the payload, without going through a ``Value``.
    public func encode(to writer: inout MessagePackWriter) {
        switch self {
        case .scrollView(let state): state.encode(to: &writer)
        case .pullToRefresh(let state): state.encode(to: &writer)
        case .pager(let state): state.encode(to: &writer)
        case .slideTable(let state): state.encode(to: &writer)
        case .drawer(let state): state.encode(to: &writer)
        case .numberPad(let state): state.encode(to: &writer)
        case .canvas(let state): state.encode(to: &writer)
        case .zoomView(let state): state.encode(to: &writer)
        case .memoBoard(let state): state.encode(to: &writer)
        case .memoBoardDelta(let delta): delta.encode(to: &writer)
        }
    }

    /// The component's kind: the `<kind>` topic segment.
    public var kind: Scene.Component.Kind {
        switch self {
        case .scrollView: .scrollView
        case .pullToRefresh: .pullToRefresh
        case .pager: .pager
        case .slideTable: .slideTable
        case .drawer: .drawer
        case .numberPad: .numberPad
        case .canvas: .canvas
        case .zoomView: .zoomView
        case .memoBoard, .memoBoardDelta: .memoBoard
        }
    }

    /// The change's animation (a UIView block animation), for the kinds whose states carry one.
    public var animation: StateAnimation? {
        switch self {
        case .pullToRefresh(let state): state.animation
        case .pager(let state): state.animation
        case .slideTable(let state): state.animation
        case .drawer(let state): state.animation
        case .zoomView(let state): state.animation
        case .memoBoard(let state): state.animation
        case .scrollView, .numberPad, .canvas, .memoBoardDelta: nil
        }
    }

    /// Whether this is a delta (published under `delta/` below the instance's topic).
    public var isDelta: Bool {
        if case .memoBoardDelta = self { return true }
        return false
    }

    /// The instance id: the `<instance>` topic segment.
    public var instance: String {
        switch self {
        case .scrollView(let state): state.instance
        case .pullToRefresh(let state): state.instance
        case .pager(let state): state.instance
        case .slideTable(let state): state.instance
        case .drawer(let state): state.instance
        case .numberPad(let state): state.instance
        case .canvas(let state): state.instance
        case .zoomView(let state): state.instance
        case .memoBoard(let state): state.instance
        case .memoBoardDelta(let delta): delta.instance
        }
    }
}
