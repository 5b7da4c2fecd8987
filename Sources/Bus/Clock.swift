import Glibc

/// The clocks the bus stamps messages with. Pure cores never call these: time is their input.
public enum Clock {
    /// CLOCK_MONOTONIC in nanoseconds: comparable across processes on one host.
    /// The corresponding C function is `clock_gettime`.
    public static func monotonicNs() -> UInt64 {
        Self.read(CLOCK_MONOTONIC)
    }

    /// CLOCK_REALTIME in nanoseconds since the Unix epoch.
    public static func wallNs() -> UInt64 {
        Self.read(CLOCK_REALTIME)
    }

    private static func read(_ clock: clockid_t) -> UInt64 {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
