import BusSchema

#if canImport(Glibc)
    import Glibc
#endif

/// Pan and screen-edge pan.
///
/// A pan begins when its translation exceeds the slop with `minTouches`…`maxTouches` fingers
/// down, changes as they move and ends when fewer than `minTouches` remain. A screen-edge pan
/// also needs its first touch to land within `edgeWidth` of one of its edges and its motion to
/// point inward at least as much as along the edge; otherwise it fails.
struct PanMachine: RecognizerMachine {
    let kind: GestureEvent.Kind
    var settings: RecognizerSettings
    /// The screen, for screen-edge pans.
    let screen: Rect
    private var state = ContinuousPhase.possible
    /// The edge a screen-edge pan's first touch landed at.
    private var edge: GestureEvent.Edge?
    private var translation = TranslationTracker()

    init(kind: GestureEvent.Kind, settings: RecognizerSettings, screen: Rect) {
        self.kind = kind
        self.settings = settings
        self.screen = screen
    }

    mutating func restart() {
        self.state = .possible
        self.edge = nil
        self.translation.restart()
    }

    var status: MachineStatus { self.state.status }

    mutating func handle(_ event: RecognizerEvent, touches: inout FollowedTouches) -> Proposal? {
        switch (event, self.state) {
        case (.frameEnded(let now), .possible):
            if self.kind == .edgePan, self.edge == nil, touches.landedCount > 0,
                touches.down.count == touches.landedCount
            {
                self.edge = self.nearEdge(touches.down[0])
                if self.edge == nil { return self.state.finish(.fail) }
            }
            self.translation.track(touches, at: now)
            return self.judgeStart(touches)
        case (.frameEnded(let now), .began):
            self.translation.track(touches, at: now)
            if touches.cancelled { return self.state.finish(.cancel) }
            if touches.down.count < self.settings.minTouches { return self.state.finish(.end) }
            return touches.moved || touches.landedCount > 0 ? .change : nil
        case (.arenaClosed, _):
            return self.state.close()
        case (.frameEnded, .finished), (.deadlinePassed, _):
            return nil
        }
    }

    private mutating func judgeStart(_ touches: borrowing FollowedTouches) -> Proposal? {
        if touches.cancelled || touches.down.count > self.settings.maxTouches { return self.state.finish(.fail) }
        if touches.down.isEmpty { return self.state.finish(.fail) }
        guard touches.down.count >= self.settings.minTouches else { return nil }
        let (dx, dy) = self.translation.translation
        guard hypot(dx, dy) > self.settings.slop else { return nil }
        if let edge = self.edge {
            let (inward, along): (Double, Double)
            switch edge {
            case .left: (inward, along) = (dx, dy)
            case .right: (inward, along) = (-dx, dy)
            case .top: (inward, along) = (dy, dx)
            case .bottom: (inward, along) = (-dy, dx)
            }
            guard inward >= abs(along) else { return self.state.finish(.fail) }
        }
        return self.state.begin()
    }

    private func nearEdge(_ touch: TrackedTouch) -> GestureEvent.Edge? {
        let width = self.settings.edgeWidth
        // Fixed order, so a touch in a corner picks the same edge every time.
        for edge in [GestureEvent.Edge.left, .right, .top, .bottom] where self.settings.edges.contains(edge) {
            switch edge {
            case .left where touch.startX - self.screen.x <= width: return edge
            case .right where self.screen.x + self.screen.width - touch.startX <= width: return edge
            case .top where touch.startY - self.screen.y <= width: return edge
            case .bottom where self.screen.y + self.screen.height - touch.startY <= width: return edge
            default: continue
            }
        }
        return nil
    }

    mutating func describe(into event: inout GestureEvent) {
        let translation = self.translation.translation
        let velocity = self.translation.velocity
        event.translation = GestureEvent.Vector(x: translation.x, y: translation.y)
        event.velocity = GestureEvent.Vector(x: velocity.x, y: velocity.y)
        event.edge = self.edge
    }
}
