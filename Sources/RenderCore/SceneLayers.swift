import BusSchema

/// Builds the layer tree for a scene (the typed ``Scene``) and the latest component states
/// (schemas `state.<kind>`): views become layers with their declared background, corner radius,
/// drop shadow, inner shadow and region blur; memo boards are drawn in
/// `SceneLayers+MemoBoard.swift`, number pads in `SceneLayers+NumberPad.swift`, the other kinds
/// in `SceneLayers+Components.swift`.
public enum SceneLayers {
    /// The scene's size in points and its layer tree.
    /// - Parameters:
    ///   - states: component states keyed by their `instance`; a state of another kind than its
    ///     instance's component is drawn as no state.
    ///   - images: memo board background images that could be read, by their path.
    public static func build(
        scene: Scene, states: [String: ComponentState], images: [String: ImageContent] = [:]
    ) -> (size: Size, root: Layer) {
        var root = Layer(name: scene.name, frame: Rect(x: 0, y: 0, width: scene.width, height: scene.height))
        root.backgroundColor = color(scene.background)
        let views = scene.views.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }
            .map(\.element)
        // A zoom view draws its overlays itself (they hide while it moves).
        let drawnByZoom = Set(
            scene.views.flatMap { view -> [String] in
                guard case .zoomView(let zoom)? = view.component?.config else { return [] }
                return zoom.overlays
            })
        for view in views where !(drawnByZoom.contains(view.id) && view.component == nil) {
            var layer = Layer(name: view.id, frame: Rect(view.frame))
            let state = view.component.flatMap { states[$0.id] }?.message
            let size = layer.frame.size
            layer.backgroundColor = view.background.map(color)
            layer.cornerRadius = view.cornerRadius
            var dropShadow = view.shadow
            switch view.component?.config {
            case .memoBoard(let config)?:
                layer.backgroundColor = layer.backgroundColor ?? MemoBoardStyle.board
                layer.masksToBounds = true
                layer.sublayers = memoBoard(state as? MemoBoardState, config: config, size: size, images: images)
            case .numberPad(let config)?:
                layer.backgroundColor = layer.backgroundColor ?? Color(hex: 0xD1D5DB)
                layer.sublayers = keys(state as? NumberPadState, config: config, size: size)
            case .scrollView?:
                layer.masksToBounds = true
                layer.sublayers = scrollContent(state as? ScrollViewState, size: size)
            case .drawer(let config)?:
                // The view is the area the menu slides over; the panel carries the colour and the shadow.
                layer.backgroundColor = nil
                layer.masksToBounds = true
                layer.sublayers = drawer(state as? DrawerState, config: config, view: view, size: size)
                dropShadow = nil
            case .slideTable(let config)?:
                layer.masksToBounds = true
                let pulled = pullOffset(below: view.id, views: views, states: states)
                layer.sublayers = slideTable(state as? SlideTableState, config: config, size: size, pulled: pulled)
            case .pullToRefresh(let config)?:
                // The header lives in its scroll view's content, above the first row: it is drawn
                // over the scroll view's whole frame, not clipped to its own band.
                if let frame = config.scrollView.flatMap({ scene.view($0)?.frame }) { layer.frame = Rect(frame) }
                layer.masksToBounds = true
                layer.sublayers = pullToRefresh(state as? PullToRefreshState, config: config, size: layer.frame.size)
            case .pager(let config)?:
                layer.masksToBounds = true
                layer.sublayers = pager(state as? PagerState, config: config, size: size)
            case .canvas(let config)?:
                layer.masksToBounds = true
                layer.sublayers = canvas(state as? CanvasState, config: config)
            case .zoomView(let config)?:
                layer.masksToBounds = true
                let overlay = config.overlays.first.flatMap { scene.view($0) }
                layer.sublayers = zoomView(state as? ZoomViewState, overlay: overlay, in: layer.frame)
            case nil:
                break
            }
            if let dropShadow { root.sublayers.append(shadowLayer(dropShadow, of: view)) }
            style(&layer, view)
            root.sublayers.append(layer)
        }
        return (Size(scene.width, scene.height), root)
    }

    /// How far a pull-to-refresh header attached to scroll view `id` pushes its rows down (its
    /// state's offset: the pull, or the header height while refreshing), 0 without one.
    private static func pullOffset(below id: String, views: [Scene.View], states: [String: ComponentState]) -> Double {
        let header = views.first { view in
            guard case .pullToRefresh(let pull)? = view.component?.config else { return false }
            return pull.scrollView == id
        }
        guard case .pullToRefresh(let state)? = header?.component.flatMap({ states[$0.id] }) else { return 0 }
        let offset = state.offset
        return offset.isFinite ? max(0, offset) : 0
    }

    /// Memo palette colours by name.
    static let palette: [MemoBoardState.Color: UInt32] = [
        .yellow: 0xFFF3A0, .orange: 0xFFD8A8, .pink: 0xFFD1DC, .purple: 0xE5D4FF, .blue: 0xCDE7FF,
        .green: 0xD3F5D0, .gray: 0xE2E2E2, .white: 0xFFFFFF,
    ]

    /// The height of a minimized memo: a strip showing the start of its text, as FloatyMemo+ folds one.
    public static let minimizedMemoHeight = 28.0

    /// `#RRGGBB` or `#RRGGBBAA` (as component states spell colours).
    static func color(hex text: String) -> Color? {
        guard text.hasPrefix("#"), let value = UInt32(text.dropFirst(), radix: 16) else { return nil }
        switch text.count {
        case 7: return Color(hex: value)
        case 9: return Color(hex: value >> 8, alpha: Double(value & 0xFF) / 255)
        default: return nil
        }
    }
}
