import BusSchema

/// The health reports of the services a flood passes through, each paired with what the flood's
/// own subscriber had counted when the report arrived.
///
/// A service's messages and its health report travel the same path (its one publisher, the
/// proxy, the flood's one subscriber), so when a report arrives, everything the service published
/// before it has arrived too or left a gap: comparing the report's counters with the flood's
/// counts at that moment is exact, without waiting for the bus to go quiet.
struct ServiceReports {
    /// One health report and the flood's count of that service's messages when it arrived.
    struct Report {
        var health: Health
        var receivedNs: UInt64
        var seenReceived: UInt64
        var seenLost: UInt64

        /// A counter of the report's service-specific `extra` map (0 when absent).
        func extra(_ key: String) -> UInt64 {
            self.health.extra?[key]?.uintValue ?? 0
        }
    }

    private(set) var first: [String: Report] = [:]
    private(set) var latest: [String: Report] = [:]
    private(set) var previous: [String: Report] = [:]

    mutating func record(_ report: Report) {
        let service = report.health.service
        if self.first[service] == nil { self.first[service] = report }
        self.previous[service] = self.latest[service]
        self.latest[service] = report
    }

    func has(_ service: String) -> Bool { self.first[service] != nil }

    /// Whether `service` reported at or after `ns`.
    func reported(_ service: String, after ns: UInt64) -> Bool {
        (self.latest[service]?.receivedNs ?? 0) >= ns
    }

    /// How much `value` of `service`'s reports grew from its first report to its latest.
    func growth(_ service: String, _ value: (Report) -> UInt64) -> UInt64 {
        guard let first = self.first[service], let latest = self.latest[service] else { return 0 }
        return value(latest) &- value(first)
    }

    /// Whether `value` is the same in `service`'s last two reports, both received at or after
    /// `ns` (nothing moved in between).
    func isStill(_ service: String, since ns: UInt64, _ value: (Report) -> UInt64) -> Bool {
        guard let previous = self.previous[service], let latest = self.latest[service], previous.receivedNs >= ns
        else { return false }
        return value(previous) == value(latest)
    }
}
