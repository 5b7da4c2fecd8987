import Bus

/// Where a service's loop reads the time (CLOCK_MONOTONIC nanoseconds): the system clock when it
/// runs, a clock the test moves when its behaviour is tested in-process (`ManualClock` in
/// BusTestSupport), so timeouts, resends and health are tested with time as an input.
public protocol ServiceClock: AnyObject {
    /// Now, in monotonic nanoseconds.
    func monotonicNs() -> UInt64
}

extension ServiceClock {
    /// Now, in milliseconds: the clock component machines take as their time.
    public var nowMs: Double { Double(self.monotonicNs()) / 1e6 }
}

/// The system's monotonic clock (``Clock/monotonicNs()``).
public final class SystemClock: ServiceClock {
    public init() {}

    public func monotonicNs() -> UInt64 { Clock.monotonicNs() }
}
