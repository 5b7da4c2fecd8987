import ServiceSupport

/// A service clock that moves only when the test says: a service's timers fire when
/// ``advance(ms:)`` passes their deadline and the test turns the loop
/// (`ServiceRunner.turn(timeoutMs:)`), never because the machine was slow.
public final class ManualClock: ServiceClock {
    /// Now, in nanoseconds (starts at 1 s, so a deadline "before start" is still positive).
    public private(set) var nowNs: UInt64

    public init(startNs: UInt64 = 1_000_000_000) {
        self.nowNs = startNs
    }

    public func monotonicNs() -> UInt64 { self.nowNs }

    /// Moves the clock forward by `ms` milliseconds.
    public func advance(ms: Double) {
        self.nowNs += UInt64(max(ms, 0) * 1e6)
    }
}
