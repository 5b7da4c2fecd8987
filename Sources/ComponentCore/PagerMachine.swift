import BusSchema

/// A SmartNews-style pager: pages switched by a horizontal swipe or pan; the current page's
/// vertical scroll moves the menu up over the navigation bar, by at most the bar's height (the
/// source's `constMenuViewTopMargin`, down to `-navigationBar.frame.height`), and, past the top,
/// stretches the progress area above it (`DefaultProgressViewHeight - offsetY`); a pull past the threshold (120 pt) and release starts a load whose
/// progress runs 0–100 % until `refresh_done` (or the load duration) ends it.
///
/// Where UIKit would animate, the model jumps to the target and the state carries an
/// `animation` (a UIView block animation for the render worker): the page snap after a
/// released pan, a swipe or a page request; the bounce back after a pull; and the header's
/// snap to shown or hidden when a scroll ends with it part-way.
public struct PagerMachine: Sendable {
    /// What the pull label says where the scene's `labels` name nothing: its three stages (the
    /// title, then past 70 pt and past the threshold) and the loading text (`refreshing`).
    public static let defaultLabels = (idle: "Sample", pulling: "引き下げて更新", release: "はなして更新", refreshing: "更新中")

    /// The pull past which the label asks to pull on (the source's PulledDownTextInterval).
    public static let pulledDownLabelPull = 70.0
    /// A UINavigationBar's height: how far the source's menu moves up.
    public static let navigationBarHeight = 44.0

    public struct Config: Sendable, Hashable {
        /// At least 1.
        public var pageCount: Int
        public var pageWidth: Double
        /// How far the menu can move up: the navigation bar's height.
        public var barHeight = PagerMachine.navigationBarHeight
        public var pullThreshold = 120.0
        /// Height of one page's content, for the scroll bounds.
        public var contentHeight = 2000.0
        public var viewportHeight = 500.0
        /// A load's progress reaches 100 % after this long unless `refresh_done` comes first.
        public var loadDuration = Duration.seconds(2)
        /// The scene's texts (`idle`, `pulling`, `release`, `refreshing`).
        public var labels = Scene.Config.Labels()
    }

    public enum Event: Sendable, Equatable {
        case panBegan(at: SourceInstant)
        case panChanged(translation: GestureEvent.Vector, at: SourceInstant)
        case panEnded(translation: GestureEvent.Vector, velocity: GestureEvent.Vector, at: SourceInstant)
        case panCancelled(at: SourceInstant)
        case swipeRecognized(GestureEvent.Direction, at: SourceInstant)
        case pageRequested(Int, at: SourceInstant)
        case refreshDone(at: SourceInstant)
        case timeElapsed(SourceInstant)
        case appWillResignActive(at: SourceInstant)
        case appDidBecomeActive(at: SourceInstant)
    }

    private enum State: Sendable {
        case idle
        /// A pan began; its axis is not decided yet.
        case panning(startPage: Int, startScroll: Double)
        case paging(startPage: Int)
        case scrolling(startScroll: Double)
        case loading(start: SourceInstant)
        /// The app resigned active during a load: progress holds until it is active again.
        case loadingPaused(elapsed: Duration)
    }

    /// Progress ticks every this many ms while loading.
    public static let progressTick = Duration.milliseconds(100)
    /// A finished load's full progress bar fades out over this long, then resets to zero width
    /// (the source's 0.3 s alpha animation and its completion).
    public static let progressFade = Duration.milliseconds(300)
    /// Release speed that flips to the next page, points per second.
    public static let pageFlipSpeed = 300.0
    /// Page and header snaps take this long, as a paging scroll view settling or
    /// `setContentOffset(_:animated:)` (UIKit does not document the length).
    public static let snap = Duration.milliseconds(300)

    public let instance: String
    public let config: Config
    private var state: State = .idle
    private var page = 0
    private var pageOffset = 0.0
    /// Vertical scroll of each page visited (the current page's drives the header).
    private var scrollOffsets: [Int: Double] = [:]
    private var progress = 0.0
    /// When the finished load's fading bar resets, while it fades.
    private var progressFadeEnd: SourceInstant?
    /// The page a gesture started on and when it ended: a swipe and a pan of one gesture flip once.
    private var lastGesture: (startPage: Int, end: SourceInstant)?

    public init(instance: String, config: Config) {
        var config = config
        config.pageCount = max(config.pageCount, 1)
        self.instance = instance
        self.config = config
    }

    public mutating func handle(_ event: Event) -> [ComponentEffect] {
        switch (self.state, event) {
        case (.idle, .panBegan(let now)):
            self.state = .panning(startPage: self.page, startScroll: self.scrollOffset)
            return [self.publish(now)]
        case (.panning(let startPage, let startScroll), .panChanged(let translation, let now)):
            self.state =
                abs(translation.x) > abs(translation.y)
                ? .paging(startPage: startPage) : .scrolling(startScroll: startScroll)
            return self.handle(.panChanged(translation: translation, at: now))
        case (.paging(let startPage), .panChanged(let translation, let now)):
            let raw = Double(startPage) - translation.x / max(self.config.pageWidth, 1)
            self.pageOffset = min(max(raw, 0), Double(self.config.pageCount - 1))
            return [self.publish(now)]
        case (.scrolling(let startScroll), .panChanged(let translation, let now)):
            self.scrollOffset = self.scrolled(startScroll - translation.y)
            return [self.publish(now)]
        case (.paging(let startPage), .panEnded(let translation, let velocity, let now)):
            var target = Int(saturating: Double(startPage) - translation.x / max(self.config.pageWidth, 1))
            if abs(velocity.x) >= Self.pageFlipSpeed { target = startPage + (velocity.x < 0 ? 1 : -1) }
            return self.settle(on: target, startPage: startPage, now)
        case (.scrolling, .panEnded(_, _, let now)):
            let loads = -self.scrollOffset >= self.config.pullThreshold
            self.state = loads ? .loading(start: now) : .idle
            if loads {
                self.progress = 0
                self.progressFadeEnd = nil
            }
            let released = self.snapped(now) {
                $0.scrollOffset = $0.headerSnapped(min(max($0.scrollOffset, 0), $0.maxScroll))
            }
            return loads
                ? [released, .scheduleTimer(at: now + Self.progressTick)] : [released]
        case (.panning, .panEnded(_, _, let now)), (.panning, .panCancelled(let now)),
            (.paging, .panCancelled(let now)), (.scrolling, .panCancelled(let now)),
            (.panning, .appWillResignActive(let now)), (.paging, .appWillResignActive(let now)),
            (.scrolling, .appWillResignActive(let now)):
            self.state = .idle
            return [
                self.snapped(now) {
                    $0.pageOffset = Double($0.page)
                    $0.scrollOffset = $0.headerSnapped(min(max($0.scrollOffset, 0), $0.maxScroll))
                }
            ]
        case (.idle, .swipeRecognized(let direction, let now)), (.paging, .swipeRecognized(let direction, let now)),
            (.panning, .swipeRecognized(let direction, let now)):
            guard direction == .left || direction == .right else { return [] }
            let startPage: Int
            if case .paging(let start) = self.state {
                startPage = start
            } else if case .panning(let start, _) = self.state {
                startPage = start
            } else if let last = self.lastGesture, last.end == now {
                startPage = last.startPage
            } else {
                startPage = self.page
            }
            return self.settle(on: startPage + (direction == .left ? 1 : -1), startPage: startPage, now)
        case (.idle, .pageRequested(let page, let now)):
            return self.settle(on: page, startPage: page, now)
        case (.loading(let start), .timeElapsed(let now)):
            self.progress = min(100, (now - start).milliseconds / self.config.loadDuration.milliseconds * 100)
            if self.progress >= 100 { return self.finishLoading(now) }
            return [self.publish(now), .scheduleTimer(at: now + Self.progressTick)]
        case (.loading, .refreshDone(let now)), (.loadingPaused, .refreshDone(let now)):
            return [.cancelTimer] + self.finishLoading(now)
        case (_, .timeElapsed(let now)) where self.progressFadeEnd.map { now >= $0 } ?? false:
            self.progress = 0
            self.progressFadeEnd = nil
            return [self.publish(now)]
        case (.loading(let start), .appWillResignActive(let now)):
            self.state = .loadingPaused(elapsed: now - start)
            return [.cancelTimer]
        case (.loadingPaused(let elapsed), .appDidBecomeActive(let now)):
            self.state = .loading(start: now - elapsed)
            return [.scheduleTimer(at: now + Self.progressTick)]
        default:
            return []
        }
    }

    private var scrollOffset: Double {
        get { self.scrollOffsets[self.page] ?? 0 }
        set { self.scrollOffsets[self.page] = newValue }
    }

    private var maxScroll: Double { max(0, self.config.contentHeight - self.config.viewportHeight) }

    private func scrolled(_ raw: Double) -> Double {
        var axis = ScrollAxis(minimum: 0, maximum: self.maxScroll, viewport: self.config.viewportHeight, position: 0)
        axis.position = axis.dragged(to: raw, bounces: true)
        return axis.position
    }

    /// The scroll offset a released scroll comes to rest at: with the header part-way, where
    /// it is fully shown or fully hidden, whichever is nearer.
    private func headerSnapped(_ offset: Double) -> Double {
        let hidden = min(self.config.barHeight, self.maxScroll)
        guard offset > 0, offset < hidden else { return offset }
        return offset < hidden / 2 ? 0 : hidden
    }

    private mutating func settle(on target: Int, startPage: Int, _ now: SourceInstant) -> [ComponentEffect] {
        if case .paging = self.state { self.state = .idle }
        if case .panning = self.state { self.state = .idle }
        self.lastGesture = (startPage, now)
        return [
            self.snapped(now) {
                $0.page = min(max(target, 0), $0.config.pageCount - 1)
                $0.pageOffset = Double($0.page)
            }
        ]
    }

    /// Applies `jump` and publishes the state, carrying the snap's animation when what is
    /// drawn (the page or scroll offset, so the header) moved: the model is at the target at
    /// once, the render worker animates there from what is on screen.
    private mutating func snapped(_ now: SourceInstant, _ jump: (inout PagerMachine) -> Void) -> ComponentEffect {
        let before = (self.pageOffset, self.page, self.scrollOffset)
        jump(&self)
        var state = self.snapshot(at: now)
        if before != (self.pageOffset, self.page, self.scrollOffset) {
            state.animation = StateAnimation {
                $0.durationMs = Self.snap.milliseconds
            }
        }
        return .publishState(.pager(state))
    }

    /// Ends a load: the bar, full, fades out over ``progressFade`` (an animated state), then a
    /// timer resets it to zero width.
    private mutating func finishLoading(_ now: SourceInstant) -> [ComponentEffect] {
        self.state = .idle
        self.progress = 100
        self.progressFadeEnd = now + Self.progressFade
        var state = self.snapshot(at: now)
        state.animation = StateAnimation {
            $0.durationMs = Self.progressFade.milliseconds
        }
        return [
            .publishState(.pager(state)), .scheduleTimer(at: now + Self.progressFade),
        ]
    }

    /// The state as published.
    public func snapshot(at now: SourceInstant) -> PagerState {
        let pulled = max(0, -self.scrollOffset)
        let loading: Bool
        switch self.state {
        case .loading, .loadingPaused: loading = true
        default: loading = false
        }
        let (labels, defaults) = (self.config.labels, Self.defaultLabels)
        let label =
            loading
            ? labels.refreshing ?? defaults.refreshing
            : pulled >= self.config.pullThreshold
                ? labels.release ?? defaults.release
                : pulled >= Self.pulledDownLabelPull ? labels.pulling ?? defaults.pulling : labels.idle ?? defaults.idle
        return PagerState {
            $0.instance = self.instance
            $0.tMs = now.milliseconds
            $0.page = self.page
            $0.pageCount = self.config.pageCount
            $0.headerOffset = min(max(self.scrollOffset, 0), self.config.barHeight)
            $0.progress = self.progress
            $0.label = label
            $0.loading = loading
            $0.pageOffset = self.pageOffset
            $0.pullOffset = pulled
            $0.scrollOffset = self.scrollOffset
            $0.progressOpacity = self.progressFadeEnd == nil ? nil : 0
        }
    }

    private func publish(_ now: SourceInstant) -> ComponentEffect {
        .publishState(.pager(self.snapshot(at: now)))
    }
}
