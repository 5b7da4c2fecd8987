import Bus
import BusSchema
import Foundation
import Glibc
import ServiceSupport
import SupervisorCore

/// Runs a ``Supervision`` for real: spawns the services, reads their `ready` lines, heartbeats
/// and output, reaps them, answers the control socket, follows their health on the bus and
/// writes a status file for `status`.
///
/// Everything happens on the calling thread, in one poll loop over the signalfd (stop signals
/// and SIGCHLD), the control socket, each child's stdout, stderr and heartbeat pipes, and the
/// health subscription. Liveness comes from the heartbeat pipes alone; bus health is shown in
/// `status` only when it names the pid and epoch of the process the supervisor started.
public final class SupervisorHost {
    public let config: SupervisorConfig
    public let runDirectory: String
    public let logDirectory: String
    private let bus: BusConfig
    /// The bus file, handed to every child as `UIBUS_BUS` so the group shares one bus.
    private let busPath: String
    private var machine: Supervision
    private var children: [Int: Child] = [:]
    private var logs: [Int: ServiceLog] = [:]
    private var ownLog: ServiceLog?
    private var health: [Int: Health] = [:]
    /// Health reports on a service's topic from a process it did not start (spoofed or stale).
    private var healthIgnored: [Int: UInt64] = [:]
    private var wakeMs: Int64?
    private var failure: String?
    private var announcedUp = false
    /// The answer the last control request got from the machine.
    private var reply: (ok: Bool, message: String)?
    private let startedNs = Clock.monotonicNs()

    /// One running child's pipes: stdout, stderr and heartbeat, in that order.
    private struct Child {
        var pid: Int32
        var pipes: [ChildPipe]

        /// The pipes still open, for the poll (one at end of file would wake it forever).
        var open: [Int32] { self.pipes.filter(\.isOpen).map(\.descriptor) }
    }

    /// The read end of one of a child's pipes and its partial last line.
    private struct ChildPipe {
        let descriptor: Int32
        var lines = LineSplitter()
        /// False once the child closed its end.
        var isOpen = true

        /// Reads what the non-blocking pipe has and returns the lines it completes; at the
        /// child's exit (`atEnd`), a last line without a newline too.
        mutating func drain(atEnd: Bool) -> [String] {
            var result: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while self.isOpen {
                let count = read(self.descriptor, &buffer, buffer.count)
                if count == 0 { self.isOpen = false }
                guard count > 0 else { break }
                result += buffer.withUnsafeBufferPointer {
                    self.lines.add(UnsafeBufferPointer(rebasing: $0.prefix(count)))
                }
            }
            if atEnd, let rest = self.lines.rest() { result.append(rest) }
            return result
        }
    }

    public init(config: SupervisorConfig, bus: BusConfig, busPath: String, runDirectory: String, logDirectory: String) {
        self.config = config
        self.bus = bus
        self.busPath = URL(fileURLWithPath: busPath).standardizedFileURL.path
        self.runDirectory = runDirectory
        self.logDirectory = logDirectory
        self.machine = Supervision(
            services: config.services, policy: config.policy, seed: UInt64.random(in: 1...UInt64.max))
    }

    /// The path of the status file `status` reads.
    public static func statusPath(runDirectory: String) -> String { runDirectory + "/supervisor.json" }

    /// Supervises until every service has stopped.
    ///
    /// - Parameter signals: must include SIGCHLD next to the stop signals.
    /// - Returns: nil after a requested stop, or why the group gave up.
    /// - Throws: ``SupervisorError`` or ``BusError`` if the supervisor itself cannot run.
    public func run(signals: SignalWatcher) throws -> String? {
        try PrivateDirectory.make(self.runDirectory)
        try FileManager.default.createDirectory(atPath: self.logDirectory, withIntermediateDirectories: true)
        let lock = try InstanceLock(path: self.runDirectory + "/supervisor.lock")
        defer { lock.release() }
        self.ownLog = ServiceLog(directory: self.logDirectory, name: "supervisor")
        let control = try ControlSocket.listen(runDirectory: self.runDirectory)
        defer {
            close(control)
            unlink(ControlSocket.path(runDirectory: self.runDirectory))
        }
        let context = try ZMQContext()
        let subscriber = try Subscriber(
            context: context, endpoint: self.bus.subscribe, prefixes: ["sys/health/"], curve: try self.bus.curveClient()
        )
        defer { subscriber.socket.close() }

        self.perform(self.machine.handle(.startRequested(nowMs: self.nowMs)))
        var nextStatusMs: Int64 = 0
        var writtenStates: [Supervision.ServiceState] = []
        while !self.machine.isFinished {
            var poller = Poller()
            let signalIndex = poller.add(fileDescriptor: signals.descriptor)
            let controlIndex = poller.add(fileDescriptor: control)
            let socketIndex = try poller.add(subscriber.socket)
            let pipes = self.children.flatMap { entry in
                entry.value.open.map { (service: entry.key, index: poller.add(fileDescriptor: $0)) }
            }
            let now = self.nowMs
            let due = min(self.wakeMs ?? (now + 1000), nextStatusMs)
            try poller.poll(timeoutMs: Int(max(0, due - now)))
            if poller.isReadable(signalIndex) { self.readSignals(signals) }
            for pipe in pipes where poller.isReadable(pipe.index) || poller.hasError(pipe.index) {
                self.readPipes(of: pipe.service)
            }
            if poller.isReadable(controlIndex) { self.answerControl(control) }
            if poller.isReadable(socketIndex) { try self.readHealth(subscriber) }
            self.perform(self.machine.handle(.timeElapsed(nowMs: self.nowMs)))
            // Written at once when a service changes state, so `status` shows a restart as it happens.
            let states = self.machine.records.map(\.state)
            if self.nowMs >= nextStatusMs || states != writtenStates {
                writtenStates = states
                self.writeStatus(state: "running")
                nextStatusMs = self.nowMs + 1000
            }
        }
        self.writeStatus(state: self.failure == nil ? "stopped" : "failed")
        return self.failure
    }

    private var nowMs: Int64 { Int64((Clock.monotonicNs() - self.startedNs) / 1_000_000) }

    private func perform(_ effects: [Supervision.Effect]) {
        for effect in effects {
            switch effect {
            case .spawn(let service): self.spawn(service)
            case .signal(_, let pid, let signal): ProcessSpawner.signalGroup(pid, signal)
            case .wake(let atMs): self.wakeMs = atMs
            case .log(let line, let service): self.log(line, service: service)
            case .reply(let ok, let message): self.reply = (ok, message)
            case .finished(let failure): self.failure = failure
            }
        }
        if !self.announcedUp && self.machine.isUp {
            self.announcedUp = true
            self.writeStatus(state: "running")
            Log.out("ready")
        }
    }

    /// A line of the supervisor's own, on stdout and in the log of the service it is about (so
    /// `logs SERVICE` tells that service's whole story), else in `supervisor.log`.
    private func log(_ line: String, service: Int? = nil) {
        Log.out("supervisor: \(line)")
        if let service {
            self.serviceLog(service).write(line, pid: 0)
        } else {
            self.ownLog?.write(line, pid: getpid())
        }
    }

    private func serviceLog(_ service: Int) -> ServiceLog {
        if let log = self.logs[service] { return log }
        let log = ServiceLog(directory: self.logDirectory, name: self.config.services[service].name)
        self.logs[service] = log
        return log
    }

    private func spawn(_ service: Int) {
        let spec = self.config.services[service]
        do {
            for directory in spec.directories {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            let child = try ProcessSpawner.spawn(
                spec.command,
                environment: [
                    "UIBUS_BUS": self.busPath, Heartbeat.environmentKey: "\(ProcessSpawner.heartbeatDescriptor)",
                ])
            self.children[service] = Child(
                pid: child.pid, pipes: [child.stdout, child.stderr, child.heartbeat].map { ChildPipe(descriptor: $0) })
            self.perform(self.machine.handle(.spawned(service: service, pid: child.pid, nowMs: self.nowMs)))
        } catch {
            self.perform(self.machine.handle(.spawnFailed(service: service, reason: "\(error)", nowMs: self.nowMs)))
        }
    }

    private func readSignals(_ signals: SignalWatcher) {
        while let signal = signals.pending() {
            if signal == SIGCHLD {
                for (pid, status) in ProcessSpawner.reap() {
                    if let entry = self.children.first(where: { $0.value.pid == pid }) {
                        self.readPipes(of: entry.key, atEnd: true)
                        for pipe in entry.value.pipes { close(pipe.descriptor) }
                        self.children[entry.key] = nil
                        self.health[entry.key] = nil
                    }
                    self.perform(self.machine.handle(.exited(pid: pid, status: status, nowMs: self.nowMs)))
                }
            } else {
                self.log("signal \(signal): stopping every service in reverse order")
                self.perform(self.machine.handle(.stopRequested(nowMs: self.nowMs)))
            }
        }
    }

    /// Logs what the child printed (stamped), looks for its `ready` line and reads its beats.
    ///
    /// - Parameter atEnd: the child has exited: a last line without a newline is logged too.
    private func readPipes(of service: Int, atEnd: Bool = false) {
        guard var child = self.children[service] else { return }
        let log = self.serviceLog(service)
        var ready = false
        for line in child.pipes[0].drain(atEnd: atEnd) {
            log.write(line, pid: child.pid)
            if line == "ready" { ready = true }
        }
        for line in child.pipes[1].drain(atEnd: atEnd) {
            log.write(line, pid: child.pid)
        }
        var beats: [(epoch: UInt64, turns: UInt64?)] = []
        for line in child.pipes[2].drain(atEnd: false) {
            let words = line.split(separator: " ")
            guard words.count >= 2, words[0] == "beat", let epoch = UInt64(words[1]) else { continue }
            beats.append((epoch, words.count > 2 ? UInt64(words[2]) : nil))
        }
        self.children[service] = child
        for beat in beats {
            self.perform(
                self.machine.handle(
                    .heartbeat(service: service, epoch: beat.epoch, loopTurns: beat.turns, nowMs: self.nowMs)))
        }
        if ready { self.perform(self.machine.handle(.readyPrinted(service: service, nowMs: self.nowMs))) }
    }

    /// Answers one `start|stop|restart SERVICE` request on the control socket.
    private func answerControl(_ listener: Int32) {
        guard let (connection, request) = ControlSocket.accept(listener) else { return }
        let words = request.split(separator: " ").map(String.init)
        guard words.count == 2, let command = Supervision.Control(rawValue: words[0]) else {
            ControlSocket.answer(connection, ok: false, message: "unknown request '\(request)'")
            return
        }
        guard let service = self.config.services.firstIndex(where: { $0.name == words[1] }) else {
            let names = self.config.services.map(\.name).joined(separator: ", ")
            ControlSocket.answer(connection, ok: false, message: "no service '\(words[1])' (services: \(names))")
            return
        }
        self.reply = nil
        self.perform(self.machine.handle(.controlRequested(service: service, command: command, nowMs: self.nowMs)))
        let reply = self.reply ?? (false, "no answer")
        ControlSocket.answer(connection, ok: reply.ok, message: reply.message)
    }

    /// Keeps a service's health report for `status` when it comes from the process the
    /// supervisor started: its pid, and the epoch that process named on its heartbeat pipe.
    private func readHealth(_ subscriber: Subscriber) throws {
        while true {
            let (received, delivery) = try subscriber.receiveQueued()
            guard received else { return }
            guard let delivery, let report = subscriber.decode(delivery, as: Health.self),
                let service = self.config.services.firstIndex(where: { $0.name == report.service })
            else { continue }
            let epoch = self.machine.records[service].epoch
            guard let child = self.children[service], report.pid == Int(child.pid), let epoch,
                report.epoch == epoch, delivery.envelope.epoch == epoch
            else {
                self.healthIgnored[service, default: 0] += 1
                if self.healthIgnored[service] == 1 {
                    self.log(
                        "ignoring health on \(delivery.topic) from pid \(report.pid), epoch "
                            + "\(report.epoch.map(String.init) ?? "none"): not the process it started (counted)")
                }
                continue
            }
            self.health[service] = report
        }
    }

    /// Writes the status file atomically (a temporary file, then rename).
    private func writeStatus(state: String) {
        let now = self.nowMs
        var services: [Value] = []
        for (index, spec) in self.config.services.enumerated() {
            let record = self.machine.records[index]
            var entry: ValueMap = ["name": .string(spec.name), "restarts": .int(Int64(record.restarts))]
            switch record.state {
            case .waiting: entry["state"] = .string("waiting")
            case .starting(let pid, _):
                entry["state"] = .string("starting")
                entry["pid"] = .int(Int64(pid))
            case .running(let pid, let since):
                entry["state"] = .string("running")
                entry["pid"] = .int(Int64(pid))
                entry["uptime_ms"] = .int(now - since)
            case .backingOff(let until):
                entry["state"] = .string("backing off")
                entry["restart_in_ms"] = .int(until - now)
            case .stopping(let pid, _):
                entry["state"] = .string("stopping")
                entry["pid"] = .int(Int64(pid))
            case .stopped: entry["state"] = .string("stopped")
            case .failed(let reason):
                entry["state"] = .string("failed")
                entry["reason"] = .string(reason)
            }
            if let epoch = record.epoch { entry["epoch"] = .int(Int64(truncatingIfNeeded: epoch)) }
            if let ignored = self.healthIgnored[index] { entry["health_ignored"] = .int(Int64(ignored)) }
            if let exit = record.lastExit { entry["last_exit"] = .string(exit.description) }
            if let recovery = record.lastRecoveryMs { entry["last_recovery_ms"] = .int(recovery) }
            if let report = self.health[index] { entry["health"] = report.value }
            services.append(.map(entry))
        }
        var document: ValueMap = [
            "pid": .int(Int64(getpid())), "state": .string(state), "uptime_ms": .int(now), "services": .array(services),
        ]
        if let failure = self.failure { document["failure"] = .string(failure) }
        let path = Self.statusPath(runDirectory: self.runDirectory)
        let temporary = path + ".tmp"
        if FileManager.default.createFile(atPath: temporary, contents: Data(Value.map(document).json.utf8)) {
            rename(temporary, path)
        }
    }
}
