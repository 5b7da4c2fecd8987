/// When each message of a flood is due: message `i` at `startNs + i / rate`, an absolute
/// deadline from one start, so a late wake-up never delays the messages after it (no drift).
///
/// Pure: the monotonic time is an input.
public struct SendSchedule: Sendable, Equatable {
    public let startNs: UInt64
    public let ratePerSecond: Double
    public let count: Int

    /// The monotonic time message `index` is due.
    public func deadlineNs(of index: Int) -> UInt64 {
        self.startNs + UInt64((Double(index) * 1e9 / self.ratePerSecond).rounded(.down))
    }

    /// How many messages are due by `nowNs` (every message whose deadline is at or before it).
    public func dueCount(at nowNs: UInt64) -> Int {
        guard nowNs >= self.startNs else { return 0 }
        let due = Int((Double(nowNs - self.startNs) * self.ratePerSecond / 1e9).rounded(.down)) + 1
        // The rounding of deadlineNs(of:) can put a deadline a nanosecond before the estimate says.
        var count = min(due, self.count)
        while count < self.count, self.deadlineNs(of: count) <= nowNs { count += 1 }
        while count > 0, self.deadlineNs(of: count - 1) > nowNs { count -= 1 }
        return count
    }
}
