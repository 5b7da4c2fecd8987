import BusSchema

/// A table whose rows slide open: a right swipe on a row slides its front view by the row width
/// over 0.2 s and closes any other open row over 0.1 s; a left swipe on the open row closes it.
/// At most one row is open, kept by model index, so it stays open while the table scrolls.
///
/// A tap selects a row, as a table view does: the row under a finger that lands is highlighted
/// (pressed) until the finger lifts, and lifting on it selects it; a scroll or a swipe that
/// begins meanwhile, or a finger that slides off the row, takes the press back unselected.
public struct SlideTableMachine: Sendable {
    /// The most rows a scene may declare (each state lists every row's offset).
    public static let maximumRows = 10_000
    /// The source slides a row open over 0.2 s and the other open row shut over 0.1 s.
    public static let openDuration = Duration.milliseconds(200)
    public static let closeDuration = Duration.milliseconds(100)

    public struct Config: Sendable, Hashable {
        /// At least 0.
        public var rows: Int
        public var rowHeight: Double
        /// Row width: how far an open row's front view slides.
        public var rowWidth: Double
        /// Top of the table in scene points (rows are hit-tested from it).
        public var top = 0.0
        public var viewportHeight = 600.0
        public var openDuration = SlideTableMachine.openDuration
        public var closeDuration = SlideTableMachine.closeDuration
    }

    public enum Event: Sendable, Equatable {
        /// A swipe at scene `y`.
        case swipeRecognized(GestureEvent.Direction, y: Double, at: SourceInstant)
        case panBegan(at: SourceInstant)
        case panChanged(translationY: Double, at: SourceInstant)
        case panEnded(at: SourceInstant)
        case timeElapsed(SourceInstant)
        case appWillResignActive(at: SourceInstant)
        /// A finger landed at scene `y` (the view's touch-down recognizer began).
        case touchBegan(y: Double, at: SourceInstant)
        /// The finger moved to scene `y`.
        case touchMoved(y: Double, at: SourceInstant)
        /// The finger lifted at scene `y`.
        case touchLifted(y: Double, at: SourceInstant)
        /// The touch was taken by a scroll or swipe, or a second finger.
        case touchCancelled(at: SourceInstant)
    }

    private enum State: Sendable {
        case idle
        case scrolling(startOffset: Double)
    }

    public let instance: String
    public let config: Config
    private var state: State = .idle
    private var openRow: Int? {
        didSet {
            if let row = oldValue, self.restingOffsets.indices.contains(row) { self.restingOffsets[row] = 0 }
            if let row = self.openRow, self.restingOffsets.indices.contains(row) {
                self.restingOffsets[row] = self.config.rowWidth
            }
        }
    }
    /// Every row's offset while none slides: the open row's width, 0 for the rest. Kept up to date
    /// rather than rebuilt, since a state goes out with every pan event and then shares it.
    private var restingOffsets: [Double]
    private var scrollOffset = 0.0
    /// Running slide animations by row (at most two: one opening, one closing).
    private var slides: [Int: ComponentAnimation] = [:]
    /// The row under a finger that has not lifted yet (drawn light grey), by model index.
    private var pressedRow: Int?
    /// The selected row (drawn with the grey gradient), by model index.
    private var selectedRow: Int?

    public init(instance: String, config: Config) {
        var config = config
        config.rows = max(config.rows, 0)
        self.instance = instance
        self.config = config
        self.restingOffsets = [Double](repeating: 0, count: config.rows)
    }

    /// The table's vertical content offset (pull-to-refresh reads it: at the top, a pull shows the header).
    public var contentOffset: Double { self.scrollOffset }

    public mutating func handle(_ event: Event) -> [ComponentEffect] {
        switch (self.state, event) {
        case (_, .swipeRecognized(let direction, let y, let now)):
            // A swipe takes the touch: the press it began with is no tap.
            let unpressed = self.pressedRow != nil
            self.pressedRow = nil
            if let row = self.row(at: y) {
                if direction == .right, row != self.openRow { return self.open(row, now) }
                if direction == .left, row == self.openRow { return self.close(now) }
            }
            return unpressed ? [self.publish(now)] : []
        case (.idle, .panBegan(let now)):
            self.state = .scrolling(startOffset: self.scrollOffset)
            self.pressedRow = nil
            return [self.publish(now)]
        case (.idle, .touchBegan(let y, let now)):
            guard let row = self.row(at: y) else { return [] }
            self.pressedRow = row
            return [self.publish(now)]
        case (_, .touchMoved(let y, let now)):
            // Sliding off the row takes the press back (UITableView keeps it off, even on return).
            guard let pressed = self.pressedRow, self.row(at: y) != pressed else { return [] }
            self.pressedRow = nil
            return [self.publish(now)]
        case (_, .touchLifted(let y, let now)):
            guard let pressed = self.pressedRow else { return [] }
            self.pressedRow = nil
            if self.row(at: y) == pressed { self.selectedRow = pressed }
            return [self.publish(now)]
        case (_, .touchCancelled(let now)):
            guard self.pressedRow != nil else { return [] }
            self.pressedRow = nil
            return [self.publish(now)]
        case (.scrolling(let start), .panChanged(let translationY, let now)):
            let axis = ScrollAxis(
                minimum: 0, maximum: self.maxScroll, viewport: self.config.viewportHeight, position: start)
            self.scrollOffset = axis.dragged(to: start - translationY, bounces: true)
            return [self.publish(now)]
        case (.idle, .appWillResignActive(let now)) where self.pressedRow != nil:
            self.pressedRow = nil
            return [self.publish(now)]
        case (.scrolling, .panEnded(let now)), (.scrolling, .appWillResignActive(let now)):
            self.state = .idle
            self.scrollOffset = min(max(self.scrollOffset, 0), self.maxScroll)
            return [self.publish(now)]
        case (_, .timeElapsed(let now)):
            guard !self.slides.isEmpty else { return [] }
            self.slides = self.slides.filter { $0.value.end > now }
            return [self.publish(now)]
                + (self.nextSlideEnd.map { [.scheduleTimer(at: $0)] } ?? [])
        default:
            return []
        }
    }

    private var maxScroll: Double {
        max(0, Double(self.config.rows) * self.config.rowHeight - self.config.viewportHeight)
    }

    private var nextSlideEnd: SourceInstant? { self.slides.values.map(\.end).min() }

    /// The model index under scene `y`, if a row is there.
    private func row(at y: Double) -> Int? {
        guard self.config.rowHeight > 0 else { return nil }
        let position = (y - self.config.top + self.scrollOffset) / self.config.rowHeight
        guard position >= 0, position < Double(self.config.rows) else { return nil }
        return Int(saturating: position, .towardZero)
    }

    /// Every row's offset: a sliding row's value now, else its resting offset.
    private func offsets(at now: SourceInstant) -> [Double] {
        guard !self.slides.isEmpty else { return self.restingOffsets }
        var offsets = self.restingOffsets
        for (row, slide) in self.slides where offsets.indices.contains(row) { offsets[row] = slide.value(at: now) }
        return offsets
    }

    private func offset(of row: Int, at now: SourceInstant) -> Double {
        if let slide = self.slides[row] { return slide.value(at: now) }
        return row == self.openRow ? self.config.rowWidth : 0
    }

    private mutating func slide(_ row: Int, to target: Double, over duration: Duration, _ now: SourceInstant) {
        self.slides[row] = ComponentAnimation(
            from: self.offset(of: row, at: now), to: target, start: now, end: now + duration)
    }

    private mutating func open(_ row: Int, _ now: SourceInstant) -> [ComponentEffect] {
        let previous = self.openRow
        if let previous { self.slide(previous, to: 0, over: self.config.closeDuration, now) }
        self.slide(row, to: self.config.rowWidth, over: self.config.openDuration, now)
        self.openRow = row
        let started = self.started(now, over: self.config.openDuration, closing: previous)
        return [started, .scheduleTimer(at: self.nextSlideEnd ?? now)]
    }

    private mutating func close(_ now: SourceInstant) -> [ComponentEffect] {
        guard let row = self.openRow else { return [] }
        self.slide(row, to: 0, over: self.config.closeDuration, now)
        self.openRow = nil
        return [
            self.started(now, over: self.config.closeDuration),
            .scheduleTimer(at: self.nextSlideEnd ?? now),
        ]
    }

    /// The state that starts a slide, as a UIView block animation: the rows' targets and how
    /// long to take; a row `closing` as another opens carries its own, shorter duration.
    private func started(_ now: SourceInstant, over duration: Duration, closing: Int? = nil) -> ComponentEffect {
        var state = self.snapshot(at: now)
        for (row, slide) in self.slides where row < state.offsets.count { state.offsets[row] = slide.to }
        state.animation = StateAnimation {
            $0.durationMs = duration.milliseconds
        }
        if let closing {
            state.closingRow = closing
            state.closeAnimation = StateAnimation {
                $0.durationMs = self.config.closeDuration.milliseconds
            }
        }
        return .publishState(.slideTable(state))
    }

    /// The state as published.
    public func snapshot(at now: SourceInstant) -> SlideTableState {
        let opening = self.openRow.flatMap { self.slides[$0] != nil ? $0 : nil }
        return SlideTableState {
            $0.instance = self.instance
            $0.tMs = now.milliseconds
            $0.rows = self.config.rows
            $0.openRow = self.openRow
            $0.offsets = self.offsets(at: now)
            $0.scrollOffset = self.scrollOffset
            $0.animatingRow = .some(opening ?? self.slides.keys.min())
            $0.highlightedRow = self.pressedRow
            $0.selectedRow = self.selectedRow
        }
    }

    private func publish(_ now: SourceInstant) -> ComponentEffect {
        .publishState(.slideTable(self.snapshot(at: now)))
    }
}
