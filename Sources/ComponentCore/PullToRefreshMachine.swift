import BusSchema

/// A pull-to-refresh header over a scroll view: hidden → pullingDown → overThreshold →
/// refreshing → hidden.
///
/// Releasing over the threshold (header height + margin) starts refreshing and pins the header;
/// a `refresh_done` command or the timeout ends it, and a `refresh_done` stamps the header's
/// last-updated time. The arrow turns between 0 and π − ε over 0.1 s as the pull crosses the
/// threshold: the state says where it turns to and how long it takes (`arrow_animation`), and
/// the render worker turns it frame by frame, so it turns whether or not the finger moves. With
/// no connectivity a release fails fast: the header hides and shows the offline label.
public struct PullToRefreshMachine: Sendable {
    public struct Labels: Sendable, Hashable {
        public var pulling: String
        public var release: String
        public var refreshing: String
        public var offline: String

        public init(
            pulling: String = "引き下げて…", release: String = "指をはなすと更新", refreshing: String = "更新中…",
            offline: String = "オフラインです"
        ) {
            self.pulling = pulling
            self.release = release
            self.refreshing = refreshing
            self.offline = offline
        }
    }

    public struct Config: Sendable, Hashable {
        public var headerHeight: Double
        public var thresholdMargin: Double
        /// Refreshing ends after this long without `refresh_done`.
        public var timeoutMs: Double
        public var labels: Labels
        /// The rubber band's dimension: the scroll view's height.
        public var viewportHeight: Double

        public init(
            headerHeight: Double = 60, thresholdMargin: Double = 20, timeoutMs: Double = 10_000,
            labels: Labels = Labels(), viewportHeight: Double = 600
        ) {
            self.headerHeight = headerHeight
            self.thresholdMargin = thresholdMargin
            self.timeoutMs = timeoutMs
            self.labels = labels
            self.viewportHeight = viewportHeight
        }

        public var threshold: Double { self.headerHeight + self.thresholdMargin }
    }

    public enum Event: Sendable, Equatable {
        /// The scroll view's pan began; `atTop` when its content was at the top, so a pull
        /// shows the header.
        case panBegan(atTop: Bool, tMs: Double)
        case panChanged(translationY: Double, tMs: Double)
        case panEnded(tMs: Double)
        case panCancelled(tMs: Double)
        /// The refresh finished; `updatedAtMs` is when its data was updated (wall clock, ms since
        /// the Unix epoch), shown on the header's last-updated line.
        case refreshDone(tMs: Double, updatedAtMs: Double? = nil)
        case timeElapsed(Double)
        case connectivityChanged(Connectivity, tMs: Double)
        case appWillResignActive(tMs: Double)
        case appDidBecomeActive(tMs: Double)
    }

    private enum State: Sendable {
        case hidden
        case ignoringPan
        case pullingDown(offset: Double)
        case overThreshold(offset: Double)
        case refreshing(deadline: Double)
        case refreshingPaused(remainingMs: Double)
    }

    /// The arrow turns over this long.
    public static let arrowDurationMs = 100.0
    /// The arrow's angle heading up: the source's π − ε (`2π·180/360 − 0.000001`), so that it
    /// turns through the right-hand side and back, never the short way round through the left.
    public static let headingUpAngle = Double.pi - 0.000_001
    /// The header shows (snaps to the header height) or hides over this long: the source's
    /// `_setHeaderViewHidden:animated:` animates the content inset for 0.2 s.
    public static let snapMs = 200.0

    public let instance: String
    public let config: Config
    private var state: State = .hidden
    private var connectivity: Connectivity = .wired
    private var failedOffline = false
    /// When the last refresh's data was updated (wall clock, ms since the epoch), as given.
    private var updatedAtMs: Double?
    /// Where the arrow turns to (the renderer turns it from where it is on screen).
    private var arrowAngle = 0.0

    public init(instance: String, config: Config) {
        self.instance = instance
        self.config = config
    }

    public mutating func handle(_ event: Event) -> [ComponentEffect] {
        switch (self.state, event) {
        case (.hidden, .panBegan(let atTop, let tMs)):
            self.state = atTop ? .pullingDown(offset: 0) : .ignoringPan
            return atTop ? [self.publish(tMs)] : []
        case (.pullingDown, .panChanged(let translationY, let tMs)),
            (.overThreshold, .panChanged(let translationY, let tMs)):
            return self.pulled(to: translationY, tMs)
        case (.pullingDown, .panEnded(let tMs)), (.pullingDown, .panCancelled(let tMs)),
            (.overThreshold, .panCancelled(let tMs)), (.pullingDown, .appWillResignActive(let tMs)),
            (.overThreshold, .appWillResignActive(let tMs)):
            return self.hide(tMs)
        case (.overThreshold, .panEnded(let tMs)):
            guard self.connectivity.isOnline else {
                self.failedOffline = true
                return self.hide(tMs)
            }
            self.failedOffline = false
            self.state = .refreshing(deadline: tMs + self.config.timeoutMs)
            return [self.snapped(tMs), .scheduleTimer(at: SourceInstant(milliseconds: tMs + self.config.timeoutMs))]
        case (.ignoringPan, .panEnded), (.ignoringPan, .panCancelled), (.ignoringPan, .appWillResignActive):
            self.state = .hidden
            return []
        case (.refreshing, .refreshDone(let tMs, let updatedAtMs)),
            (.refreshingPaused, .refreshDone(let tMs, let updatedAtMs)):
            if let updatedAtMs, updatedAtMs.isFinite { self.updatedAtMs = updatedAtMs }
            return [.cancelTimer] + self.hide(tMs)
        case (.refreshing(let deadline), .timeElapsed(let tMs)) where tMs >= deadline:
            return self.hide(tMs)
        case (.refreshing(let deadline), .appWillResignActive(let tMs)):
            self.state = .refreshingPaused(remainingMs: max(deadline - tMs, 0))
            return [.cancelTimer]
        case (.refreshingPaused(let remaining), .appDidBecomeActive(let tMs)):
            self.state = .refreshing(deadline: tMs + remaining)
            return [.scheduleTimer(at: SourceInstant(milliseconds: tMs + remaining))]
        case (_, .connectivityChanged(let connectivity, _)):
            self.connectivity = connectivity
            return []
        default:
            return []
        }
    }

    private mutating func pulled(to translationY: Double, _ tMs: Double) -> [ComponentEffect] {
        let offset = max(0, ScrollAxis.rubberBand(translationY, dimension: self.config.viewportHeight))
        let over = offset >= self.config.threshold
        let wasOver: Bool
        let wasOffset: Double
        switch self.state {
        case .overThreshold(let pulled): (wasOver, wasOffset) = (true, pulled)
        case .pullingDown(let pulled): (wasOver, wasOffset) = (false, pulled)
        default: (wasOver, wasOffset) = (false, -1)
        }
        // A finger moving up past where the pull began leaves the header where it is: nothing to say.
        guard offset != wasOffset || over != wasOver else { return [] }
        self.state = over ? .overThreshold(offset: offset) : .pullingDown(offset: offset)
        guard over != wasOver else { return [self.publish(tMs)] }
        // The turn, as the source's block animation: the state carries where the arrow turns to
        // and over how long; the renderer turns it from where it is on screen.
        self.arrowAngle = over ? Self.headingUpAngle : 0
        var state = self.snapshot(tMs: tMs)
        state.arrowAnimation = StateAnimation(durationMs: Self.arrowDurationMs)
        return [.publishState(.pullToRefresh(state))]
    }

    private mutating func hide(_ tMs: Double) -> [ComponentEffect] {
        self.state = .hidden
        self.arrowAngle = 0
        return [self.snapped(tMs)]
    }

    /// The state after a release or the end of a refresh: the header's new offset, animated.
    private func snapped(_ tMs: Double) -> ComponentEffect {
        var state = self.snapshot(tMs: tMs)
        state.animation = StateAnimation(durationMs: Self.snapMs)
        return .publishState(.pullToRefresh(state))
    }

    /// The state as published.
    public func snapshot(tMs: Double) -> PullToRefreshState {
        let labels = self.config.labels
        let phase: PullToRefreshState.Phase
        let offset: Double
        let label: String
        switch self.state {
        case .hidden, .ignoringPan:
            (phase, offset, label) = (.hidden, 0, self.failedOffline ? labels.offline : labels.pulling)
        case .pullingDown(let pulled):
            (phase, offset, label) = (.pullingDown, pulled, labels.pulling)
        case .overThreshold(let pulled):
            (phase, offset, label) = (.overThreshold, pulled, labels.release)
        case .refreshing, .refreshingPaused:
            (phase, offset, label) = (.refreshing, self.config.headerHeight, labels.refreshing)
        }
        return PullToRefreshState(
            instance: self.instance, tMs: tMs, phase: phase, offset: offset, threshold: self.config.threshold,
            label: label, arrowAngle: self.arrowAngle, offline: self.failedOffline,
            headerHeight: self.config.headerHeight, updatedAtMs: self.updatedAtMs)
    }

    private func publish(_ tMs: Double) -> ComponentEffect {
        .publishState(.pullToRefresh(self.snapshot(tMs: tMs)))
    }
}
