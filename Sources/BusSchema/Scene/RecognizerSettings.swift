/// A recognizer's thresholds; every one configurable per recognizer (scene `settings`), each by
/// the kinds that read it only (``keys(for:)``): a scene giving a setting to a kind that does not
/// read it is refused.
///
/// Defaults follow issue 3 and the peers (see `reference/gestures.md`): touch slop 8 pt
/// (Android/Chromium), long press 500 ms with 10 pt allowed movement (UIKit), double tap within
/// 300 ms, no sooner than 40 ms and within 100 pt (Android/Chromium), swipe ≥ 300 pt/s along its
/// axis at lift with ≥ 30 pt of travel and ≤ 20° deviation, pinch after a 16 pt span change
/// (Chromium span slop), rotation after 0.1 rad.
public struct RecognizerSettings: Sendable, Hashable {
    /// tap/doubleTap: taps needed (a doubleTap is a tap that needs 2).
    public var tapsRequired = 1
    /// tap/doubleTap/longPress/swipe: fingers needed.
    public var touchesRequired = 1
    /// pan/edgePan: fewest and most fingers.
    public var minTouches = 1
    public var maxTouches = Int.max
    /// longPress: how long the fingers must stay down.
    public var minDuration = Duration.milliseconds(500)
    /// longPress: movement in points allowed before it begins.
    public var allowableMovement = 10.0
    /// tap/doubleTap/pan/edgePan: movement in points before a pan begins or a tap fails.
    public var slop = 8.0
    /// tap: a finger held longer than this is a press, not a tap (Chromium sends no tap after a
    /// long press); the long-press duration by default.
    public var maxTapDuration = Duration.milliseconds(500)
    /// Multi-tap: most time from a lift to the next touch-down.
    public var doubleTapTimeout = Duration.milliseconds(300)
    /// Multi-tap: least time from a lift to the next touch-down (Android DOUBLE_TAP_MIN_TIME).
    public var doubleTapMinInterval = Duration.milliseconds(40)
    /// Multi-tap: largest distance between the taps, in points.
    public var doubleTapDistance = 100.0
    /// swipe: accepted directions (UIKit's default is right only).
    public var directions: Set<GestureEvent.Direction> = [.right]
    /// swipe: least speed along the axis at lift (pt/s), travel (pt) and most deviation (degrees).
    public var minVelocity = 300.0
    public var minDistance = 30.0
    public var maxAngleDegrees = 20.0
    /// edgePan: edges, and how close to one a touch must begin (pt).
    public var edges: Set<GestureEvent.Edge> = [.left]
    public var edgeWidth = 20.0
    /// pinch: span change (pt) before it begins.
    public var pinchSlop = 16.0
    /// rotation: angle (radians) before it begins.
    public var rotationSlop = 0.1

    public init() {}

    /// The defaults for `kind` (a doubleTap needs two taps).
    public static func defaults(for kind: GestureEvent.Kind) -> RecognizerSettings {
        var settings = RecognizerSettings()
        if kind == .doubleTap { settings.tapsRequired = 2 }
        return settings
    }
}
