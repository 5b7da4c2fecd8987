/// Durations and rates as people read them: `850 µs`, `12.3 ms`, `1.25 s`, `1.2k/s`.
public enum HumanUnits {
    /// A duration given in microseconds, in the largest unit that keeps it at 1 or above,
    /// with three significant digits.
    public static func duration(microseconds: Double) -> String {
        guard microseconds.isFinite else { return "–" }
        let magnitude = abs(microseconds)
        if magnitude < 1000 { return Self.significant(microseconds) + " µs" }
        if magnitude < 1_000_000 { return Self.significant(microseconds / 1000) + " ms" }
        return Self.significant(microseconds / 1_000_000) + " s"
    }

    /// A duration given in milliseconds (see ``duration(microseconds:)``).
    public static func duration(milliseconds: Double) -> String {
        Self.duration(microseconds: milliseconds * 1000)
    }

    /// A byte rate in B/s, kB/s or MB/s (decimal units), three significant digits.
    public static func bytesPerSecond(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        if value < 1000 { return Self.significant(value) + " B/s" }
        if value < 1_000_000 { return Self.significant(value / 1000) + " kB/s" }
        return Self.significant(value / 1_000_000) + " MB/s"
    }

    /// Three significant digits, no exponent, no trailing zeros: 0.123, 12.3, 123, 1234.
    public static func significant(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
        let scale = [1.0, 10, 100, 1000][decimals]
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        var text = String(rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
