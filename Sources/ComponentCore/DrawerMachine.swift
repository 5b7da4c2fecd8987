import BusSchema
import GestureCore

/// An edge drawer menu (the source's SwipeMenu): a swipe away from its edge opens it, a swipe
/// toward the edge closes it, and after each toggle the direction it listens for flips. The
/// closed menu leaves a tab showing at its edge. With every state the host configures the swipe
/// recognizers that target the menu from ``swipeSetup(for:)``: they accept only the listened
/// direction and receive touches only on the panel, so the other swipe fails and the scroll view
/// under it, which requires the swipe to fail, pans (the scene declares that relationship).
public struct DrawerMachine: Sendable {
    public struct Config: Sendable, Hashable {
        public var edge: DrawerState.Side
        public var width: Double
        public var initiallyOpen: Bool
        /// What the closed menu leaves showing at its edge.
        public var tab: Double
        public var durationMs: Double
        public var delayMs: Double
        /// The view the menu slides over, in scene points: its swipe's receive region is the
        /// panel's part of it.
        public var frame: Rect

        public init(
            edge: DrawerState.Side = .left, width: Double = 240, initiallyOpen: Bool = false,
            tab: Double = DrawerMachine.tabWidth, durationMs: Double = DrawerMachine.slideDurationMs,
            delayMs: Double = DrawerMachine.slideDelayMs, frame: Rect
        ) {
            self.edge = edge
            self.width = width
            self.initiallyOpen = initiallyOpen
            self.tab = tab
            self.durationMs = durationMs
            self.delayMs = delayMs
            self.frame = frame
        }
    }

    /// The source's toggle, `animateWithDuration:.1 delay:.2`: the menu waits 0.2 s, then
    /// slides for 0.1 s (UIKit's default ease-in-out curve).
    public static let slideDurationMs = 100.0
    public static let slideDelayMs = 200.0
    /// What the closed menu leaves showing and touchable at its edge: the source closes it to
    /// `x = 44 - width`.
    public static let tabWidth = 44.0

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
        // The slide starts after the delay; until then the menu stays where it is.
        self.slide = ComponentAnimation(
            property: "progress", target: "menu", from: self.slide.value(at: tMs), to: state == .open ? 1 : 0,
            startMs: tMs + self.config.delayMs, durationMs: self.config.durationMs)
        self.state = state
        // As a UIView block animation: the model jumps to the target, the render worker animates.
        var started = self.snapshot(tMs: tMs)
        started.progress = self.slide.to
        started.animation = StateAnimation(durationMs: self.config.durationMs, delayMs: self.config.delayMs)
        return [.publishState(.drawer(started)), .scheduleTimer(at: SourceInstant(milliseconds: self.slide.endMs))]
    }

    /// The state as published.
    public func snapshot(tMs: Double) -> DrawerState {
        let open = self.state == .open
        let listening = open ? self.closingDirection : self.openingDirection
        var state = DrawerState(
            instance: self.instance, tMs: tMs, open: open, progress: self.slide.value(at: tMs),
            listeningDirection: listening == .left ? .left : .right, edge: self.config.edge, width: self.config.width)
        state.tab = self.config.tab
        return state
    }

    /// What the swipe recognizers driving the menu accept, as of `state`: only the direction it
    /// listens for (the source flips its recognizer's `direction`), and touches that begin on the
    /// panel's frame at `state.progress` (the source's `shouldReceiveTouch`, by the model frame,
    /// which jumps to the target when an animation starts), within the view.
    public func swipeSetup(for state: DrawerState) -> (directions: [GestureEvent.Direction], region: Rect) {
        let frame = self.config.frame
        let x = DrawerState.panelX(
            progress: state.progress, width: self.config.width, tab: self.config.tab, edge: self.config.edge,
            viewWidth: frame.width)
        let left = max(0, x)
        let right = min(frame.width, x + self.config.width)
        let region = Rect(x: frame.x + left, y: frame.y, width: max(0, right - left), height: frame.height)
        return ([state.listeningDirection == .left ? .left : .right], region)
    }

    private func publish(_ tMs: Double) -> ComponentEffect {
        .publishState(.drawer(self.snapshot(tMs: tMs)))
    }
}
