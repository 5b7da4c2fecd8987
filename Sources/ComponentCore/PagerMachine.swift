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
    /// The pull label's three stages (the title, then past 70 pt and past the threshold) and
    /// the loading text.
    public struct Labels: Sendable, Hashable {
        public var idle: String
        public var pulling: String
        public var release: String
        public var loading: String

        public init(
            idle: String = "Sample", pulling: String = "引き下げて更新", release: String = "はなして更新",
            loading: String = "更新中"
        ) {
            self.idle = idle
            self.pulling = pulling
            self.release = release
            self.loading = loading
        }
    }

    /// The pull past which the label asks to pull on (the source's PulledDownTextInterval).
    public static let pulledDownLabelPull = 70.0
    /// A UINavigationBar's height: how far the source's menu moves up.
    public static let navigationBarHeight = 44.0

    public struct Config: Sendable, Hashable {
        public var pageCount: Int
        public var pageWidth: Double
        /// How far the menu can move up: the navigation bar's height.
        public var barHeight: Double
        public var pullThreshold: Double
        /// Height of one page's content, for the scroll bounds.
        public var contentHeight: Double
        public var viewportHeight: Double
        /// A load's progress reaches 100 % after this long unless `refresh_done` comes first.
        public var loadDurationMs: Double
        public var labels: Labels

        public init(
            pageCount: Int, pageWidth: Double, barHeight: Double = PagerMachine.navigationBarHeight,
            pullThreshold: Double = 120,
            contentHeight: Double = 2000, viewportHeight: Double = 500, loadDurationMs: Double = 2000,
            labels: Labels = Labels()
        ) {
            self.pageCount = max(pageCount, 1)
            self.pageWidth = pageWidth
            self.barHeight = barHeight
            self.pullThreshold = pullThreshold
            self.contentHeight = contentHeight
            self.viewportHeight = viewportHeight
            self.loadDurationMs = loadDurationMs
            self.labels = labels
        }
    }

    public enum Event: Sendable, Equatable {
        case panBegan(tMs: Double)
        case panChanged(translation: GestureEvent.Vector, tMs: Double)
        case panEnded(translation: GestureEvent.Vector, velocity: GestureEvent.Vector, tMs: Double)
        case panCancelled(tMs: Double)
        case swipeRecognized(GestureEvent.Direction, tMs: Double)
        case pageRequested(Int, tMs: Double)
        case refreshDone(tMs: Double)
        case timeElapsed(Double)
        case appWillResignActive(tMs: Double)
        case appDidBecomeActive(tMs: Double)
    }

    private enum State: Sendable {
        case idle
        /// A pan began; its axis is not decided yet.
        case panning(startPage: Int, startScroll: Double)
        case paging(startPage: Int)
        case scrolling(startScroll: Double)
        case loading(startMs: Double)
        /// The app resigned active during a load: progress holds until it is active again.
        case loadingPaused(elapsedMs: Double)
    }

    /// Progress ticks every this many ms while loading.
    public static let progressTickMs = 100.0
    /// A finished load's full progress bar fades out over this long, then resets to zero width
    /// (the source's 0.3 s alpha animation and its completion).
    public static let progressFadeMs = 300.0
    /// Release speed that flips to the next page, points per second.
    public static let pageFlipSpeed = 300.0
    /// Page and header snaps take this long, as a paging scroll view settling or
    /// `setContentOffset(_:animated:)` (UIKit does not document the length).
    public static let snapMs = 300.0

    public let instance: String
    public let config: Config
    private var state: State = .idle
    private var page = 0
    private var pageOffset = 0.0
    /// Vertical scroll of each page visited (the current page's drives the header).
    private var scrollOffsets: [Int: Double] = [:]
    private var progress = 0.0
    /// When the finished load's fading bar resets, while it fades.
    private var progressFadeEndMs: Double?
    /// The page a gesture started on and when it ended: a swipe and a pan of one gesture flip once.
    private var lastGesture: (startPage: Int, endMs: Double)?

    public init(instance: String, config: Config) {
        self.instance = instance
        self.config = config
    }

    public mutating func handle(_ event: Event) -> [ComponentEffect] {
        switch (self.state, event) {
        case (.idle, .panBegan(let tMs)):
            self.state = .panning(startPage: self.page, startScroll: self.scrollOffset)
            return [self.publish(tMs)]
        case (.panning(let startPage, let startScroll), .panChanged(let translation, let tMs)):
            self.state =
                abs(translation.x) > abs(translation.y)
                ? .paging(startPage: startPage) : .scrolling(startScroll: startScroll)
            return self.handle(.panChanged(translation: translation, tMs: tMs))
        case (.paging(let startPage), .panChanged(let translation, let tMs)):
            let raw = Double(startPage) - translation.x / max(self.config.pageWidth, 1)
            self.pageOffset = min(max(raw, 0), Double(self.config.pageCount - 1))
            return [self.publish(tMs)]
        case (.scrolling(let startScroll), .panChanged(let translation, let tMs)):
            self.scrollOffset = self.scrolled(startScroll - translation.y)
            return [self.publish(tMs)]
        case (.paging(let startPage), .panEnded(let translation, let velocity, let tMs)):
            var target = Int(saturating: Double(startPage) - translation.x / max(self.config.pageWidth, 1))
            if abs(velocity.x) >= Self.pageFlipSpeed { target = startPage + (velocity.x < 0 ? 1 : -1) }
            return self.settle(on: target, startPage: startPage, tMs)
        case (.scrolling, .panEnded(_, _, let tMs)):
            let loads = -self.scrollOffset >= self.config.pullThreshold
            self.state = loads ? .loading(startMs: tMs) : .idle
            if loads {
                self.progress = 0
                self.progressFadeEndMs = nil
            }
            let released = self.snapped(tMs) {
                $0.scrollOffset = $0.headerSnapped(min(max($0.scrollOffset, 0), $0.maxScroll))
            }
            return loads
                ? [released, .scheduleTimer(at: SourceInstant(milliseconds: tMs + Self.progressTickMs))] : [released]
        case (.panning, .panEnded(_, _, let tMs)), (.panning, .panCancelled(let tMs)),
            (.paging, .panCancelled(let tMs)), (.scrolling, .panCancelled(let tMs)),
            (.panning, .appWillResignActive(let tMs)), (.paging, .appWillResignActive(let tMs)),
            (.scrolling, .appWillResignActive(let tMs)):
            self.state = .idle
            return [
                self.snapped(tMs) {
                    $0.pageOffset = Double($0.page)
                    $0.scrollOffset = $0.headerSnapped(min(max($0.scrollOffset, 0), $0.maxScroll))
                }
            ]
        case (.idle, .swipeRecognized(let direction, let tMs)), (.paging, .swipeRecognized(let direction, let tMs)),
            (.panning, .swipeRecognized(let direction, let tMs)):
            guard direction == .left || direction == .right else { return [] }
            let startPage: Int
            if case .paging(let start) = self.state {
                startPage = start
            } else if case .panning(let start, _) = self.state {
                startPage = start
            } else if let last = self.lastGesture, last.endMs == tMs {
                startPage = last.startPage
            } else {
                startPage = self.page
            }
            return self.settle(on: startPage + (direction == .left ? 1 : -1), startPage: startPage, tMs)
        case (.idle, .pageRequested(let page, let tMs)):
            return self.settle(on: page, startPage: page, tMs)
        case (.loading(let startMs), .timeElapsed(let tMs)):
            self.progress = min(100, (tMs - startMs) / self.config.loadDurationMs * 100)
            if self.progress >= 100 { return self.finishLoading(tMs) }
            return [self.publish(tMs), .scheduleTimer(at: SourceInstant(milliseconds: tMs + Self.progressTickMs))]
        case (.loading, .refreshDone(let tMs)), (.loadingPaused, .refreshDone(let tMs)):
            return [.cancelTimer] + self.finishLoading(tMs)
        case (_, .timeElapsed(let tMs)) where self.progressFadeEndMs.map { tMs >= $0 } ?? false:
            self.progress = 0
            self.progressFadeEndMs = nil
            return [self.publish(tMs)]
        case (.loading(let startMs), .appWillResignActive(let tMs)):
            self.state = .loadingPaused(elapsedMs: tMs - startMs)
            return [.cancelTimer]
        case (.loadingPaused(let elapsed), .appDidBecomeActive(let tMs)):
            self.state = .loading(startMs: tMs - elapsed)
            return [.scheduleTimer(at: SourceInstant(milliseconds: tMs + Self.progressTickMs))]
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

    private mutating func settle(on target: Int, startPage: Int, _ tMs: Double) -> [ComponentEffect] {
        if case .paging = self.state { self.state = .idle }
        if case .panning = self.state { self.state = .idle }
        self.lastGesture = (startPage, tMs)
        return [
            self.snapped(tMs) {
                $0.page = min(max(target, 0), $0.config.pageCount - 1)
                $0.pageOffset = Double($0.page)
            }
        ]
    }

    /// Applies `jump` and publishes the state, carrying the snap's animation when what is
    /// drawn (the page or scroll offset, so the header) moved: the model is at the target at
    /// once, the render worker animates there from what is on screen.
    private mutating func snapped(_ tMs: Double, _ jump: (inout PagerMachine) -> Void) -> ComponentEffect {
        let before = (self.pageOffset, self.page, self.scrollOffset)
        jump(&self)
        var state = self.snapshot(tMs: tMs)
        if before != (self.pageOffset, self.page, self.scrollOffset) {
            state.animation = StateAnimation(durationMs: Self.snapMs)
        }
        return .publishState(.pager(state))
    }

    /// Ends a load: the bar, full, fades out over ``progressFadeMs`` (an animated state), then a
    /// timer resets it to zero width.
    private mutating func finishLoading(_ tMs: Double) -> [ComponentEffect] {
        self.state = .idle
        self.progress = 100
        self.progressFadeEndMs = tMs + Self.progressFadeMs
        var state = self.snapshot(tMs: tMs)
        state.animation = StateAnimation(durationMs: Self.progressFadeMs)
        return [
            .publishState(.pager(state)), .scheduleTimer(at: SourceInstant(milliseconds: tMs + Self.progressFadeMs)),
        ]
    }

    /// The state as published.
    public func snapshot(tMs: Double) -> PagerState {
        let pulled = max(0, -self.scrollOffset)
        let loading: Bool
        switch self.state {
        case .loading, .loadingPaused: loading = true
        default: loading = false
        }
        let labels = self.config.labels
        let label =
            loading
            ? labels.loading
            : pulled >= self.config.pullThreshold
                ? labels.release : pulled >= Self.pulledDownLabelPull ? labels.pulling : labels.idle
        return PagerState(
            instance: self.instance, tMs: tMs, page: self.page, pageCount: self.config.pageCount,
            headerOffset: min(max(self.scrollOffset, 0), self.config.barHeight), progress: self.progress,
            label: label, loading: loading, pageOffset: self.pageOffset, pullOffset: pulled,
            scrollOffset: self.scrollOffset, progressOpacity: self.progressFadeEndMs == nil ? nil : 0)
    }

    private func publish(_ tMs: Double) -> ComponentEffect {
        .publishState(.pager(self.snapshot(tMs: tMs)))
    }
}
