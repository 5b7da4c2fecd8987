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
    public static let openMs = 200.0
    public static let closeMs = 100.0

    public struct Config: Sendable, Hashable {
        public var rows: Int
        public var rowHeight: Double
        /// Row width: how far an open row's front view slides.
        public var rowWidth: Double
        /// Top of the table in scene points (rows are hit-tested from it).
        public var top: Double
        public var viewportHeight: Double
        public var openDurationMs: Double
        public var closeDurationMs: Double

        public init(
            rows: Int, rowHeight: Double, rowWidth: Double, top: Double = 0, viewportHeight: Double = 600,
            openDurationMs: Double = SlideTableMachine.openMs, closeDurationMs: Double = SlideTableMachine.closeMs
        ) {
            self.rows = max(rows, 0)
            self.rowHeight = rowHeight
            self.rowWidth = rowWidth
            self.top = top
            self.viewportHeight = viewportHeight
            self.openDurationMs = openDurationMs
            self.closeDurationMs = closeDurationMs
        }
    }

    public enum Event: Sendable, Equatable {
        /// A swipe at scene `y`.
        case swipeRecognized(GestureEvent.Direction, y: Double, tMs: Double)
        case panBegan(tMs: Double)
        case panChanged(translationY: Double, tMs: Double)
        case panEnded(tMs: Double)
        case timeElapsed(Double)
        case appWillResignActive(tMs: Double)
        /// A finger landed at scene `y` (the view's touch-down recognizer began).
        case touchBegan(y: Double, tMs: Double)
        /// The finger moved to scene `y`.
        case touchMoved(y: Double, tMs: Double)
        /// The finger lifted at scene `y`.
        case touchLifted(y: Double, tMs: Double)
        /// The touch was taken by a scroll or swipe, or a second finger.
        case touchCancelled(tMs: Double)
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
        self.instance = instance
        self.config = config
        self.restingOffsets = [Double](repeating: 0, count: config.rows)
    }

    /// The table's vertical content offset (pull-to-refresh reads it: at the top, a pull shows the header).
    public var contentOffset: Double { self.scrollOffset }

    public mutating func handle(_ event: Event) -> [ComponentEffect] {
        switch (self.state, event) {
        case (_, .swipeRecognized(let direction, let y, let tMs)):
            // A swipe takes the touch: the press it began with is no tap.
            let unpressed = self.pressedRow != nil
            self.pressedRow = nil
            if let row = self.row(at: y) {
                if direction == .right, row != self.openRow { return self.open(row, tMs) }
                if direction == .left, row == self.openRow { return self.close(tMs) }
            }
            return unpressed ? [self.publish(tMs)] : []
        case (.idle, .panBegan(let tMs)):
            self.state = .scrolling(startOffset: self.scrollOffset)
            self.pressedRow = nil
            return [self.publish(tMs)]
        case (.idle, .touchBegan(let y, let tMs)):
            guard let row = self.row(at: y) else { return [] }
            self.pressedRow = row
            return [self.publish(tMs)]
        case (_, .touchMoved(let y, let tMs)):
            // Sliding off the row takes the press back (UITableView keeps it off, even on return).
            guard let pressed = self.pressedRow, self.row(at: y) != pressed else { return [] }
            self.pressedRow = nil
            return [self.publish(tMs)]
        case (_, .touchLifted(let y, let tMs)):
            guard let pressed = self.pressedRow else { return [] }
            self.pressedRow = nil
            if self.row(at: y) == pressed { self.selectedRow = pressed }
            return [self.publish(tMs)]
        case (_, .touchCancelled(let tMs)):
            guard self.pressedRow != nil else { return [] }
            self.pressedRow = nil
            return [self.publish(tMs)]
        case (.scrolling(let start), .panChanged(let translationY, let tMs)):
            let axis = ScrollAxis(
                minimum: 0, maximum: self.maxScroll, viewport: self.config.viewportHeight, position: start)
            self.scrollOffset = axis.dragged(to: start - translationY, bounces: true)
            return [self.publish(tMs)]
        case (.idle, .appWillResignActive(let tMs)) where self.pressedRow != nil:
            self.pressedRow = nil
            return [self.publish(tMs)]
        case (.scrolling, .panEnded(let tMs)), (.scrolling, .appWillResignActive(let tMs)):
            self.state = .idle
            self.scrollOffset = min(max(self.scrollOffset, 0), self.maxScroll)
            return [self.publish(tMs)]
        case (_, .timeElapsed(let tMs)):
            guard !self.slides.isEmpty else { return [] }
            self.slides = self.slides.filter { $0.value.endMs > tMs }
            return [self.publish(tMs)]
                + (self.nextSlideEnd.map { [.scheduleTimer(at: SourceInstant(milliseconds: $0))] } ?? [])
        default:
            return []
        }
    }

    private var maxScroll: Double {
        max(0, Double(self.config.rows) * self.config.rowHeight - self.config.viewportHeight)
    }

    private var nextSlideEnd: Double? { self.slides.values.map(\.endMs).min() }

    /// The model index under scene `y`, if a row is there.
    private func row(at y: Double) -> Int? {
        guard self.config.rowHeight > 0 else { return nil }
        let position = (y - self.config.top + self.scrollOffset) / self.config.rowHeight
        guard position >= 0, position < Double(self.config.rows) else { return nil }
        return Int(saturating: position, .towardZero)
    }

    /// Every row's offset: a sliding row's value now, else its resting offset.
    private func offsets(at tMs: Double) -> [Double] {
        guard !self.slides.isEmpty else { return self.restingOffsets }
        var offsets = self.restingOffsets
        for (row, slide) in self.slides where offsets.indices.contains(row) { offsets[row] = slide.value(at: tMs) }
        return offsets
    }

    private func offset(of row: Int, at tMs: Double) -> Double {
        if let slide = self.slides[row] { return slide.value(at: tMs) }
        return row == self.openRow ? self.config.rowWidth : 0
    }

    private mutating func slide(_ row: Int, to target: Double, durationMs: Double, _ tMs: Double) {
        self.slides[row] = ComponentAnimation(
            property: "offset", target: "row \(row)", from: self.offset(of: row, at: tMs), to: target, startMs: tMs,
            durationMs: durationMs)
    }

    private mutating func open(_ row: Int, _ tMs: Double) -> [ComponentEffect] {
        let previous = self.openRow
        if let previous { self.slide(previous, to: 0, durationMs: self.config.closeDurationMs, tMs) }
        self.slide(row, to: self.config.rowWidth, durationMs: self.config.openDurationMs, tMs)
        self.openRow = row
        let started = self.started(tMs, durationMs: self.config.openDurationMs, closing: previous)
        return [started, .scheduleTimer(at: SourceInstant(milliseconds: self.nextSlideEnd ?? tMs))]
    }

    private mutating func close(_ tMs: Double) -> [ComponentEffect] {
        guard let row = self.openRow else { return [] }
        self.slide(row, to: 0, durationMs: self.config.closeDurationMs, tMs)
        self.openRow = nil
        return [
            self.started(tMs, durationMs: self.config.closeDurationMs),
            .scheduleTimer(at: SourceInstant(milliseconds: self.nextSlideEnd ?? tMs)),
        ]
    }

    /// The state that starts a slide, as a UIView block animation: the rows' targets and how
    /// long to take; a row `closing` as another opens carries its own, shorter duration.
    private func started(_ tMs: Double, durationMs: Double, closing: Int? = nil) -> ComponentEffect {
        var state = self.snapshot(tMs: tMs)
        for (row, slide) in self.slides where row < state.offsets.count { state.offsets[row] = slide.to }
        state.animation = StateAnimation(durationMs: durationMs)
        if let closing {
            state.closingRow = closing
            state.closeAnimation = StateAnimation(durationMs: self.config.closeDurationMs)
        }
        return .publishState(.slideTable(state))
    }

    /// The state as published.
    public func snapshot(tMs: Double) -> SlideTableState {
        let opening = self.openRow.flatMap { self.slides[$0] != nil ? $0 : nil }
        return SlideTableState(
            instance: self.instance, tMs: tMs, rows: self.config.rows, openRow: self.openRow,
            offsets: self.offsets(at: tMs), scrollOffset: self.scrollOffset,
            animatingRow: .some(opening ?? self.slides.keys.min()), highlightedRow: self.pressedRow,
            selectedRow: self.selectedRow)
    }

    private func publish(_ tMs: Double) -> ComponentEffect {
        .publishState(.slideTable(self.snapshot(tMs: tMs)))
    }
}
