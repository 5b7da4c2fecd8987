import Bus
import BusSchema
import Foundation
import Glibc
import ServiceSupport
import SupervisorCore

/// Runs a ``Supervision`` for real: spawns the services, reads their `ready` lines and logs,
/// reaps them, watches their health on the bus and writes a status file for `status`.
///
/// Everything happens on the calling thread, in one poll loop over the signalfd (stop signals
/// and SIGCHLD), the children's stdout pipes and the health subscription.
public final class SupervisorHost {
    public let config: SupervisorConfig
    public let runDirectory: String
    public let logDirectory: String
    private let bus: BusConfig
    /// The bus file, handed to every child as `UIBUS_BUS` so the group shares one bus.
    private let busPath: String
    private var machine: Supervision
    private var children: [Int: (pid: Int32, stdout: Int32, pending: [UInt8])] = [:]
    private var logs: [Int: Int32] = [:]
    private var health: [Int: Health] = [:]
    private var wakeMs: Int64?
    private var failure: String?
    private var announcedUp = false
    private let startedNs = Clock.monotonicNs()

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
            let socketIndex = try poller.add(subscriber.socket)
            let pipes = self.children.map { (service: $0.key, index: poller.add(fileDescriptor: $0.value.stdout)) }
            let now = self.nowMs
            let due = min(self.wakeMs ?? (now + 1000), nextStatusMs)
            try poller.poll(timeoutMs: Int(max(0, due - now)))
            if poller.isReadable(signalIndex) { self.readSignals(signals) }
            for pipe in pipes where poller.isReadable(pipe.index) || poller.hasError(pipe.index) {
                self.readOutput(of: pipe.service)
            }
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
            case .log(let line): Log.out("supervisor: \(line)")
            case .finished(let failure): self.failure = failure
            }
        }
        if !self.announcedUp && self.machine.isUp {
            self.announcedUp = true
            self.writeStatus(state: "running")
            Log.out("ready")
        }
    }

    private func spawn(_ service: Int) {
        let spec = self.config.services[service]
        let logPath = "\(self.logDirectory)/\(spec.name).log"
        do {
            let child = try ProcessSpawner.spawn(
                spec.command, logPath: logPath, environment: ["UIBUS_BUS": self.busPath])
            self.children[service] = (child.pid, child.stdout, [])
            if self.logs[service] == nil {
                self.logs[service] = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            }
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
                        self.readOutput(of: entry.key)
                        close(entry.value.stdout)
                        self.children[entry.key] = nil
                    }
                    self.perform(self.machine.handle(.exited(pid: pid, status: status, nowMs: self.nowMs)))
                }
            } else {
                Log.out("supervisor: signal \(signal): stopping every service in reverse order")
                self.perform(self.machine.handle(.stopRequested(nowMs: self.nowMs)))
            }
        }
    }

    /// Copies what the child printed into its log and looks for its `ready` line.
    private func readOutput(of service: Int) {
        guard var child = self.children[service] else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(child.stdout, &buffer, buffer.count)
            guard count > 0 else { break }
            if let log = self.logs[service] { _ = write(log, buffer, count) }
            child.pending.append(contentsOf: buffer.prefix(count))
        }
        while let newline = child.pending.firstIndex(of: 0x0a) {
            let line = String(decoding: child.pending[..<newline], as: UTF8.self)
            child.pending.removeSubrange(...newline)
            if line == "ready" {
                self.children[service] = child
                self.perform(self.machine.handle(.readyPrinted(service: service, nowMs: self.nowMs)))
            }
        }
        if self.children[service] != nil { self.children[service]?.pending = child.pending }
    }

    private func readHealth(_ subscriber: Subscriber) throws {
        while true {
            let (received, delivery) = try subscriber.receiveQueued()
            guard received else { return }
            guard let delivery, let report = subscriber.decode(delivery, as: Health.self),
                let service = self.config.services.firstIndex(where: { $0.name == report.service })
            else { continue }
            self.health[service] = report
            self.perform(self.machine.handle(.healthReceived(service: service, nowMs: self.nowMs)))
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
            case .failed(let reason): entry["state"] = .string("failed: \(reason)")
            }
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
