/// A moment on one clock, in whole nanoseconds since that clock's epoch.
///
/// The clock is a type parameter so that the compiler keeps an input source's time
/// (`SourceInstant`: evdev timestamps, a script's `t`) apart from a process's monotonic
/// time (`MonotonicInstant`: deadlines, health, resends): the two have different epochs
/// and subtracting one from the other is meaningless. Spans between instants are
/// `Swift.Duration`.
public struct Instant<Clock: InstantClock>: Hashable, Comparable, Sendable {
    /// Nanoseconds since the clock's epoch.
    public var nanoseconds: Int64

    /// The instant `nanoseconds` after the clock's epoch.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The instant at a whole or fractional number of milliseconds since the epoch
    /// (the unit of the component states' `t_ms`); rounds to the nearest nanosecond, clamps to
    /// ±2⁶² ns and maps NaN to the epoch.
    public init(milliseconds: Double) {
        self.init(nanoseconds: Int64(Int(saturating: milliseconds * 1e6, limit: Duration.nanosecondLimit)))
    }

    /// Milliseconds since the epoch, as the component states' `t_ms` carries them.
    public var milliseconds: Double { Double(self.nanoseconds) / 1e6 }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// The instant `duration` later (saturating at the ends of `Int64`).
    public static func + (lhs: Self, rhs: Duration) -> Self {
        let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(rhs.nanoseconds)
        return Self(nanoseconds: overflow ? (rhs.nanoseconds < 0 ? .min : .max) : sum)
    }

    /// The instant `duration` earlier.
    public static func - (lhs: Self, rhs: Duration) -> Self { lhs + .nanoseconds(-rhs.nanoseconds) }

    /// The span from `rhs` to `lhs` (negative when `lhs` is earlier).
    public static func - (lhs: Self, rhs: Self) -> Duration {
        let (difference, overflow) = lhs.nanoseconds.subtractingReportingOverflow(rhs.nanoseconds)
        return .nanoseconds(overflow ? (lhs.nanoseconds < rhs.nanoseconds ? Int64.min : .max) : difference)
    }
}

/// The clock an `Instant` is read from; its types have no values.
public protocol InstantClock: Sendable {}

/// An input source's clock: the kernel's evdev timestamp, a recording's or a script's time.
public enum SourceClock: InstantClock {}

/// A process's `CLOCK_MONOTONIC` (read by `ServiceClock`, never by a pure core).
public enum MonotonicClock: InstantClock {}

/// A moment on an input source's clock.
public typealias SourceInstant = Instant<SourceClock>

/// A moment on the process's monotonic clock.
public typealias MonotonicInstant = Instant<MonotonicClock>
