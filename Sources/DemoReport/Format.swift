/// Number formatting without locale surprises (always `.` and no grouping).
enum Format {
    /// `value` with exactly `digits` decimals.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "–" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (abs(value) * scale).rounded()
        let whole = Int(rounded / scale)
        let sign = value < 0 && rounded > 0 ? "-" : ""
        guard digits > 0 else { return "\(sign)\(whole)" }
        let fraction = String(Int(rounded) - whole * Int(scale))
        return "\(sign)\(whole)." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    /// A latency in µs the way people read it: `850 µs`, `1.2 ms`, `3.40 s`.
    static func latency(_ microseconds: Double) -> String {
        if microseconds < 1000 { return Self.fixed(microseconds, 0) + " µs" }
        if microseconds < 1_000_000 { return Self.fixed(microseconds / 1000, 1) + " ms" }
        return Self.fixed(microseconds / 1_000_000, 2) + " s"
    }
}
