import Bus
import BusSchema
import Foundation
import Glibc
import MemoStore
import ServiceSupport

/// Runs a ``FaultPlan``: the stack under `uibus-supervisor`, a touch flood from `input-source`,
/// a ``MemoDriver`` and a ``BusWatch`` in this process (never signalled), and each fault in turn.
///
/// Everything runs on the calling thread; between faults the drill keeps pumping the bus, so
/// the driver retries on time and every loss lands on the fault during which it happened.
public final class FaultDrill {
    /// A drill that could not run (the stack did not start, a service never came back).
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let plan: FaultPlan
    /// Progress lines (one per fault), for a terminal.
    public var log: (String) -> Void = { _ in }
    private(set) var supervisor: Process?

    public init(plan: FaultPlan) {
        self.plan = plan
    }

    /// Runs every fault and checks the memo database at the end.
    ///
    /// - Throws: ``Failure`` when the stack cannot start or stop; a fault it does not recover
    ///   from is reported (recovery nil), not thrown.
    public func run() throws -> FaultReport {
        defer { self.killSupervisorIfRunning() }
        let pump = try self.startStack()
        var report = FaultReport()
        for fault in self.plan.faults {
            report.faults.append(try self.inject(fault, pump: pump))
        }
        let end = try self.finish(pump)
        report.receivedByHop = pump.watch.counts.received
        report.memo = end.memo
        report.supervisorExit = end.supervisorExit
        return report
    }

    /// Writes the run's files, starts the stack under the supervisor and the drill's own bus
    /// clients, and runs the warm-up. The caller defers ``killSupervisorIfRunning()`` first.
    func startStack() throws -> Pump {
        let directory = self.plan.directory
        try FileManager.default.createDirectory(atPath: directory + "/run", withIntermediateDirectories: true)
        try #"{"publish": "ipc://run/in", "subscribe": "ipc://run/out"}"#.write(
            toFile: directory + "/bus.json", atomically: true, encoding: .utf8)
        try self.plan.servicesFile.write(toFile: directory + "/services.json", atomically: true, encoding: .utf8)
        let bus = try BusConfig.load(directory + "/bus.json")
        try self.startSupervisor()
        let context = try ZMQContext()
        let watch = try BusWatch(context: context, bus: bus)
        let driver = try MemoDriver(
            context: context, bus: bus, client: "faults", ratePerSecond: self.plan.memoRate,
            editing: self.plan.memoEdits)
        let pump = Pump(watch: watch, driver: driver)
        try pump.run(forMs: self.plan.warmupMs)
        return pump
    }

    /// Lets the driver finish (no new commands, resends until every one is acknowledged), stops
    /// the stack and checks the memo database.
    func finish(_ pump: Pump) throws -> (supervisorExit: Int32?, memo: MemoTally) {
        pump.sending = false
        try pump.run(forMs: self.plan.recoveryTimeoutMs) { pump.driver.unacknowledged == 0 }
        let exit = try self.stopSupervisor()
        let store = try MemoStore(path: self.plan.directory + "/memo.sqlite")
        return (exit, MemoTally(pump.driver, check: try pump.driver.check(store)))
    }

    private func inject(_ fault: FaultPlan.Fault, pump: Pump) throws -> FaultReport.Outcome {
        // A service the watchdog restarted on its own (a debug build on a loaded machine can
        // miss its health) is waited for, not failed.
        try pump.run(forMs: self.plan.recoveryTimeoutMs) {
            (try? self.serviceStatus(fault.service))?["state"]?.stringValue == "running"
        }
        let before = try self.serviceStatus(fault.service)
        guard let pid = before["pid"]?.intValue, before["state"]?.stringValue == "running" else {
            throw Failure(description: "\(fault.service) is not running before its fault: \(before.json)")
        }
        let restartsBefore = Int(before["restarts"]?.intValue ?? 0)
        let counts = pump.watch.counts
        let gaps = pump.watch.reportedGaps
        let startNs = Clock.monotonicNs()
        var recoveredFromNs = startNs
        let recovered: () -> BusWatch.Sighting?
        switch fault.kind {
        case .kill where fault.service == "bus-proxy":
            // The proxy's own health comes once a second; the first message sent after the kill
            // that arrives shows the new proxy forwarding, to the millisecond.
            pump.watch.forwardWatermarkNs = startNs + 1_000_000
            kill(-Int32(pid), SIGKILL)
            recovered = { pump.watch.forwardedAtNs.map { BusWatch.Sighting(service: "bus-proxy", pid: 0, atNs: $0) } }
        case .kill:
            kill(-Int32(pid), SIGKILL)
            recovered = { pump.watch.firstSighting(of: fault.service, afterNs: startNs) { $0.pid != Int(pid) } }
        case .stop:
            kill(-Int32(pid), SIGSTOP)
            try pump.run(forMs: self.plan.stopMs)
            recoveredFromNs = Clock.monotonicNs()
            kill(-Int32(pid), SIGCONT)
            recovered = {
                pump.watch.firstSighting(of: fault.service, afterNs: recoveredFromNs) { $0.pid == Int(pid) }
            }
        }
        try pump.run(forMs: self.plan.recoveryTimeoutMs) { recovered() != nil }
        let sighting = recovered()
        pump.watch.forwardWatermarkNs = nil
        self.log(
            "\(fault.kind.rawValue) \(fault.service): "
                + (sighting.map { "back after \(Double($0.atNs - recoveredFromNs) / 1e6) ms" } ?? "NOT back"))
        let expected = fault.kind == .kill ? FaultPlan.resyncs[fault.service] ?? [] : []
        try pump.run(forMs: self.plan.recoveryTimeoutMs) {
            expected.isSubset(of: pump.watch.resynced(afterNs: startNs).keys)
        }
        try pump.run(forMs: self.plan.settleMs)
        let after = try self.serviceStatus(fault.service)
        let countsAfter = pump.watch.counts
        let gapsAfter = pump.watch.reportedGaps
        return FaultReport.Outcome(
            fault: fault, recoveryMs: sighting.map { Double($0.atNs - recoveredFromNs) / 1e6 },
            supervisorRecoveryMs: fault.kind == .kill ? after["last_recovery_ms"]?.intValue : nil,
            lostByHop: Self.delta(countsAfter.lost, since: counts.lost),
            gapsReported: Self.delta(gapsAfter, since: gaps).filter { $0.value > 0 },
            resyncedMs: pump.watch.resynced(afterNs: startNs).mapValues { Double($0 - startNs) / 1e6 },
            restarts: Int(after["restarts"]?.intValue ?? 0) - restartsBefore)
    }

    /// Counts gained since `before`; a message counted lost that arrived late after all lowers
    /// a gap count, so a difference can be negative, and is shown as 0.
    private static func delta(_ after: [String: UInt64], since before: [String: UInt64]) -> [String: UInt64] {
        after.reduce(into: [:]) { result, entry in
            let earlier = before[entry.key] ?? 0
            result[entry.key] = entry.value > earlier ? entry.value - earlier : 0
        }
    }

    // MARK: - The supervisor

    private var supervisorArguments: [String] {
        let directory = self.plan.directory
        return [
            "up", "--config", directory + "/services.json", "--bus", directory + "/bus.json", "--run-dir",
            directory + "/run", "--log-dir", directory + "/log", "--bin", self.plan.binDirectory,
        ]
    }

    /// Starts `uibus-supervisor VERB …` on this run (`restart SERVICE`) without waiting for it.
    func supervisorVerb(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: self.plan.binDirectory + "/uibus-supervisor")
        process.arguments =
            arguments + ["--run-dir", self.plan.directory + "/run", "--log-dir", self.plan.directory + "/log"]
        process.currentDirectoryURL = URL(fileURLWithPath: self.plan.root)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    private func startSupervisor() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: self.plan.binDirectory + "/uibus-supervisor")
        process.arguments = self.supervisorArguments
        process.currentDirectoryURL = URL(fileURLWithPath: self.plan.root)
        let output = self.plan.directory + "/supervisor.out"
        guard FileManager.default.createFile(atPath: output, contents: nil) else {
            throw Failure(description: "cannot create \(output)")
        }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = process.standardOutput
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.supervisor = process
        try self.waitFor("the stack to start", ms: 120_000) {
            guard process.isRunning else {
                throw Failure(description: "uibus-supervisor exited: \(self.supervisorOutput)")
            }
            return self.supervisorOutput.split(separator: "\n").contains("ready")
        }
    }

    /// What the supervisor printed (its log lines and its children's failures).
    public var supervisorOutput: String {
        (try? TextFile.read(self.plan.directory + "/supervisor.out")) ?? ""
    }

    private func stopSupervisor() throws -> Int32? {
        guard let process = self.supervisor else { return nil }
        process.terminate()
        try self.waitFor("the supervisor to stop every service", ms: 60_000) { !process.isRunning }
        process.waitUntilExit()
        self.supervisor = nil
        return process.terminationStatus
    }

    func killSupervisorIfRunning() {
        guard let process = self.supervisor, process.isRunning else { return }
        process.terminate()
        try? self.waitFor("the supervisor to stop", ms: 30_000) { !process.isRunning }
    }

    /// One service's entry in the supervisor's status file.
    func serviceStatus(_ name: String) throws -> Value {
        let path = self.plan.directory + "/run/supervisor.json"
        guard let text = try? TextFile.read(path), let document = try? JSONReader.parse(text),
            let entry = document["services"]?.arrayValue?.first(where: { $0["name"]?.stringValue == name })
        else { throw Failure(description: "no status for \(name) in \(path)") }
        return entry
    }

    private func waitFor(_ what: String, ms: Int, _ condition: () throws -> Bool) throws {
        let deadline = Clock.monotonicNs() + UInt64(ms) * 1_000_000
        while try !condition() {
            guard Clock.monotonicNs() < deadline else { throw Failure(description: "timed out waiting for \(what)") }
            _ = poll(nil, 0, 10)
        }
    }
}

/// Keeps the drill's sockets served: the watch drained, the driver's commands and resends sent.
final class Pump {
    let watch: BusWatch
    let driver: MemoDriver
    var sending = true

    init(watch: BusWatch, driver: MemoDriver) {
        self.watch = watch
        self.driver = driver
    }

    /// Serves the bus for `ms`, or until `done` holds.
    func run(forMs ms: Int, until done: () -> Bool = { false }) throws {
        var poller = Poller()
        for socket in self.watch.sockets + [self.driver.acks.socket] { try poller.add(socket) }
        let deadline = Clock.monotonicNs() + UInt64(ms) * 1_000_000
        while Clock.monotonicNs() < deadline && !done() {
            try poller.poll(timeoutMs: 5)
            let now = Clock.monotonicNs()
            try self.watch.drain(nowNs: now)
            try self.driver.receiveAcks()
            try self.driver.tick(nowNs: now, sending: self.sending)
        }
    }
}
