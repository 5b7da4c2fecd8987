import BusSchema

/// A zoomable image: pinch zooms between the minimum and maximum scale (the overlay hides while
/// zooming), a pan moves the zoomed image within its bounds, a double tap toggles between the
/// minimum scale and twice it.
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
            self.scale = min(max(start * scale, self.config.minScale), self.config.maxScale)
            self.clampOffset()
            return [self.publish(tMs)]
        case (.zooming, .pinchEnded(let tMs)), (.zooming, .appWillResignActive(let tMs)):
            self.state = .idle
            return [self.publish(tMs)]
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
            self.scale = self.config.minScale
            self.clampOffset()
            return [self.publish(tMs)]
        case (.idle, .doubleTapRecognized(let tMs)):
            self.scale =
                self.scale > self.config.minScale
                ? self.config.minScale : min(self.config.minScale * 2, self.config.maxScale)
            self.clampOffset()
            return [self.publish(tMs)]
        default:
            return []
        }
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
