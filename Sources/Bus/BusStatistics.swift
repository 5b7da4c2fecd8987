import BusSchema
import Synchronization

/// The health counters of one service, safe to read from any thread at any time.
public final class BusStatistics: Sendable {
    /// One of the counters of ``HealthCounters``.
    public enum Counter: Sendable, CaseIterable {
        case sent, received, gaps, duplicates, reorders, rejected, deadLettered, queueDepth
    }

    private let sent = Atomic<UInt64>(0)
    private let received = Atomic<UInt64>(0)
    private let gaps = Atomic<UInt64>(0)
    private let duplicates = Atomic<UInt64>(0)
    private let reorders = Atomic<UInt64>(0)
    private let rejected = Atomic<UInt64>(0)
    private let deadLettered = Atomic<UInt64>(0)
    private let queueDepth = Atomic<UInt64>(0)
    private let reasonCounts = Mutex<[String: UInt64]>([:])

    public init() {}

    /// Adds `amount` to `counter`.
    @inline(__always)
    public func add(_ counter: Counter, _ amount: UInt64 = 1) {
        self.withAtomic(counter) { _ = $0.wrappingAdd(amount, ordering: .relaxed) }
    }

    /// Subtracts `amount` from `counter` (a message counted as lost arrived late after all).
    public func subtract(_ counter: Counter, _ amount: UInt64 = 1) {
        self.withAtomic(counter) { _ = $0.wrappingSubtract(amount, ordering: .relaxed) }
    }

    /// Sets a gauge such as the queue depth.
    public func set(_ counter: Counter, _ value: UInt64) {
        self.withAtomic(counter) { $0.store(value, ordering: .relaxed) }
    }

    public func value(_ counter: Counter) -> UInt64 {
        self.withAtomic(counter) { $0.load(ordering: .relaxed) }
    }

    /// Counts one rejected frame under `reason`.
    public func reject(_ reason: String) {
        self.add(.rejected)
        self.countReason(reason)
    }

    /// Counts one dead-lettered message under `reason`.
    public func deadLetter(_ reason: String) {
        self.add(.deadLettered)
        self.countReason(reason)
    }

    /// Counts `reason` without touching the main counters.
    public func countReason(_ reason: String) {
        self.reasonCounts.withLock { $0[reason, default: 0] += 1 }
    }

    /// The reasons counted so far, sorted by name.
    public var reasons: [(String, UInt64)] {
        self.reasonCounts.withLock { $0.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }

    /// A consistent-enough copy of every counter.
    public var counters: HealthCounters {
        var snapshot = HealthCounters()
        snapshot.sent = self.value(.sent)
        snapshot.received = self.value(.received)
        snapshot.gaps = self.value(.gaps)
        snapshot.duplicates = self.value(.duplicates)
        snapshot.reorders = self.value(.reorders)
        snapshot.rejected = self.value(.rejected)
        snapshot.deadLettered = self.value(.deadLettered)
        snapshot.queueDepth = self.value(.queueDepth)
        return snapshot
    }

    @inline(__always)
    private func withAtomic<R>(_ counter: Counter, _ body: (borrowing Atomic<UInt64>) -> R) -> R {
        switch counter {
        case .sent: return body(self.sent)
        case .received: return body(self.received)
        case .gaps: return body(self.gaps)
        case .duplicates: return body(self.duplicates)
        case .reorders: return body(self.reorders)
        case .rejected: return body(self.rejected)
        case .deadLettered: return body(self.deadLettered)
        case .queueDepth: return body(self.queueDepth)
        }
    }
}
