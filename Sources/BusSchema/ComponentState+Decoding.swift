/// Reading a full component state off the bus or out of a file, once, into its kind's type.
extension ComponentState {
    /// Decodes a `state.<kind>` payload as `kind`'s state.
    ///
    /// - Throws: ``CodecError`` (from the kind's decoder) when a field is missing, mistyped or
    ///   out of range.
    public init(kind: Scene.Component.Kind, payload: Value) throws {
        switch kind {
        case .scrollView: self = .scrollView(try ScrollViewState(payload: payload))
        case .pullToRefresh: self = .pullToRefresh(try PullToRefreshState(payload: payload))
        case .pager: self = .pager(try PagerState(payload: payload))
        case .slideTable: self = .slideTable(try SlideTableState(payload: payload))
        case .drawer: self = .drawer(try DrawerState(payload: payload))
        case .numberPad: self = .numberPad(try NumberPadState(payload: payload))
        case .canvas: self = .canvas(try CanvasState(payload: payload))
        case .zoomView: self = .zoomView(try ZoomViewState(payload: payload))
        case .memoBoard: self = .memoBoard(try MemoBoardState(payload: payload))
        }
    }
}

extension Scene.Component.Kind {
    /// The kind whose full state schema is `schema` (`state.drawer` → ``drawer``), nil for any
    /// other schema (a memo board delta included).
    public init?(stateSchema schema: String) {
        guard schema.hasPrefix("state.") else { return nil }
        self.init(rawValue: String(schema.dropFirst("state.".count)))
    }
}

extension Scene {
    /// The kind of each component instance of the scene, by instance id: the type its states
    /// decode into.
    public var componentKinds: [String: Scene.Component.Kind] {
        Dictionary(
            self.views.compactMap { view in view.component.map { ($0.id, $0.kind) } },
            uniquingKeysWith: { first, _ in first })
    }
}
