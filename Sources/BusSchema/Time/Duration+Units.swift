extension Duration {
    /// The duration in whole nanoseconds, saturating at the ends of `Int64` (about ±292 years).
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = self.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow || overflowAgain { return seconds < 0 ? .min : .max }
        return sum
    }

    /// The duration in milliseconds, as the schemas' `*_ms` fields and the scene carry them.
    public var milliseconds: Double { Double(self.nanoseconds) / 1e6 }

    /// A duration of a fractional number of milliseconds (a scene's or a state's `*_ms`);
    /// clamps to ±2⁶² ns (about 146 years) and maps NaN to zero.
    public static func milliseconds(fractional value: Double) -> Duration {
        .nanoseconds(Int64(Int(saturating: value * 1e6, limit: Self.nanosecondLimit)))
    }

    /// The largest nanosecond count a time converted from a `Double` takes (2⁶², about 146
    /// years): time arrives from the bus and from files, so the conversion clamps, never traps.
    static let nanosecondLimit = 1 << 62
}
