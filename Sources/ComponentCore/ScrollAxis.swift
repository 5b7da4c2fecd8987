import Foundation

/// One axis of scroll physics: rubber-banding past the edges, exponential deceleration after
/// release (UIScrollView's model: velocity × rate per ms) and a critically damped spring that
/// pulls an overshoot back to the edge or carries the content to a page.
///
/// Units: points and milliseconds (velocity in points per ms).
public struct ScrollAxis: Sendable, Hashable {
    /// Lowest and highest resting offsets.
    public var minimum: Double
    public var maximum: Double
    /// Visible length, the rubber band's dimension.
    public var viewport: Double
    public var position: Double
    public var velocity: Double = 0
    /// Where a spring is pulling the axis, if it is springing rather than decelerating.
    public private(set) var springTarget: Double?

    /// Spring stiffness (1/ms): an overshoot settles in about 400 ms.
    public static let springOmega = 0.015
    /// Below this speed (points per ms) the content stops.
    public static let restingSpeed = 0.02

    public init(minimum: Double, maximum: Double, viewport: Double, position: Double) {
        self.minimum = minimum
        self.maximum = max(minimum, maximum)
        self.viewport = viewport
        self.position = position
    }

    /// UIKit's rubber band: past an edge the content follows the finger less and less.
    public static func rubberBand(_ overshoot: Double, dimension: Double) -> Double {
        guard dimension > 0 else { return 0 }
        let magnitude = (1 - 1 / (abs(overshoot) * 0.55 / dimension + 1)) * dimension
        return overshoot < 0 ? -magnitude : magnitude
    }

    /// The offset for a raw (finger-following) offset: rubber-banded past the edges, or clamped.
    /// A NaN leaves the axis where it is; an infinity ends at the rubber band's full stretch.
    public func dragged(to raw: Double, bounces: Bool) -> Double {
        guard !raw.isNaN else { return self.position }
        if raw < self.minimum {
            return bounces ? self.minimum + Self.rubberBand(raw - self.minimum, dimension: self.viewport) : self.minimum
        }
        if raw > self.maximum {
            return bounces ? self.maximum + Self.rubberBand(raw - self.maximum, dimension: self.viewport) : self.maximum
        }
        return raw
    }

    /// Whether the axis has stopped.
    public var isResting: Bool { self.velocity == 0 && self.springTarget == nil && self.isInBounds }

    public var isInBounds: Bool { self.position >= self.minimum && self.position <= self.maximum }

    /// Starts a spring toward `target` from the current position and velocity.
    public mutating func spring(to target: Double) {
        self.springTarget = target
    }

    /// Arithmetic on extreme inputs (a velocity near the largest double) can overflow: the axis
    /// then stops at the nearest edge instead of carrying a NaN or an infinity into every later
    /// frame.
    private mutating func stopIfNotFinite() {
        guard !self.position.isFinite || !self.velocity.isFinite else { return }
        self.position = self.position.isNaN ? self.minimum : min(max(self.position, self.minimum), self.maximum)
        self.stop()
    }

    /// Stops all motion where the axis is.
    public mutating func stop() {
        self.velocity = 0
        self.springTarget = nil
    }

    /// Advances `dt` ms: decelerates at `rate` per ms inside the bounds, springs back past them
    /// (or stops at the edge without `bounces`), and comes to rest below ``restingSpeed``.
    public mutating func advance(by dt: Double, rate: Double, bounces: Bool) {
        guard dt > 0 else { return }
        defer { self.stopIfNotFinite() }
        if self.springTarget == nil, !self.isInBounds {
            self.springTarget = self.position < self.minimum ? self.minimum : self.maximum
        }
        if let target = self.springTarget {
            let omega = Self.springOmega
            let a = self.position - target
            let b = self.velocity + omega * a
            let decay = exp(-omega * dt)
            self.position = target + (a + b * dt) * decay
            self.velocity = (b - omega * (a + b * dt)) * decay
            if abs(self.position - target) < 0.5, abs(self.velocity) < Self.restingSpeed {
                self.position = target
                self.stop()
            }
            return
        }
        let keep = pow(rate, dt)
        let next = self.position + self.velocity * (keep - 1) / log(rate)
        self.velocity *= keep
        if next < self.minimum || next > self.maximum {
            let edge = next < self.minimum ? self.minimum : self.maximum
            if bounces {
                self.position = next
                self.springTarget = edge
            } else {
                self.position = edge
                self.stop()
            }
            return
        }
        self.position = next
        if abs(self.velocity) < Self.restingSpeed { self.velocity = 0 }
    }
}
