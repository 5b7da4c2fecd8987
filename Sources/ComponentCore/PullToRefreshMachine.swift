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
    /// What the header says where the scene's `labels` name nothing.
    public static let defaultLabels = (
        pulling: "引き下げて…", release: "指をはなすと更新", refreshing: "更新中…", offline: "オフラインです"
    )

    public struct Config: Sendable, Hashable {
        public var headerHeight = 60.0
        public var thresholdMargin = 20.0
        /// Refreshing ends after this long without `refresh_done`.
        public var timeout = Duration.seconds(10)
        /// The scene's texts (`pulling`, `release`, `refreshing`, `offline`).
        public var labels = Scene.Config.Labels()
        /// The rubber band's dimension: the scroll view's height.
        public var viewportHeight = 600.0

        public var threshold: Double { self.headerHeight + self.thresholdMargin }
    }

    public enum Event: Sendable, Equatable {
        /// The scroll view's pan began; `atTop` when its content was at the top, so a pull
        /// shows the header.
        case panBegan(atTop: Bool, at: SourceInstant)
        case panChanged(translationY: Double, at: SourceInstant)
        case panEnded(at: SourceInstant)
        case panCancelled(at: SourceInstant)
        /// The refresh finished; `updatedAtMs` is when its data was updated (wall clock, ms since
        /// the Unix epoch), shown on the header's last-updated line.
        case refreshDone(at: SourceInstant, updatedAtMs: Double? = nil)
        case timeElapsed(SourceInstant)
        case connectivityChanged(Connectivity, at: SourceInstant)
        case appWillResignActive(at: SourceInstant)
        case appDidBecomeActive(at: SourceInstant)
    }

    private enum State: Sendable {
        case hidden
        case ignoringPan
        case pullingDown(offset: Double)
        case overThreshold(offset: Double)
        case refreshing(deadline: SourceInstant)
        case refreshingPaused(remaining: Duration)
    }

    /// The arrow turns over this long.
    public static let arrowDuration = Duration.milliseconds(100)
    /// The arrow's angle heading up: the source's π − ε (`2π·180/360 − 0.000001`), so that it
    /// turns through the right-hand side and back, never the short way round through the left.
    public static let headingUpAngle = Double.pi - 0.000_001
    /// The header shows (snaps to the header height) or hides over this long: the source's
    /// `_setHeaderViewHidden:animated:` animates the content inset for 0.2 s.
    public static let snap = Duration.milliseconds(200)

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
        case (.hidden, .panBegan(let atTop, let now)):
            self.state = atTop ? .pullingDown(offset: 0) : .ignoringPan
            return atTop ? [self.publish(now)] : []
        case (.pullingDown, .panChanged(let translationY, let now)),
            (.overThreshold, .panChanged(let translationY, let now)):
            return self.pulled(to: translationY, now)
        case (.pullingDown, .panEnded(let now)), (.pullingDown, .panCancelled(let now)),
            (.overThreshold, .panCancelled(let now)), (.pullingDown, .appWillResignActive(let now)),
            (.overThreshold, .appWillResignActive(let now)):
            return self.hide(now)
        case (.overThreshold, .panEnded(let now)):
            guard self.connectivity.isOnline else {
                self.failedOffline = true
                return self.hide(now)
            }
            self.failedOffline = false
            self.state = .refreshing(deadline: now + self.config.timeout)
            return [self.snapped(now), .scheduleTimer(at: now + self.config.timeout)]
        case (.ignoringPan, .panEnded), (.ignoringPan, .panCancelled), (.ignoringPan, .appWillResignActive):
            self.state = .hidden
            return []
        case (.refreshing, .refreshDone(let now, let updatedAtMs)),
            (.refreshingPaused, .refreshDone(let now, let updatedAtMs)):
            if let updatedAtMs, updatedAtMs.isFinite { self.updatedAtMs = updatedAtMs }
            return [.cancelTimer] + self.hide(now)
        case (.refreshing(let deadline), .timeElapsed(let now)) where now >= deadline:
            return self.hide(now)
        case (.refreshing(let deadline), .appWillResignActive(let now)):
            self.state = .refreshingPaused(remaining: max(deadline - now, .zero))
            return [.cancelTimer]
        case (.refreshingPaused(let remaining), .appDidBecomeActive(let now)):
            self.state = .refreshing(deadline: now + remaining)
            return [.scheduleTimer(at: now + remaining)]
        case (_, .connectivityChanged(let connectivity, _)):
            self.connectivity = connectivity
            return []
        default:
            return []
        }
    }

    private mutating func pulled(to translationY: Double, _ now: SourceInstant) -> [ComponentEffect] {
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
        guard over != wasOver else { return [self.publish(now)] }
        // The turn, as the source's block animation: the state carries where the arrow turns to
        // and over how long; the renderer turns it from where it is on screen.
        self.arrowAngle = over ? Self.headingUpAngle : 0
        var state = self.snapshot(at: now)
        state.arrowAnimation = StateAnimation {
            $0.durationMs = Self.arrowDuration.milliseconds
        }
        return [.publishState(.pullToRefresh(state))]
    }

    private mutating func hide(_ now: SourceInstant) -> [ComponentEffect] {
        self.state = .hidden
        self.arrowAngle = 0
        return [self.snapped(now)]
    }

    /// The state after a release or the end of a refresh: the header's new offset, animated.
    private func snapped(_ now: SourceInstant) -> ComponentEffect {
        var state = self.snapshot(at: now)
        state.animation = StateAnimation {
            $0.durationMs = Self.snap.milliseconds
        }
        return .publishState(.pullToRefresh(state))
    }

    /// The state as published.
    public func snapshot(at now: SourceInstant) -> PullToRefreshState {
        let (labels, defaults) = (self.config.labels, Self.defaultLabels)
        let pulling = labels.pulling ?? defaults.pulling
        let phase: PullToRefreshState.Phase
        let offset: Double
        let label: String
        switch self.state {
        case .hidden, .ignoringPan:
            (phase, offset, label) = (.hidden, 0, self.failedOffline ? labels.offline ?? defaults.offline : pulling)
        case .pullingDown(let pulled):
            (phase, offset, label) = (.pullingDown, pulled, pulling)
        case .overThreshold(let pulled):
            (phase, offset, label) = (.overThreshold, pulled, labels.release ?? defaults.release)
        case .refreshing, .refreshingPaused:
            (phase, offset, label) = (.refreshing, self.config.headerHeight, labels.refreshing ?? defaults.refreshing)
        }
        return PullToRefreshState {
            $0.instance = self.instance
            $0.tMs = now.milliseconds
            $0.phase = phase
            $0.offset = offset
            $0.threshold = self.config.threshold
            $0.label = label
            $0.arrowAngle = self.arrowAngle
            $0.offline = self.failedOffline
            $0.headerHeight = self.config.headerHeight
            $0.updatedAtMs = self.updatedAtMs
        }
    }

    private func publish(_ now: SourceInstant) -> ComponentEffect {
        .publishState(.pullToRefresh(self.snapshot(at: now)))
    }
}
