import BusSchema

/// The supervisor's state machine: start order, restarts, watchdog and shutdown of a group.
///
/// Pure: it reads no clock and touches no process. The owner feeds it what happened (a child
/// spawned, printed `ready`, sent health, exited; time passed; a stop was asked for) and
/// carries out the effects it returns (spawn, signal, wake me at, log, finished).
///
/// Rules, in the order they apply:
/// - Start-up goes down the list one service at a time; the next starts only when the
///   previous printed `ready` (never on a timer). A service that misses its start timeout is
///   killed and handled like a crash.
/// - A service that exits with a permanent-failure code is not retried: the group stops.
/// - Any other unexpected exit is a restart, after a delay of `initial × 2^(crashes-1)` capped
///   at the maximum; a service that had run for `stableAfterMs` starts again from the initial
///   delay. Jitter only shortens a delay (a factor in `1 − jitter … 1`): the doubling steps
///   are upper bounds, so a service killed after a stable run is spawned within
///   `initialBackoffMs` (0.5 s) and, with its start-up, is back within a second, while
///   services that crash together still spread out. More than `maximumRestarts` restarts
///   within the intensity window (over the whole group, as OTP counts) stops the group instead.
/// - Each restart's recovery time (unexpected exit to the next `ready`) is kept for `status`.
/// - A ready service whose health stops for `watchdogMs` is killed, then restarted as a crash.
/// - A stop shuts services down in reverse start order, one at a time: SIGTERM, then SIGKILL
///   after `stopTimeoutMs`.
public struct Supervision: Sendable {
    public enum Event: Sendable, Equatable {
        case startRequested(nowMs: Int64)
        case spawned(service: Int, pid: Int32, nowMs: Int64)
        case spawnFailed(service: Int, reason: String, nowMs: Int64)
        case readyPrinted(service: Int, nowMs: Int64)
        case healthReceived(service: Int, nowMs: Int64)
        case exited(pid: Int32, status: ExitStatus, nowMs: Int64)
        case timeElapsed(nowMs: Int64)
        case stopRequested(nowMs: Int64)
    }

    public enum Effect: Sendable, Equatable {
        case spawn(service: Int)
        /// Send `signal` to the service's process group.
        case signal(service: Int, pid: Int32, signal: Int32)
        case wake(atMs: Int64)
        case log(String)
        /// Every service has stopped; `failure` says why if the group gave up.
        case finished(failure: String?)
    }

    /// What one service is doing, for `status`.
    public enum ServiceState: Sendable, Equatable {
        case waiting
        case starting(pid: Int32, sinceMs: Int64)
        case running(pid: Int32, sinceMs: Int64)
        case backingOff(untilMs: Int64)
        case stopping(pid: Int32, killAtMs: Int64)
        case stopped
        case failed(reason: String)
    }

    /// What the supervisor knows of one service.
    public struct ServiceRecord: Sendable, Equatable {
        public var state: ServiceState = .waiting
        public var restarts = 0
        public var lastExit: ExitStatus?
        public var startedMs: Int64?
        /// From the last unexpected exit to the `ready` that followed it.
        public var lastRecoveryMs: Int64?
        var crashedMs: Int64?
        var consecutiveCrashes = 0
        var lastHealthMs: Int64 = 0
        var killReason: String?
    }

    private enum Phase: Sendable {
        case idle
        case startingUp(next: Int)
        case running
        case shuttingDown(failure: String?)
        case finished
    }

    public static let sigterm: Int32 = 15
    public static let sigkill: Int32 = 9

    public let services: [ServiceSpec]
    public let policy: SupervisionPolicy
    public private(set) var records: [ServiceRecord]
    private var phase: Phase = .idle
    private var restartTimes: [Int64] = []
    private var random: SplitMix64

    /// - Parameter seed: seeds the jitter, so a test can replay a run exactly.
    public init(services: [ServiceSpec], policy: SupervisionPolicy = SupervisionPolicy(), seed: UInt64) {
        self.services = services
        self.policy = policy
        self.records = services.map { _ in ServiceRecord() }
        self.random = SplitMix64(seed: seed)
    }

    /// Whether start-up is complete (every service has been ready once and no stop began).
    public var isUp: Bool {
        if case .running = self.phase { return true }
        return false
    }

    /// Whether the group has finished (every service stopped).
    public var isFinished: Bool {
        if case .finished = self.phase { return true }
        return false
    }

    public mutating func handle(_ event: Event) -> [Effect] {
        var effects: [Effect] = []
        let now: Int64
        switch event {
        case .startRequested(let nowMs):
            now = nowMs
            guard case .idle = self.phase else { return [] }
            self.startNext(0, &effects)
        case .spawned(let service, let pid, let nowMs):
            now = nowMs
            self.records[service].state = .starting(pid: pid, sinceMs: nowMs)
            self.records[service].startedMs = nowMs
        case .spawnFailed(let service, let reason, let nowMs):
            now = nowMs
            self.records[service].state = .failed(reason: reason)
            self.shutDown(failure: "\(self.services[service].name) could not start: \(reason)", now: nowMs, &effects)
        case .readyPrinted(let service, let nowMs):
            now = nowMs
            self.ready(service, now: nowMs, &effects)
        case .healthReceived(let service, let nowMs):
            now = nowMs
            self.records[service].lastHealthMs = nowMs
        case .exited(let pid, let status, let nowMs):
            now = nowMs
            guard let service = self.service(withPID: pid) else { return [] }
            self.exited(service, status: status, now: nowMs, &effects)
        case .timeElapsed(let nowMs):
            now = nowMs
            self.checkDeadlines(now: nowMs, &effects)
        case .stopRequested(let nowMs):
            now = nowMs
            self.shutDown(failure: nil, now: nowMs, &effects)
        }
        if let wake = self.nextDeadline(now: now) { effects.append(.wake(atMs: wake)) }
        return effects
    }

    private func service(withPID pid: Int32) -> Int? {
        self.records.firstIndex { record in
            switch record.state {
            case .starting(let current, _), .running(let current, _), .stopping(let current, _): return current == pid
            default: return false
            }
        }
    }

    private mutating func startNext(_ index: Int, _ effects: inout [Effect]) {
        guard index < self.services.count else {
            self.phase = .running
            effects.append(.log("all \(self.services.count) services ready"))
            return
        }
        self.phase = .startingUp(next: index)
        effects.append(.spawn(service: index))
    }

    private mutating func ready(_ service: Int, now: Int64, _ effects: inout [Effect]) {
        guard case .starting(let pid, _) = self.records[service].state else { return }
        self.records[service].state = .running(pid: pid, sinceMs: now)
        self.records[service].lastHealthMs = now
        if let crashed = self.records[service].crashedMs {
            self.records[service].lastRecoveryMs = now - crashed
            self.records[service].crashedMs = nil
        }
        effects.append(.log("\(self.services[service].name) ready (pid \(pid))"))
        if case .startingUp(let next) = self.phase, next == service { self.startNext(service + 1, &effects) }
    }

    private mutating func exited(_ service: Int, status: ExitStatus, now: Int64, _ effects: inout [Effect]) {
        let name = self.services[service].name
        var record = self.records[service]
        defer { self.records[service] = record }
        let previous = record.state
        record.lastExit = status
        if case .stopping = previous {
            record.state = .stopped
            effects.append(.log("\(name) stopped (\(status))"))
            self.records[service] = record
            self.continueShutdown(now: now, &effects)
            return
        }
        let reason = record.killReason.map { " after \($0)" } ?? ""
        record.killReason = nil
        effects.append(.log("\(name) exited unexpectedly (\(status))\(reason)"))
        if case .code(let code) = status, self.policy.permanentExitCodes.contains(code) {
            record.state = .failed(reason: "exit code \(code) means a permanent failure")
            self.records[service] = record
            self.shutDown(
                failure: "\(name) failed permanently (\(status)); see var/log/\(name).log", now: now, &effects)
            return
        }
        if case .shuttingDown = self.phase {
            record.state = .stopped
            self.records[service] = record
            self.continueShutdown(now: now, &effects)
            return
        }
        self.restartTimes = self.restartTimes.filter { now - $0 < self.policy.intensityWindowMs } + [now]
        if self.restartTimes.count > self.policy.maximumRestarts {
            record.state = .failed(reason: "restart intensity exceeded")
            self.records[service] = record
            let failure =
                "restart intensity exceeded: \(self.restartTimes.count) restarts within "
                + "\(self.policy.intensityWindowMs / 1000) s (last: \(name), \(status))"
            self.shutDown(failure: failure, now: now, &effects)
            return
        }
        if case .running(_, let since) = previous, now - since >= self.policy.stableAfterMs {
            record.consecutiveCrashes = 0
        }
        record.consecutiveCrashes += 1
        record.crashedMs = now
        let delay = self.backoff(crashes: record.consecutiveCrashes)
        record.restarts += 1
        record.state = .backingOff(untilMs: now + delay)
        effects.append(.log("restarting \(name) in \(delay) ms (restart \(record.restarts))"))
    }

    /// `initial × 2^(crashes-1)`, capped, scaled by a factor in `1 − jitter … 1`.
    private mutating func backoff(crashes: Int) -> Int64 {
        let exponent = min(crashes - 1, 30)
        let base = min(self.policy.initialBackoffMs << Int64(exponent), self.policy.maximumBackoffMs)
        let unit = Double(self.random.next() >> 11) / Double(1 << 53)
        let factor = 1 - self.policy.jitter * unit
        return max(1, Int64((Double(base) * factor).rounded()))
    }

    /// While the group stops, services waiting their turn are neither watched nor timed out.
    private var isShuttingDown: Bool {
        switch self.phase {
        case .shuttingDown, .finished: return true
        default: return false
        }
    }

    private mutating func checkDeadlines(now: Int64, _ effects: inout [Effect]) {
        let watching = !self.isShuttingDown
        for index in self.records.indices {
            let name = self.services[index].name
            switch self.records[index].state {
            case .backingOff(let until) where until <= now:
                self.records[index].state = .waiting
                effects.append(.spawn(service: index))
            case .starting(let pid, let since)
            where watching && now - since >= self.policy.startTimeoutMs && self.records[index].killReason == nil:
                self.records[index].killReason = "no ready line within \(self.policy.startTimeoutMs) ms"
                effects.append(.log("\(name) did not become ready in time; killing it"))
                effects.append(.signal(service: index, pid: pid, signal: Self.sigkill))
            case .running(let pid, _)
            where watching && self.services[index].watchdog
                && now - self.records[index].lastHealthMs >= self.policy.watchdogMs
                && self.records[index].killReason == nil:
                self.records[index].killReason = "no health for \(self.policy.watchdogMs) ms"
                effects.append(.log("watchdog: no health from \(name) for \(self.policy.watchdogMs) ms; killing it"))
                effects.append(.signal(service: index, pid: pid, signal: Self.sigkill))
            case .stopping(let pid, let killAt) where killAt <= now && self.records[index].killReason == nil:
                self.records[index].killReason = "SIGTERM timeout"
                effects.append(.log("\(name) ignored SIGTERM for \(self.policy.stopTimeoutMs) ms; killing it"))
                effects.append(.signal(service: index, pid: pid, signal: Self.sigkill))
            default:
                break
            }
        }
    }

    private mutating func shutDown(failure: String?, now: Int64, _ effects: inout [Effect]) {
        switch self.phase {
        case .shuttingDown, .finished: return
        default: break
        }
        if let failure { effects.append(.log("stopping the group: \(failure)")) }
        self.phase = .shuttingDown(failure: failure)
        self.continueShutdown(now: now, &effects)
    }

    /// Stops the last service still alive, one at a time, in reverse start order.
    private mutating func continueShutdown(now: Int64, _ effects: inout [Effect]) {
        guard case .shuttingDown(let failure) = self.phase else { return }
        for index in self.records.indices.reversed() {
            switch self.records[index].state {
            case .starting(let pid, _), .running(let pid, _):
                self.records[index].state = .stopping(pid: pid, killAtMs: now + self.policy.stopTimeoutMs)
                self.records[index].killReason = nil
                effects.append(.signal(service: index, pid: pid, signal: Self.sigterm))
                return
            case .stopping:
                return
            case .waiting, .backingOff:
                self.records[index].state = .stopped
            case .stopped, .failed:
                break
            }
        }
        self.phase = .finished
        effects.append(.finished(failure: failure))
    }

    private func nextDeadline(now: Int64) -> Int64? {
        var deadlines: [Int64] = []
        let watching = !self.isShuttingDown
        for (index, record) in self.records.enumerated() {
            switch record.state {
            case .backingOff(let until): deadlines.append(until)
            case .starting(_, let since) where watching && record.killReason == nil:
                deadlines.append(since + self.policy.startTimeoutMs)
            case .running where watching && self.services[index].watchdog && record.killReason == nil:
                deadlines.append(record.lastHealthMs + self.policy.watchdogMs)
            case .stopping(_, let killAt) where record.killReason == nil: deadlines.append(killAt)
            default: break
            }
        }
        return deadlines.min().map { max($0, now) }
    }
}
