import BusSchema

/// The supervisor's state machine: start order, restarts, watchdog and shutdown of a group.
///
/// Pure: it reads no clock and touches no process. The owner feeds it what happened (a child
/// spawned, printed `ready`, beat, exited; time passed; a stop or an operator's command came)
/// and carries out the effects it returns (spawn, signal, wake me at, log, reply, finished).
///
/// Rules, in the order they apply (the policy is `one_for_one`, as systemd's units and OTP's
/// supervisors default to: a failure touches only the service that failed):
/// - Start-up goes down the list one service at a time; the next starts only when the
///   previous printed `ready` (never on a timer) or failed for good. A service that misses its
///   start timeout is killed and handled like a crash.
/// - Only the service that exited is restarted. Every UIBus service reaches the others through
///   the proxy and reconnects on its own (ZeroMQ), so the dependency graph orders start-up and
///   shutdown only: a restarted proxy restarts nothing.
/// - A service that exits with a permanent-failure code is not retried: it is marked failed.
/// - Any other unexpected exit is a restart, after a delay of `initial × 2^(crashes-1)` capped
///   at the maximum; a service that had run for `stableAfterMs` starts again from the initial
///   delay. Jitter only shortens a delay (a factor in `1 − jitter … 1`): the doubling steps
///   are upper bounds, so a service killed after a stable run is spawned within
///   `initialBackoffMs` (0.5 s) and, with its start-up, is back within a second, while
///   services that crash together still spread out. A service restarted more than
///   `maximumRestarts` times within the intensity window (counted per service) is marked
///   failed and reported; the others keep running. The group gives up only when no service
///   is left running.
/// - Each restart's recovery time (unexpected exit to the next `ready`) is kept for `status`.
/// - A ready service whose heartbeat (``Event/heartbeat(service:epoch:loopTurns:nowMs:)``, a
///   pipe of its own, never the bus) stops for `watchdogMs`, or whose work loop has not turned
///   for `loopStallMs`, is killed, then restarted as a crash.
/// - An operator may stop, start or restart one service; a stopped service stays stopped
///   (not a crash, not counted) until started again.
/// - A stop shuts services down in reverse start order, one at a time: SIGTERM, then SIGKILL
///   after `stopTimeoutMs`.
public struct Supervision: Sendable {
    public enum Event: Sendable, Equatable {
        case startRequested(nowMs: Int64)
        case spawned(service: Int, pid: Int32, nowMs: Int64)
        case spawnFailed(service: Int, reason: String, nowMs: Int64)
        case readyPrinted(service: Int, nowMs: Int64)
        /// A line on the service's heartbeat pipe: its epoch and, when it counts them, its work
        /// loop's turns so far.
        case heartbeat(service: Int, epoch: UInt64, loopTurns: UInt64?, nowMs: Int64)
        case exited(pid: Int32, status: ExitStatus, nowMs: Int64)
        case timeElapsed(nowMs: Int64)
        case stopRequested(nowMs: Int64)
        /// An operator's command for one service (`uibus-supervisor restart SERVICE`).
        case controlRequested(service: Int, command: Control, nowMs: Int64)
    }

    /// What an operator may ask of one service.
    public enum Control: String, Sendable, Equatable, CaseIterable {
        case start, stop, restart
    }

    public enum Effect: Sendable, Equatable {
        case spawn(service: Int)
        /// Send `signal` to the service's process group.
        case signal(service: Int, pid: Int32, signal: Int32)
        case wake(atMs: Int64)
        /// A line for the supervisor's log and, when it is about one, that service's log.
        case log(String, service: Int? = nil)
        /// The answer to a ``Event/controlRequested(service:command:nowMs:)``.
        case reply(ok: Bool, message: String)
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
        /// The epoch its current process named on its heartbeat pipe (nil before the first beat).
        public var epoch: UInt64?
        var crashedMs: Int64?
        var consecutiveCrashes = 0
        /// Unexpected exits within the intensity window.
        var restartTimes: [Int64] = []
        var lastBeatMs: Int64 = 0
        var loopTurns: UInt64?
        var loopTurnedMs: Int64 = 0
        var killReason: String?
        /// Set by `restart`: spawn again as soon as the process has stopped.
        var restartWhenStopped = false
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
            self.records[service].epoch = nil
            self.records[service].loopTurns = nil
        case .spawnFailed(let service, let reason, let nowMs):
            now = nowMs
            self.fail(service, reason: "could not start: \(reason)", now: nowMs, &effects)
        case .readyPrinted(let service, let nowMs):
            now = nowMs
            self.ready(service, now: nowMs, &effects)
        case .heartbeat(let service, let epoch, let loopTurns, let nowMs):
            now = nowMs
            self.beat(service, epoch: epoch, loopTurns: loopTurns, now: nowMs)
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
        case .controlRequested(let service, let command, let nowMs):
            now = nowMs
            self.control(service, command, now: nowMs, &effects)
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
            let failed = self.records.filter { if case .failed = $0.state { true } else { false } }.count
            let summary = failed == 0 ? "all \(self.services.count) services ready" : "start-up done, \(failed) failed"
            effects.append(.log(summary))
            return
        }
        self.phase = .startingUp(next: index)
        effects.append(.spawn(service: index))
    }

    private mutating func ready(_ service: Int, now: Int64, _ effects: inout [Effect]) {
        guard case .starting(let pid, _) = self.records[service].state else { return }
        self.records[service].state = .running(pid: pid, sinceMs: now)
        self.records[service].lastBeatMs = now
        self.records[service].loopTurnedMs = now
        if let crashed = self.records[service].crashedMs {
            self.records[service].lastRecoveryMs = now - crashed
            self.records[service].crashedMs = nil
        }
        effects.append(.log("\(self.services[service].name) ready (pid \(pid))", service: service))
        if case .startingUp(let next) = self.phase, next == service { self.startNext(service + 1, &effects) }
    }

    private mutating func exited(_ service: Int, status: ExitStatus, now: Int64, _ effects: inout [Effect]) {
        let name = self.services[service].name
        let previous = self.records[service].state
        self.records[service].lastExit = status
        self.records[service].epoch = nil
        if case .stopping = previous {
            effects.append(.log("\(name) stopped (\(status))", service: service))
            if self.records[service].restartWhenStopped && !self.isShuttingDown {
                self.records[service].restartWhenStopped = false
                self.records[service].state = .waiting
                effects.append(.spawn(service: service))
            } else {
                self.records[service].state = .stopped
                self.continueShutdown(now: now, &effects)
            }
            return
        }
        let reason = self.records[service].killReason.map { " after \($0)" } ?? ""
        self.records[service].killReason = nil
        effects.append(.log("\(name) exited unexpectedly (\(status))\(reason)", service: service))
        if case .code(let code) = status, self.policy.permanentExitCodes.contains(code) {
            self.fail(service, reason: "failed permanently (\(status)): not retried", now: now, &effects)
            return
        }
        if self.isShuttingDown {
            self.records[service].state = .stopped
            self.continueShutdown(now: now, &effects)
            return
        }
        var record = self.records[service]
        record.restartTimes = record.restartTimes.filter { now - $0 < self.policy.intensityWindowMs } + [now]
        if record.restartTimes.count > self.policy.maximumRestarts {
            let count = record.restartTimes.count
            self.records[service] = record
            self.fail(
                service,
                reason: "restart intensity exceeded: \(count) restarts within "
                    + "\(self.policy.intensityWindowMs / 1000) s (last: \(status))", now: now, &effects)
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
        self.records[service] = record
        effects.append(.log("restarting \(name) in \(delay) ms (restart \(record.restarts))", service: service))
    }

    /// Marks a service failed for good; the others keep running (`one_for_one`). The group
    /// gives up only when nothing is left running, starting or waiting to restart.
    private mutating func fail(_ service: Int, reason: String, now: Int64, _ effects: inout [Effect]) {
        let name = self.services[service].name
        self.records[service].state = .failed(reason: reason)
        self.records[service].restartWhenStopped = false
        if self.isShuttingDown {
            self.continueShutdown(now: now, &effects)
            return
        }
        effects.append(
            .log("\(name) \(reason); marked failed (see its log), the other services keep running", service: service))
        if case .startingUp(let next) = self.phase, next == service { self.startNext(service + 1, &effects) }
        let alive = self.records.contains { record in
            switch record.state {
            case .failed, .stopped: return false
            default: return true
            }
        }
        if !alive {
            let failures = self.records.indices.compactMap { index -> String? in
                guard case .failed(let reason) = self.records[index].state else { return nil }
                return "\(self.services[index].name) \(reason)"
            }
            self.shutDown(failure: "no service left running: " + failures.joined(separator: "; "), now: now, &effects)
        }
    }

    private mutating func beat(_ service: Int, epoch: UInt64, loopTurns: UInt64?, now: Int64) {
        var record = self.records[service]
        switch record.state {
        case .starting, .running, .stopping: break
        default: return
        }
        record.epoch = epoch
        record.lastBeatMs = now
        if let loopTurns, loopTurns != record.loopTurns {
            record.loopTurns = loopTurns
            record.loopTurnedMs = now
        }
        self.records[service] = record
    }

    /// Carries out an operator's `start`, `stop` or `restart` of one service. A stop holds the
    /// service stopped (not a crash, not counted, never restarted) until a start; a start or
    /// restart begins it afresh, with its restart intensity and backoff reset.
    private mutating func control(_ service: Int, _ command: Control, now: Int64, _ effects: inout [Effect]) {
        let name = self.services[service].name
        guard case .running = self.phase else {
            let phase = self.isShuttingDown ? "stopping" : "still starting up"
            effects.append(.reply(ok: false, message: "the group is \(phase); \(command.rawValue) \(name) refused"))
            return
        }
        var record = self.records[service]
        defer { self.records[service] = record }
        switch (command, record.state) {
        case (.stop, .starting(let pid, _)), (.stop, .running(let pid, _)), (.restart, .starting(let pid, _)),
            (.restart, .running(let pid, _)):
            record.state = .stopping(pid: pid, killAtMs: now + self.policy.stopTimeoutMs)
            record.killReason = nil
            record.restartWhenStopped = command == .restart
            effects.append(.signal(service: service, pid: pid, signal: Self.sigterm))
            effects.append(
                .log("\(command == .stop ? "stopping" : "restarting") \(name) (pid \(pid)) as asked", service: service))
            effects.append(.reply(ok: true, message: "\(command == .stop ? "stopping" : "restarting") \(name)"))
        case (.stop, .stopping):
            record.restartWhenStopped = false
            effects.append(.reply(ok: true, message: "stopping \(name)"))
        case (_, .stopping):
            record.restartWhenStopped = true
            effects.append(.reply(ok: true, message: "starting \(name) once it has stopped"))
        case (.stop, .waiting), (.stop, .backingOff):
            record.state = .stopped
            effects.append(.log("\(name) held stopped as asked (it was waiting to restart)", service: service))
            effects.append(.reply(ok: true, message: "stopped \(name)"))
        case (.stop, .stopped), (.stop, .failed):
            effects.append(.reply(ok: true, message: "\(name) is not running"))
        case (.start, .starting), (.start, .running):
            effects.append(.reply(ok: true, message: "\(name) is already running"))
        case (.start, _), (.restart, _):
            record.state = .waiting
            record.restartTimes = []
            record.consecutiveCrashes = 0
            effects.append(.log("starting \(name) as asked", service: service))
            effects.append(.spawn(service: service))
            effects.append(.reply(ok: true, message: "starting \(name)"))
        }
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
                effects.append(.log("\(name) did not become ready in time; killing it", service: index))
                effects.append(.signal(service: index, pid: pid, signal: Self.sigkill))
            case .running(let pid, _) where watching && self.services[index].watchdog:
                guard self.records[index].killReason == nil, let reason = self.watchdogReason(index, now: now) else {
                    break
                }
                self.records[index].killReason = reason
                effects.append(.log("watchdog: \(reason) from \(name); killing it", service: index))
                effects.append(.signal(service: index, pid: pid, signal: Self.sigkill))
            case .stopping(let pid, let killAt) where killAt <= now && self.records[index].killReason == nil:
                self.records[index].killReason = "SIGTERM timeout"
                effects.append(
                    .log("\(name) ignored SIGTERM for \(self.policy.stopTimeoutMs) ms; killing it", service: index))
                effects.append(.signal(service: index, pid: pid, signal: Self.sigkill))
            default:
                break
            }
        }
    }

    /// Why the watchdog would kill a running service now, if it would: no heartbeat for
    /// `watchdogMs` (the process is dead, stopped or frozen), or beats whose loop count has not
    /// moved for `loopStallMs` (its work loop is stuck in one handler).
    private func watchdogReason(_ service: Int, now: Int64) -> String? {
        let record = self.records[service]
        if now - record.lastBeatMs >= self.policy.watchdogMs {
            return "no heartbeat for \(self.policy.watchdogMs) ms"
        }
        if record.loopTurns != nil, now - record.loopTurnedMs >= self.policy.loopStallMs {
            return "work loop stuck for \(self.policy.loopStallMs) ms"
        }
        return nil
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
                deadlines.append(record.lastBeatMs + self.policy.watchdogMs)
                if record.loopTurns != nil { deadlines.append(record.loopTurnedMs + self.policy.loopStallMs) }
            case .stopping(_, let killAt) where record.killReason == nil: deadlines.append(killAt)
            default: break
            }
        }
        return deadlines.min().map { max($0, now) }
    }
}
