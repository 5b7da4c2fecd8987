import BusSchema

/// An edge drawer menu: a swipe away from its edge opens it, a swipe toward the edge closes it,
/// and after each toggle the direction it listens for flips. Its recognizer receives touches only
/// inside the menu's region; the scroll view under it requires that swipe to fail (the scene
/// declares both).
public struct DrawerMachine: Sendable {
    public struct Config: Sendable, Hashable {
        public var edge: DrawerState.Side
        public var width: Double
        public var initiallyOpen: Bool
        public var animationMs: Double

        public init(
            edge: DrawerState.Side = .left, width: Double = 240, initiallyOpen: Bool = false, animationMs: Double = 250
        ) {
            self.edge = edge
            self.width = width
            self.initiallyOpen = initiallyOpen
            self.animationMs = animationMs
        }
    }

    public enum Event: Sendable, Equatable {
        case swipeRecognized(GestureEvent.Direction, tMs: Double)
        case openRequested(tMs: Double)
        case closeRequested(tMs: Double)
        case timeElapsed(Double)
    }

    private enum State: Sendable {
        case closed
        case open
    }

    public let instance: String
    public let config: Config
    private var state: State
    private var slide: ComponentAnimation

    public init(instance: String, config: Config) {
        self.instance = instance
        self.config = config
        self.state = config.initiallyOpen ? .open : .closed
        let progress = config.initiallyOpen ? 1.0 : 0.0
        self.slide = ComponentAnimation(
            property: "progress", target: "menu", from: progress, to: progress, startMs: 0, durationMs: 0)
    }

    /// The swipe direction that opens the menu: away from its edge.
    private var openingDirection: GestureEvent.Direction { self.config.edge == .left ? .right : .left }
    private var closingDirection: GestureEvent.Direction { self.config.edge == .left ? .left : .right }

    public mutating func handle(_ event: Event) -> [ComponentEffect] {
        switch (self.state, event) {
        case (.closed, .swipeRecognized(let direction, let tMs)) where direction == self.openingDirection:
            return self.toggle(to: .open, tMs)
        case (.open, .swipeRecognized(let direction, let tMs)) where direction == self.closingDirection:
            return self.toggle(to: .closed, tMs)
        case (.closed, .openRequested(let tMs)):
            return self.toggle(to: .open, tMs)
        case (.open, .closeRequested(let tMs)):
            return self.toggle(to: .closed, tMs)
        case (_, .timeElapsed(let tMs)) where self.slide.durationMs > 0 && tMs >= self.slide.endMs:
            self.slide.durationMs = 0
            self.slide.from = self.slide.to
            return [self.publish(tMs)]
        default:
            return []
        }
    }

    private mutating func toggle(to state: State, _ tMs: Double) -> [ComponentEffect] {
        self.slide = ComponentAnimation(
            property: "progress", target: "menu", from: self.slide.value(at: tMs), to: state == .open ? 1 : 0,
            startMs: tMs, durationMs: self.config.animationMs)
        self.state = state
        // As a UIView block animation: the model jumps to the target, the render worker animates.
        var started = self.snapshot(tMs: tMs)
        started.progress = self.slide.to
        started.animation = StateAnimation(durationMs: self.config.animationMs)
        return [.publishState(.drawer(started)), .startAnimation(self.slide), .scheduleTimer(at: self.slide.endMs)]
    }

    /// The state as published.
    public func snapshot(tMs: Double) -> DrawerState {
        let open = self.state == .open
        let listening = open ? self.closingDirection : self.openingDirection
        return DrawerState(
            instance: self.instance, tMs: tMs, open: open, progress: self.slide.value(at: tMs),
            listeningDirection: listening == .left ? .left : .right, edge: self.config.edge, width: self.config.width)
    }

    private func publish(_ tMs: Double) -> ComponentEffect {
        .publishState(.drawer(self.snapshot(tMs: tMs)))
    }
}
