import BusSchema

/// A UIView animation timing curve: a cubic Bézier from (0, 0) to (1, 1), one of UIKit's four
/// below (``init(_:)`` picks the one a state's animation names).
public struct AnimationCurve: Sendable, Hashable {
    public let x1: Double
    public let y1: Double
    public let x2: Double
    public let y2: Double

    /// `UIViewAnimationOptionCurveEaseInOut`, the default (CAMediaTimingFunction easeInEaseOut).
    public static let easeInOut = AnimationCurve(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
    public static let easeIn = AnimationCurve(x1: 0.42, y1: 0, x2: 1, y2: 1)
    public static let easeOut = AnimationCurve(x1: 0, y1: 0, x2: 0.58, y2: 1)
    public static let linear = AnimationCurve(x1: 0, y1: 0, x2: 1, y2: 1)

    /// The eased progress for linear progress `u` in 0…1 (solves x(t) = u by bisection).
    public func progress(_ u: Double) -> Double {
        if u <= 0 { return 0 }
        if u >= 1 { return 1 }
        if x1 == y1, x2 == y2 { return u }
        func bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
            let s = 1 - t
            return 3 * s * s * t * p1 + 3 * s * t * t * p2 + t * t * t
        }
        var (lo, hi) = (0.0, 1.0)
        for _ in 0..<40 {
            let mid = (lo + hi) / 2
            if bezier(mid, x1, x2) < u { lo = mid } else { hi = mid }
        }
        return bezier((lo + hi) / 2, y1, y2)
    }
}

extension AnimationCurve {
    /// The curve a state's animation names.
    public init(_ curve: StateAnimation.Curve) {
        switch curve {
        case .easeInOut: self = .easeInOut
        case .easeIn: self = .easeIn
        case .easeOut: self = .easeOut
        case .linear: self = .linear
        }
    }
}
