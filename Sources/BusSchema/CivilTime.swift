/// A UTC calendar time computed from milliseconds since the Unix epoch (no clock reads,
/// no time zone database): the fields the memo export formats and the pull-to-refresh
/// header's last-updated line print.
public struct CivilTime: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// 0 = Sunday.
    public var weekday: Int

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Converts with Howard Hinnant's `civil_from_days` algorithm.
    public init(milliseconds: Int64) {
        let seconds = Self.floorDivide(Int(milliseconds), 1000)
        let days = Self.floorDivide(seconds, 86_400)
        let inDay = seconds - days * 86_400
        self.hour = inDay / 3600
        self.minute = inDay % 3600 / 60
        self.second = inDay % 60
        self.weekday = ((days % 7) + 11) % 7
        let shifted = days + 719_468
        let era = Self.floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        self.day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        self.month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.year = yearOfEra + era * 400 + (self.month <= 2 ? 1 : 0)
    }

    /// `Sun, 29 Nov 2026 13:25:04 +0000` (RFC 5322 `date-time`).
    public var rfc5322: String {
        "\(Self.weekdays[self.weekday]), \(self.day) \(Self.months[self.month - 1]) \(self.year) \(self.clock) +0000"
    }

    /// `Sun Nov 29 13:25:04 2026` (C `asctime`, as mbox `From ` lines use it; day space-padded).
    public var asctime: String {
        let day = self.day < 10 ? " \(self.day)" : "\(self.day)"
        return "\(Self.weekdays[self.weekday]) \(Self.months[self.month - 1]) \(day) \(self.clock) \(self.year)"
    }

    /// `2026-11-29 13:25 UTC`.
    public var readable: String {
        "\(self.year)-\(Self.pad(self.month))-\(Self.pad(self.day)) \(Self.pad(self.hour)):\(Self.pad(self.minute)) UTC"
    }

    /// `2026/11/29 13:25` (a short Japanese date and time, as the classic refresh header shows it).
    public var short: String {
        "\(self.year)/\(Self.pad(self.month))/\(Self.pad(self.day)) \(Self.pad(self.hour)):\(Self.pad(self.minute))"
    }

    private var clock: String { "\(Self.pad(self.hour)):\(Self.pad(self.minute)):\(Self.pad(self.second))" }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// Division rounding toward negative infinity.
    private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        let quotient = value / divisor
        return value % divisor != 0 && value < 0 ? quotient - 1 : quotient
    }
}
