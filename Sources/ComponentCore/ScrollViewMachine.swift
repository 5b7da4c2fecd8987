import BusSchema

/// A scroll view: drag with rubber-banding, deceleration after release, optional paging, and
/// pinch zoom between a minimum and a maximum scale. Overlays hide while dragging or zooming.
///
/// Time is an input: while the content moves on its own the machine asks for a timer every
/// frame (60 Hz) and advances its physics when ``Event/timeElapsed(_:)`` arrives.
public struct ScrollViewMachine: Sendable {
    /// Settings from the scene.
    public struct Config: Sendable, Hashable {
        public var viewportWidth: Double
        public var viewportHeight: Double
        public var contentWidth: Double
        public var contentHeight: Double
        public var insets = ScrollViewState.Insets()
        public var paging = false
        public var bounces = true
        /// Velocity kept per ms after release (UIKit normal 0.998), kept within 0.5 … 0.9999.
        public var decelerationRate = 0.998
        public var minScale = 1.0
        /// At least `minScale`.
        public var maxScale = 1.0
    }

    public enum Event: Sendable, Equatable {
        case panBegan(at: SourceInstant)
        /// Translation since the pan began, in points.
        case panChanged(translation: GestureEvent.Vector, at: SourceInstant)
        /// Finger velocity at lift, in points per second.
        case panEnded(velocity: GestureEvent.Vector, at: SourceInstant)
        case panCancelled(at: SourceInstant)
        case pinchBegan(at: SourceInstant)
        /// Scale since the pinch began.
        case pinchChanged(scale: Double, at: SourceInstant)
        case pinchEnded(at: SourceInstant)
        case timeElapsed(SourceInstant)
        case appWillResignActive(at: SourceInstant)
        /// The `reset_zoom` command: back to the smallest scale.
        case zoomResetRequested(at: SourceInstant)
    }

    private enum State: Sendable {
        case resting
        case dragging(startX: Double, startY: Double, startPageX: Int, startPageY: Int)
        case decelerating(last: SourceInstant)
        case zooming(startScale: Double)
    }

    /// One frame at 60 Hz.
    public static let frame = Duration.seconds(1) / 60
    /// Release speed (points per second) that flips to the next page.
    public static let pageFlipSpeed = 300.0

    public let instance: String
    public let config: Config
    private var state: State = .resting
    private var x: ScrollAxis
    private var y: ScrollAxis
    private var zoomScale = 1.0

    public init(instance: String, config: Config) {
        var config = config
        config.decelerationRate = min(max(config.decelerationRate, 0.5), 0.9999)
        config.maxScale = max(config.minScale, config.maxScale)
        self.instance = instance
        self.config = config
        self.x = ScrollAxis(minimum: 0, maximum: 0, viewport: config.viewportWidth, position: -config.insets.left)
        self.y = ScrollAxis(minimum: 0, maximum: 0, viewport: config.viewportHeight, position: -config.insets.top)
        self.zoomScale = min(max(1, config.minScale), config.maxScale)
        self.updateBounds()
    }

    /// The current offset in points.
    public var offset: GestureEvent.Vector { GestureEvent.Vector(x: self.x.position, y: self.y.position) }

    public mutating func handle(_ event: Event) -> [ComponentEffect] {
        switch (self.state, event) {
        case (.resting, .panBegan(let now)), (.decelerating, .panBegan(let now)):
            self.x.stop()
            self.y.stop()
            self.state = .dragging(
                startX: self.x.position, startY: self.y.position, startPageX: self.page(self.x),
                startPageY: self.page(self.y))
            return [.cancelTimer, self.publish(now)]
        case (.dragging(let startX, let startY, _, _), .panChanged(let translation, let now)):
            self.x.position = self.x.dragged(to: startX - translation.x, bounces: self.config.bounces)
            self.y.position = self.y.dragged(to: startY - translation.y, bounces: self.config.bounces)
            return [self.publish(now)]
        case (.dragging(_, _, let pageX, let pageY), .panEnded(let velocity, let now)):
            self.x.velocity = -velocity.x / 1000
            self.y.velocity = -velocity.y / 1000
            if self.config.paging {
                self.x.spring(to: self.pageTarget(self.x, startPage: pageX, speed: velocity.x))
                self.y.spring(to: self.pageTarget(self.y, startPage: pageY, speed: velocity.y))
            }
            return self.startMoving(now)
        case (.dragging, .panCancelled(let now)), (.dragging, .appWillResignActive(let now)):
            self.x.velocity = 0
            self.y.velocity = 0
            return self.startMoving(now)
        case (.decelerating(let last), .timeElapsed(let now)):
            // ScrollAxis runs in ms; the instants' own ms keep the arithmetic of the inputs' times.
            let elapsedMs = now.milliseconds - last.milliseconds
            self.x.advance(by: elapsedMs, rate: self.config.decelerationRate, bounces: self.config.bounces)
            self.y.advance(by: elapsedMs, rate: self.config.decelerationRate, bounces: self.config.bounces)
            return self.startMoving(now)
        case (.resting, .pinchBegan(let now)), (.decelerating, .pinchBegan(let now)),
            (.dragging, .pinchBegan(let now)):
            guard self.config.maxScale > self.config.minScale else { return [] }
            self.x.stop()
            self.y.stop()
            self.state = .zooming(startScale: self.zoomScale)
            return [.cancelTimer, self.publish(now)]
        case (.zooming(let startScale), .pinchChanged(let scale, let now)):
            self.zoomScale = self.softClampedScale(startScale * scale)
            self.updateBounds()
            return [self.publish(now)]
        case (.zooming, .pinchEnded(let now)), (.zooming, .appWillResignActive(let now)):
            self.zoomScale = min(max(self.zoomScale, self.config.minScale), self.config.maxScale)
            self.updateBounds()
            return self.startMoving(now)
        case (.resting, .zoomResetRequested(let now)), (.decelerating, .zoomResetRequested(let now)):
            self.zoomScale = self.config.minScale
            self.updateBounds()
            return self.startMoving(now)
        default:
            return []
        }
    }

    /// Moves on (decelerating or springing) until both axes rest, then rests.
    private mutating func startMoving(_ now: SourceInstant) -> [ComponentEffect] {
        if self.x.isResting, self.y.isResting {
            self.state = .resting
            return [self.publish(now)]
        }
        self.state = .decelerating(last: now)
        return [self.publish(now), .scheduleTimer(at: Self.nextFrame(after: now))]
    }

    /// ``frame`` in nanoseconds: reading a `Duration` costs a 128-bit division, so once, not
    /// every frame.
    private static let frameNanoseconds = Self.frame.nanoseconds

    /// The frame after `instant`, to the nearest microsecond: frame times then print in ms
    /// without float residue.
    private static func nextFrame(after instant: SourceInstant) -> SourceInstant {
        let (next, overflow) = instant.nanoseconds.addingReportingOverflow(Self.frameNanoseconds)
        guard !overflow, next < .max - 1000 else { return SourceInstant(nanoseconds: .max) }
        let (whole, rest) = next.quotientAndRemainder(dividingBy: 1000)
        return SourceInstant(nanoseconds: whole * 1000 + (rest >= 500 ? 1000 : rest <= -500 ? -1000 : 0))
    }

    /// Past the bounds a pinch meets resistance: a tenth of the excess ratio.
    private func softClampedScale(_ scale: Double) -> Double {
        if scale > self.config.maxScale { return self.config.maxScale * (1 + (scale / self.config.maxScale - 1) / 10) }
        if scale < self.config.minScale { return self.config.minScale * (1 - (1 - scale / self.config.minScale) / 10) }
        return scale
    }

    private mutating func updateBounds() {
        let insets = self.config.insets
        self.x.minimum = -insets.left
        self.x.maximum = max(
            -insets.left, self.config.contentWidth * self.zoomScale + insets.right - self.config.viewportWidth)
        self.y.minimum = -insets.top
        self.y.maximum = max(
            -insets.top, self.config.contentHeight * self.zoomScale + insets.bottom - self.config.viewportHeight)
    }

    private func page(_ axis: ScrollAxis) -> Int {
        guard axis.viewport > 0 else { return 0 }
        return Int(saturating: axis.position / axis.viewport)
    }

    private func pageTarget(_ axis: ScrollAxis, startPage: Int, speed: Double) -> Double {
        let lastPage = Int(saturating: axis.maximum / max(axis.viewport, 1), .up)
        var page = self.page(axis)
        if abs(speed) >= Self.pageFlipSpeed { page = startPage + (speed < 0 ? 1 : -1) }
        page = min(max(page, 0), lastPage)
        return min(Double(page) * axis.viewport, axis.maximum)
    }

    private var isDragging: Bool {
        if case .dragging = self.state { return true }
        return false
    }

    private var isZooming: Bool {
        if case .zooming = self.state { return true }
        return false
    }

    /// The state as published.
    public func snapshot(at now: SourceInstant) -> ScrollViewState {
        let moving: Bool
        if case .decelerating = self.state { moving = true } else { moving = false }
        let pagingAxis = self.config.contentWidth > self.config.viewportWidth ? self.x : self.y
        return ScrollViewState {
            $0.instance = self.instance
            $0.tMs = now.milliseconds
            $0.offsetX = self.x.position
            $0.offsetY = self.y.position
            $0.contentWidth = self.config.contentWidth
            $0.contentHeight = self.config.contentHeight
            $0.insets = self.config.insets
            $0.zoomScale = self.zoomScale
            $0.dragging = self.isDragging
            $0.decelerating = moving
            $0.zooming = self.isZooming
            $0.overlaysVisible = !self.isDragging && !self.isZooming
            // A spring released far from its rest can outrun any finger: clamp to the schema's range.
            $0.velocity =
                moving
                ? GestureEvent.Vector(
                    x: NumberRange.motion.clamp(self.x.velocity * 1000),
                    y: NumberRange.motion.clamp(self.y.velocity * 1000))
                : nil
            $0.page = self.config.paging ? self.page(pagingAxis) : nil
        }
    }

    private func publish(_ now: SourceInstant) -> ComponentEffect {
        .publishState(.scrollView(self.snapshot(at: now)))
    }
}
