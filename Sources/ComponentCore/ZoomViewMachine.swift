import BusSchema

/// A zoomable image: pinch zooms between the minimum and maximum scale (the overlay hides while
/// zooming), a pan moves the zoomed image within its bounds, a double tap toggles between the
/// minimum scale and twice it.
///
/// As UIScrollView with `bouncesZoom`, a pinch may go past the limits with growing resistance
/// and snaps back when released. Each snap (that one, a double tap, a reset) jumps the model to
/// the target and carries an `animation` for the render worker, as a UIView block animation.
public struct ZoomViewMachine: Sendable {
    public struct Config: Sendable, Hashable {
        public var minScale: Double
        public var maxScale: Double
        public var viewportWidth: Double
        public var viewportHeight: Double
        public var image: String?

        public init(
            minScale: Double = 1, maxScale: Double = 4, viewportWidth: Double, viewportHeight: Double,
            image: String? = nil
        ) {
            self.minScale = minScale
            self.maxScale = max(minScale, maxScale)
            self.viewportWidth = viewportWidth
            self.viewportHeight = viewportHeight
            self.image = image
        }
    }

    public enum Event: Sendable, Equatable {
        case pinchBegan(tMs: Double)
        case pinchChanged(scale: Double, tMs: Double)
        case pinchEnded(tMs: Double)
        case panBegan(tMs: Double)
        case panChanged(translation: GestureEvent.Vector, tMs: Double)
        case panEnded(tMs: Double)
        case doubleTapRecognized(tMs: Double)
        case appWillResignActive(tMs: Double)
        /// The `reset_zoom` command.
        case resetRequested(tMs: Double)
    }

    private enum State: Sendable {
        case idle
        case zooming(startScale: Double)
        case panning(startX: Double, startY: Double)
    }

    /// Zoom snaps take this long, as `setZoomScale(_:animated:)` (UIKit does not document it).
    public static let snapMs = 300.0
    /// How far past a limit a pinch can go at most, as a fraction of the limit.
    public static let bounceLimit = 0.25

    public let instance: String
    public let config: Config
    private var state: State = .idle
    private var scale: Double
    private var offsetX = 0.0
    private var offsetY = 0.0

    public init(instance: String, config: Config) {
        self.instance = instance
        self.config = config
        self.scale = config.minScale
    }

    /// The current zoom scale (a canvas on top maps its points back by it).
    public var zoomScale: Double { self.scale }

    public mutating func handle(_ event: Event) -> [ComponentEffect] {
        switch (self.state, event) {
        case (.idle, .pinchBegan(let tMs)), (.panning, .pinchBegan(let tMs)):
            self.state = .zooming(startScale: self.scale)
            return [self.publish(tMs)]
        case (.zooming(let start), .pinchChanged(let scale, let tMs)):
            self.scale = self.banded(start * scale)
            self.clampOffset()
            return [self.publish(tMs)]
        case (.zooming, .pinchEnded(let tMs)), (.zooming, .appWillResignActive(let tMs)):
            self.state = .idle
            return [self.snapped(to: min(max(self.scale, self.config.minScale), self.config.maxScale), tMs)]
        case (.idle, .panBegan):
            self.state = .panning(startX: self.offsetX, startY: self.offsetY)
            return []
        case (.panning(let startX, let startY), .panChanged(let translation, let tMs)):
            guard self.scale > self.config.minScale else { return [] }
            self.offsetX = startX - translation.x
            self.offsetY = startY - translation.y
            self.clampOffset()
            return [self.publish(tMs)]
        case (.panning, .panEnded), (.panning, .appWillResignActive):
            self.state = .idle
            return []
        case (_, .resetRequested(let tMs)):
            self.state = .idle
            return [self.snapped(to: self.config.minScale, tMs)]
        case (.idle, .doubleTapRecognized(let tMs)):
            let target =
                self.scale > self.config.minScale
                ? self.config.minScale : min(self.config.minScale * 2, self.config.maxScale)
            return [self.snapped(to: target, tMs)]
        default:
            return []
        }
    }

    /// A pinch's scale past the limits, with resistance (the scroll views' rubber band, on the
    /// ratio to the limit).
    private func banded(_ raw: Double) -> Double {
        let (low, high) = (self.config.minScale, self.config.maxScale)
        if raw > high { return high * (1 + ScrollAxis.rubberBand(raw / high - 1, dimension: Self.bounceLimit)) }
        if raw < low { return low / (1 + ScrollAxis.rubberBand(low / max(raw, 0) - 1, dimension: Self.bounceLimit)) }
        return raw
    }

    /// Zooms to `scale` and publishes the state, carrying the snap's animation when the scale
    /// or the offset moved.
    private mutating func snapped(to scale: Double, _ tMs: Double) -> ComponentEffect {
        let before = (self.scale, self.offsetX, self.offsetY)
        self.scale = scale
        self.clampOffset()
        var state = self.snapshot(tMs: tMs)
        if before != (self.scale, self.offsetX, self.offsetY) {
            state.animation = StateAnimation(durationMs: Self.snapMs)
        }
        return .publishState(.zoomView(state))
    }

    private mutating func clampOffset() {
        let maxX = max(0, self.config.viewportWidth * (self.scale - 1))
        let maxY = max(0, self.config.viewportHeight * (self.scale - 1))
        self.offsetX = min(max(self.offsetX, 0), maxX)
        self.offsetY = min(max(self.offsetY, 0), maxY)
    }

    /// The state as published.
    public func snapshot(tMs: Double) -> ZoomViewState {
        let zooming: Bool
        if case .zooming = self.state { zooming = true } else { zooming = false }
        return ZoomViewState(
            instance: self.instance, tMs: tMs, scale: self.scale, minScale: self.config.minScale,
            maxScale: self.config.maxScale, offsetX: self.offsetX, offsetY: self.offsetY, overlayVisible: !zooming,
            zooming: zooming, image: self.config.image)
    }

    private func publish(_ tMs: Double) -> ComponentEffect {
        .publishState(.zoomView(self.snapshot(tMs: tMs)))
    }
}
