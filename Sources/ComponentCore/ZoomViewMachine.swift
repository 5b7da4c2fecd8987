import BusSchema

/// A zoomable image: pinch zooms between the minimum and maximum scale, a pan moves the zoomed
/// image within its bounds, a double tap toggles between the minimum scale and twice it. The
/// overlay hides while zooming and while dragging, as the source's scroll view delegate hides it
/// from `scrollViewWillBeginZooming` / `WillBeginDragging` to `DidEndZooming` / `WillEndDragging`
/// (a pan drags only a zoomed-in image: at the minimum scale there is nothing to scroll).
///
/// As UIScrollView, a pinch zooms about its fingers: the image point that was under their
/// centroid when the pinch began stays under it as they spread and move. With `bouncesZoom` a
/// pinch may go past the limits with growing resistance and snaps back when released, about the
/// fingers' last centroid. A double tap zooms in centred on the tapped point, as the zoom-to-rect
/// recipe of Apple's scroll view samples. Each snap (those, a reset) jumps the model to the target
/// and carries an `animation` for the render worker, as a UIView block animation.
public struct ZoomViewMachine: Sendable {
    public struct Config: Sendable, Hashable {
        public var minScale = 1.0
        /// At least `minScale`.
        public var maxScale = 4.0
        public var viewportWidth: Double
        public var viewportHeight: Double
        public var image: String? = nil
        /// The view's top-left corner in scene coordinates, where gesture locations are given.
        public var originX = 0.0
        public var originY = 0.0
    }

    public enum Event: Sendable, Equatable {
        /// A pinch began with its fingers' centroid at (`x`, `y`), in scene coordinates.
        case pinchBegan(x: Double, y: Double, at: SourceInstant)
        case pinchChanged(scale: Double, x: Double, y: Double, at: SourceInstant)
        case pinchEnded(at: SourceInstant)
        case panBegan(at: SourceInstant)
        case panChanged(translation: GestureEvent.Vector, at: SourceInstant)
        case panEnded(at: SourceInstant)
        case doubleTapRecognized(x: Double, y: Double, at: SourceInstant)
        case appWillResignActive(at: SourceInstant)
        /// The `reset_zoom` command.
        case resetRequested(at: SourceInstant)
    }

    private enum State: Sendable {
        case idle
        /// `anchor`: the image point under the pinch's first centroid, in unzoomed image coordinates.
        case zooming(startScale: Double, anchorX: Double, anchorY: Double)
        case panning(startX: Double, startY: Double)
    }

    /// Zoom snaps take this long, as `setZoomScale(_:animated:)` (UIKit does not document it).
    public static let snap = Duration.milliseconds(300)
    /// How far past a limit a pinch can go at most, as a fraction of the limit.
    public static let bounceLimit = 0.25

    public let instance: String
    public let config: Config
    private var state: State = .idle
    private var scale: Double
    private var offsetX = 0.0
    private var offsetY = 0.0
    /// The last pinch centroid, in view coordinates: a pinch's snap-back happens about it.
    private var focus = (x: 0.0, y: 0.0)

    public init(instance: String, config: Config) {
        var config = config
        config.maxScale = max(config.minScale, config.maxScale)
        self.instance = instance
        self.config = config
        self.scale = config.minScale
    }

    /// The current zoom scale (a canvas on top maps its points back by it).
    public var zoomScale: Double { self.scale }

    public mutating func handle(_ event: Event) -> [ComponentEffect] {
        switch (self.state, event) {
        case (.idle, .pinchBegan(let x, let y, let now)), (.panning, .pinchBegan(let x, let y, let now)):
            self.focus = self.viewPoint(x, y)
            let anchor = self.imagePoint(under: self.focus)
            self.state = .zooming(startScale: self.scale, anchorX: anchor.x, anchorY: anchor.y)
            return [self.publish(now)]
        case (.zooming(let start, let anchorX, let anchorY), .pinchChanged(let scale, let x, let y, let now)):
            self.scale = self.banded(start * scale)
            self.focus = self.viewPoint(x, y)
            self.place(imageX: anchorX, imageY: anchorY, at: self.focus)
            return [self.publish(now)]
        case (.zooming, .pinchEnded(let now)), (.zooming, .appWillResignActive(let now)):
            self.state = .idle
            let target = min(max(self.scale, self.config.minScale), self.config.maxScale)
            return [self.snapped(to: target, keeping: self.focus, at: self.focus, now)]
        case (.idle, .panBegan(let now)):
            self.state = .panning(startX: self.offsetX, startY: self.offsetY)
            return self.dragging ? [self.publish(now)] : []
        case (.panning(let startX, let startY), .panChanged(let translation, let now)):
            guard self.scale > self.config.minScale else { return [] }
            self.offsetX = startX - translation.x
            self.offsetY = startY - translation.y
            self.clampOffset()
            return [self.publish(now)]
        case (.panning, .panEnded(let now)), (.panning, .appWillResignActive(let now)):
            let wasDragging = self.dragging
            self.state = .idle
            return wasDragging ? [self.publish(now)] : []
        case (_, .resetRequested(let now)):
            self.state = .idle
            return [self.snapped(to: self.config.minScale, now)]
        case (.idle, .doubleTapRecognized(let x, let y, let now)):
            guard self.scale <= self.config.minScale else { return [self.snapped(to: self.config.minScale, now)] }
            let centre = (x: self.config.viewportWidth / 2, y: self.config.viewportHeight / 2)
            let target = min(self.config.minScale * 2, self.config.maxScale)
            return [self.snapped(to: target, keeping: self.viewPoint(x, y), at: centre, now)]
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
    /// or the offset moved. With `point` and `target` (view coordinates), the image point now
    /// under `point` ends under `target`, as far as the bounds allow; else the offset only stays
    /// within them.
    private mutating func snapped(
        to scale: Double, keeping point: (x: Double, y: Double)? = nil, at target: (x: Double, y: Double)? = nil,
        _ now: SourceInstant
    ) -> ComponentEffect {
        let before = (self.scale, self.offsetX, self.offsetY)
        if let point, let target {
            let image = self.imagePoint(under: point)
            self.scale = scale
            self.place(imageX: image.x, imageY: image.y, at: target)
        } else {
            self.scale = scale
            self.clampOffset()
        }
        var state = self.snapshot(at: now)
        if before != (self.scale, self.offsetX, self.offsetY) {
            state.animation = StateAnimation {
                $0.durationMs = Self.snap.milliseconds
            }
        }
        return .publishState(.zoomView(state))
    }

    /// A scene point in the view's coordinates.
    private func viewPoint(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (x - self.config.originX, y - self.config.originY)
    }

    /// The unzoomed image point shown at view point `point`.
    private func imagePoint(under point: (x: Double, y: Double)) -> (x: Double, y: Double) {
        guard self.scale > 0 else { return point }
        return ((self.offsetX + point.x) / self.scale, (self.offsetY + point.y) / self.scale)
    }

    /// Scrolls so that image point (`imageX`, `imageY`) shows at view point `point`, within the bounds.
    private mutating func place(imageX: Double, imageY: Double, at point: (x: Double, y: Double)) {
        self.offsetX = imageX * self.scale - point.x
        self.offsetY = imageY * self.scale - point.y
        self.clampOffset()
    }

    private mutating func clampOffset() {
        let maxX = max(0, self.config.viewportWidth * (self.scale - 1))
        let maxY = max(0, self.config.viewportHeight * (self.scale - 1))
        self.offsetX = min(max(self.offsetX, 0), maxX)
        self.offsetY = min(max(self.offsetY, 0), maxY)
    }

    /// A pan that scrolls the image: one on a zoomed-in image.
    private var dragging: Bool {
        if case .panning = self.state { return self.scale > self.config.minScale }
        return false
    }

    /// The state as published.
    public func snapshot(at now: SourceInstant) -> ZoomViewState {
        let zooming: Bool
        if case .zooming = self.state { zooming = true } else { zooming = false }
        return ZoomViewState {
            $0.instance = self.instance
            $0.tMs = now.milliseconds
            $0.scale = self.scale
            $0.minScale = self.config.minScale
            $0.maxScale = self.config.maxScale
            $0.offsetX = self.offsetX
            $0.offsetY = self.offsetY
            $0.overlayVisible = !zooming && !self.dragging
            $0.zooming = zooming
            $0.image = self.config.image
        }
    }

    private func publish(_ now: SourceInstant) -> ComponentEffect {
        .publishState(.zoomView(self.snapshot(at: now)))
    }
}
