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
        public var edge = DrawerState.Side.left
        public var width = 240.0
        public var initiallyOpen = false
        /// What the closed menu leaves showing at its edge.
        public var tab = DrawerMachine.tabWidth
        public var duration = DrawerMachine.slideDuration
        public var delay = DrawerMachine.slideDelay
        /// The view the menu slides over, in scene points: its swipe's receive region is the
        /// panel's part of it.
        public var frame: Rect
    }

    /// The source's toggle, `animateWithDuration:.1 delay:.2`: the menu waits 0.2 s, then
    /// slides for 0.1 s (UIKit's default ease-in-out curve).
    public static let slideDuration = Duration.milliseconds(100)
    public static let slideDelay = Duration.milliseconds(200)
    /// What the closed menu leaves showing and touchable at its edge: the source closes it to
    /// `x = 44 - width`.
    public static let tabWidth = 44.0

    public enum Event: Sendable, Equatable {
        case swipeRecognized(GestureEvent.Direction, at: SourceInstant)
        case openRequested(at: SourceInstant)
        case closeRequested(at: SourceInstant)
        case timeElapsed(SourceInstant)
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
        let start = SourceInstant(nanoseconds: 0)
        self.slide = ComponentAnimation(from: progress, to: progress, start: start, end: start)
    }

    /// The swipe direction that opens the menu: away from its edge.
    private var openingDirection: GestureEvent.Direction { self.config.edge == .left ? .right : .left }
    private var closingDirection: GestureEvent.Direction { self.config.edge == .left ? .left : .right }

    public mutating func handle(_ event: Event) -> [ComponentEffect] {
        switch (self.state, event) {
        case (.closed, .swipeRecognized(let direction, let now)) where direction == self.openingDirection:
            return self.toggle(to: .open, now)
        case (.open, .swipeRecognized(let direction, let now)) where direction == self.closingDirection:
            return self.toggle(to: .closed, now)
        case (.closed, .openRequested(let now)):
            return self.toggle(to: .open, now)
        case (.open, .closeRequested(let now)):
            return self.toggle(to: .closed, now)
        case (_, .timeElapsed(let now)) where self.slide.isRunning && now >= self.slide.end:
            self.slide = ComponentAnimation(from: self.slide.to, to: self.slide.to, start: now, end: now)
            return [self.publish(now)]
        default:
            return []
        }
    }

    private mutating func toggle(to state: State, _ now: SourceInstant) -> [ComponentEffect] {
        // The slide starts after the delay; until then the menu stays where it is.
        let start = now + self.config.delay
        self.slide = ComponentAnimation(
            from: self.slide.value(at: now), to: state == .open ? 1 : 0, start: start, end: start + self.config.duration
        )
        self.state = state
        // As a UIView block animation: the model jumps to the target, the render worker animates.
        var started = self.snapshot(at: now)
        started.progress = self.slide.to
        started.animation = StateAnimation {
            $0.durationMs = self.config.duration.milliseconds
            $0.delayMs = self.config.delay.milliseconds
        }
        return [.publishState(.drawer(started)), .scheduleTimer(at: self.slide.end)]
    }

    /// The state as published.
    public func snapshot(at now: SourceInstant) -> DrawerState {
        let open = self.state == .open
        let listening = open ? self.closingDirection : self.openingDirection
        var state = DrawerState {
            $0.instance = self.instance
            $0.tMs = now.milliseconds
            $0.open = open
            $0.progress = self.slide.value(at: now)
            $0.listeningDirection = listening == .left ? .left : .right
            $0.edge = self.config.edge
            $0.width = self.config.width
        }
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

    private func publish(_ now: SourceInstant) -> ComponentEffect {
        .publishState(.drawer(self.snapshot(at: now)))
    }
}
