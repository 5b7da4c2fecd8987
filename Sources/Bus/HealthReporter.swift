import BusSchema
import Glibc

/// Builds a service's periodic ``Health`` message from its statistics.
public struct HealthReporter: Sendable {
    public let service: String
    public let statistics: BusStatistics
    public let startedNs: UInt64
    /// The sender's epoch (its publisher's), carried in every report with its pid.
    public let epoch: UInt64
    public private(set) var seq: UInt64 = 0

    public init(service: String, statistics: BusStatistics, epoch: UInt64, startedNs: UInt64 = Clock.monotonicNs()) {
        self.service = service
        self.statistics = statistics
        self.epoch = epoch
        self.startedNs = startedNs
    }

    /// The topic health goes out on: `sys/health/<service>/`.
    public var topic: Topic {
        get throws { try Topic.health(self.service) }
    }

    /// The next health report, with `extra` service-specific numbers.
    public mutating func report(state: Health.State, extra: ValueMap? = nil) -> Health {
        self.seq += 1
        return Health {
            $0.service = self.service
            $0.state = state
            $0.seq = self.seq
            $0.uptimeMs = (Clock.monotonicNs() - self.startedNs) / 1_000_000
            $0.pid = Int(getpid())
            $0.epoch = self.epoch
            $0.counters = self.statistics.counters
            $0.reasons = self.statistics.reasons
            $0.extra = extra
        }
    }
}
