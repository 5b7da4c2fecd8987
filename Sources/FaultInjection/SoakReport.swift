import BusSchema

/// What a ``SoakDrill`` saw.
public struct SoakReport: Sendable {
    public let services: [String]
    public var durationMs = 0
    /// The length of the first and last windows compared for growth.
    public var windowMs = 60_000
    /// Faults injected, by kind and service.
    public var faults: [String: [String: Int]] = [:]
    public var samples: [(service: String, sample: SoakDrill.Sample)] = []
    /// Whether the supervisor was found gone at any sample (must be false).
    public var supervisorStopped = false
    /// Services found marked failed at any sample (must be empty).
    public var failedSeen: Set<String> = []
    public var restarts: [String: Int] = [:]
    public var memo = MemoTally()
    public var supervisorExit: Int32?

    init(services: [String]) {
        self.services = services
    }

    mutating func count(_ kind: String, _ service: String) {
        self.faults[kind, default: [:]][service, default: 0] += 1
    }

    var faultCount: Int { self.faults.values.reduce(0) { $0 + $1.values.reduce(0, +) } }

    /// A service's median of `value` over the samples of the first and the last window.
    public func medians(_ service: String, _ value: (SoakDrill.Sample) -> Int) -> (first: Int, last: Int)? {
        let mine = self.samples.filter { $0.service == service }.map(\.sample)
        let first = mine.filter { $0.atMs < self.windowMs }.map(value).sorted()
        let last = mine.filter { $0.atMs >= self.durationMs - self.windowMs }.map(value).sorted()
        guard !first.isEmpty, !last.isEmpty else { return nil }
        return (first[first.count / 2], last[last.count / 2])
    }

    /// Whether no service's memory or descriptors grew: the last window's median is at most
    /// 1.1 × the first's (a drop passes; medians, so one sample's transient socket does not decide).
    public var isFlat: Bool {
        self.services.allSatisfy { service in
            [\SoakDrill.Sample.rssKiB, \.descriptors].allSatisfy { key in
                guard let (first, last) = self.medians(service, { $0[keyPath: key] }) else { return false }
                return Double(last) <= Double(first) * 1.1
            }
        }
    }

    /// Whether the run met every rule: nothing lost or applied twice, the stack never stopped, flat.
    public var passed: Bool {
        self.memo.check.lost == 0 && self.memo.check.appliedTwice == 0 && self.memo.unacknowledged == 0
            && !self.supervisorStopped && self.failedSeen.isEmpty && self.isFlat
    }

    public var json: String {
        let perService: [(String, Value)] = self.services.map { service in
            var entry: ValueMap = ["restarts": .int(Int64(self.restarts[service] ?? 0))]
            for (name, key) in [("rss_kib", \SoakDrill.Sample.rssKiB), ("fds", \.descriptors)] {
                if let (first, last) = self.medians(service, { $0[keyPath: key] }) {
                    entry[name] = .map(["first_minute": .int(Int64(first)), "last_minute": .int(Int64(last))])
                }
            }
            let faults = self.faults.keys.sorted().map { ($0, Value.int(Int64(self.faults[$0]?[service] ?? 0))) }
            entry["faults"] = .map(ValueMap(faults))
            return (service, .map(entry))
        }
        let document: ValueMap = [
            "duration_ms": .int(Int64(self.durationMs)), "faults": .int(Int64(self.faultCount)),
            "services": .map(ValueMap(perService)), "supervisor_stopped": .bool(self.supervisorStopped),
            "failed_seen": .array(self.failedSeen.sorted().map(Value.string)),
            "memo": self.memo.value,
            "flat": .bool(self.isFlat), "passed": .bool(self.passed),
            "supervisor_exit": self.supervisorExit.map { .int(Int64($0)) } ?? .null,
        ]
        return Value.map(document).json
    }
}
