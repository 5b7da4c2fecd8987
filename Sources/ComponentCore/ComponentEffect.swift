import BusSchema

/// What a component machine asks its owner to do; the machines themselves do no I/O.
public enum ComponentEffect: Sendable, Equatable {
    /// Publish the component's full state on `ui/<kind>/<instance>/`.
    case publishState(ComponentState)
    /// Call the machine with `timeElapsed` at this instant (the input source's clock); replaces
    /// any earlier timer of the same machine.
    case scheduleTimer(at: SourceInstant)
    /// Drop the machine's pending timer.
    case cancelTimer
    /// Send (or resend) a memo store command on `memo/cmd/`.
    case sendMemoCommand(MemoCommand)
}

/// One property animation a machine runs to know where it stands between timers (a slide's
/// offset, the drawer's progress, the arrow's angle): `property` of `target` goes from `from` to
/// `to` over `durationMs`. What is published is the state's `animation` (``StateAnimation``).
public struct ComponentAnimation: Sendable, Hashable {
    public var property: String
    /// What moves, e.g. a row index or the arrow.
    public var target: String
    public var from: Double
    public var to: Double
    public var startMs: Double
    public var durationMs: Double

    public init(property: String, target: String, from: Double, to: Double, startMs: Double, durationMs: Double) {
        self.property = property
        self.target = target
        self.from = from
        self.to = to
        self.startMs = startMs
        self.durationMs = durationMs
    }

    /// The value at `tMs`, linear, held at the ends.
    public func value(at tMs: Double) -> Double {
        guard self.durationMs > 0 else { return self.to }
        let progress = min(max((tMs - self.startMs) / self.durationMs, 0), 1)
        return self.from + (self.to - self.from) * progress
    }

    /// When it ends.
    public var endMs: Double { self.startMs + self.durationMs }
}

/// The full state of one component, tagged by kind, or (for a memo board) what changed since
/// its last state.
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
        case .scrollView(var state):
            state.input = input
            return .scrollView(state)
        case .pullToRefresh(var state):
            state.input = input
            return .pullToRefresh(state)
        case .pager(var state):
            state.input = input
            return .pager(state)
        case .slideTable(var state):
            state.input = input
            return .slideTable(state)
        case .drawer(var state):
            state.input = input
            return .drawer(state)
        case .numberPad(var state):
            state.input = input
            return .numberPad(state)
        case .canvas(var state):
            state.input = input
            return .canvas(state)
        case .zoomView(var state):
            state.input = input
            return .zoomView(state)
        case .memoBoard(var state):
            state.input = input
            return .memoBoard(state)
        case .memoBoardDelta:
            // memoBoardDelta v1 has no `input`; the next full state carries the provenance.
            return self
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
    public var kind: ComponentScene.Kind {
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
