import BusSchema

/// A drawing canvas: a stroke starts on the touch-down recognizer (ink the instant the finger
/// lands), follows the finger and ends on lift; a second finger cancels it. Points are kept in
/// canvas coordinates, the unzoomed content's: as the source's recognizer maps a location in the
/// scroll view (content coordinates, so the content offset counts) by bounds ÷ content size, a
/// view-local point plus the content offset of the zoom view it follows, divided by its scale.
public struct CanvasMachine: Sendable {
    public struct Config: Sendable, Hashable {
        public var strokeWidth = 4.0
        public var strokeColor = "#000000"
        /// The view's origin in scene points.
        public var originX = 0.0
        public var originY = 0.0
    }

    public enum Event: Sendable, Equatable {
        case touchBegan(x: Double, y: Double, at: SourceInstant)
        case touchMoved(x: Double, y: Double, at: SourceInstant)
        case touchLifted(x: Double, y: Double, at: SourceInstant)
        /// A second finger landed, or the app resigned active.
        case touchCancelled(at: SourceInstant)
        /// The zoom view it follows published its scale and content offset.
        case zoomChanged(scale: Double, offsetX: Double, offsetY: Double, at: SourceInstant)
        /// The `clear` command: every stroke goes.
        case clearRequested(at: SourceInstant)
    }

    private enum State: Sendable {
        case idle
        case drawing
    }

    public let instance: String
    public let config: Config
    private var state: State = .idle
    private var strokes: [CanvasState.Stroke] = []
    private var nextID = 1
    private var zoomScale = 1.0
    /// The followed zoom view's content offset, in zoomed points.
    private var zoomOffset = (x: 0.0, y: 0.0)

    public init(instance: String, config: Config) {
        self.instance = instance
        self.config = config
    }

    public mutating func handle(_ event: Event) -> [ComponentEffect] {
        switch (self.state, event) {
        case (.idle, .touchBegan(let x, let y, let now)):
            guard let point = self.point(x, y) else { return [] }
            self.state = .drawing
            self.strokes.append(
                CanvasState.Stroke {
                    $0.id = self.nextID
                    $0.points = [point]
                    $0.width = self.config.strokeWidth
                    $0.color = self.config.strokeColor
                })
            self.nextID += 1
            return [self.publish(now)]
        case (.drawing, .touchMoved(let x, let y, let now)):
            guard let point = self.point(x, y) else { return [] }
            self.strokes[self.strokes.count - 1].points.append(point)
            return [self.publish(now)]
        case (.drawing, .touchLifted(let x, let y, let now)):
            if let point = self.point(x, y), self.strokes[self.strokes.count - 1].points.last != point {
                self.strokes[self.strokes.count - 1].points.append(point)
            }
            self.state = .idle
            return [self.publish(now)]
        case (.drawing, .touchCancelled(let now)):
            self.strokes.removeLast()
            self.state = .idle
            return [self.publish(now)]
        case (_, .clearRequested(let now)):
            self.strokes = []
            self.state = .idle
            return [self.publish(now)]
        case (_, .zoomChanged(let scale, let offsetX, let offsetY, _)):
            guard scale > 0, scale.isFinite, offsetX.isFinite, offsetY.isFinite else { return [] }
            self.zoomScale = scale
            self.zoomOffset = (offsetX, offsetY)
            return []
        default:
            return []
        }
    }

    /// The canvas point for scene `x`, `y`; nil if it is not finite or lies outside the
    /// coordinate range (a tiny zoom scale): such a point is dropped, since one stored point
    /// would make every later frame of the stroke undrawable.
    private func point(_ x: Double, _ y: Double) -> GestureEvent.Vector? {
        let point = GestureEvent.Vector(
            x: (x - self.config.originX + self.zoomOffset.x) / self.zoomScale,
            y: (y - self.config.originY + self.zoomOffset.y) / self.zoomScale)
        guard NumberRange.coordinate.contains(point.x), NumberRange.coordinate.contains(point.y) else { return nil }
        return point
    }

    /// The state as published.
    public func snapshot(at now: SourceInstant) -> CanvasState {
        CanvasState {
            $0.instance = self.instance
            $0.tMs = now.milliseconds
            $0.strokes = self.strokes
            $0.active = .some(self.state == .drawing ? self.strokes.last?.id : nil)
            $0.zoomScale = self.zoomScale
        }
    }

    private func publish(_ now: SourceInstant) -> ComponentEffect {
        .publishState(.canvas(self.snapshot(at: now)))
    }
}
