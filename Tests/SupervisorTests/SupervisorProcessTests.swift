import BusSchema
import BusTestSupport
import Foundation
import Testing

/// The real `uibus-supervisor` running real services in a temporary run directory.
final class SupervisorRun {
    let directory: String
    let process: ChildProcess

    /// Writes a services file and a bus file into a temporary directory and runs `up` there
    /// (`{dir}` in `services` becomes that directory).
    /// The bus every service of the run joins.
    var busFile: String { self.directory + "/bus.json" }

    init(services: String, policy: String = "{}") throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "uibus-sup-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory.path
        try #"{"publish": "ipc://run/in", "subscribe": "ipc://run/out"}"#.write(
            toFile: self.directory + "/bus.json", atomically: true, encoding: .utf8)
        // `{dir}` in a command stands for the run's directory (services run in the repository).
        let services = services.replacingOccurrences(of: "{dir}", with: self.directory)
        try #"{"policy": \#(policy), "services": [\#(services)]}"#.write(
            toFile: self.directory + "/services.json", atomically: true, encoding: .utf8)
        self.process = try ChildProcess(
            "uibus-supervisor",
            [
                "up", "--config", self.directory + "/services.json", "--run-dir", self.directory + "/run",
                "--log-dir", self.directory + "/log", "--bin", ChildProcess.binDirectory,
            ], bus: self.directory + "/bus.json")
    }

    func status() throws -> Value {
        let (_, stdout, _) = try ChildProcess.run(
            "uibus-supervisor", ["status", "--json", "--run-dir", self.directory + "/run"])
        return try JSONReader.parse(stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A service's state, nil while the status has none for it (records no issue, for waiting).
    func state(_ name: String) -> String? {
        (try? self.status())?["services"]?.arrayValue?.first { $0["name"] == .string(name) }?["state"]?.stringValue
    }

    func service(_ name: String) throws -> Value {
        try #require(try self.status()["services"]?.arrayValue?.first { $0["name"] == .string(name) })
    }

    /// Runs another `uibus-supervisor` verb against this run (`restart NAME`, `logs …`).
    func verb(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try ChildProcess.run(
            "uibus-supervisor",
            arguments + ["--run-dir", self.directory + "/run", "--log-dir", self.directory + "/log"])
    }

    func pid(_ name: String) throws -> Int32 {
        let entry = try self.service(name)
        return Int32(try #require(entry["pid"]?.intValue, "\(name) has no pid: \(entry)"))
    }

    func down() throws -> Int32 {
        let (status, _, _) = try ChildProcess.run("uibus-supervisor", ["down", "--run-dir", self.directory + "/run"])
        return status
    }

    deinit {
        // SIGTERM lets the supervisor stop its children; SIGKILL would orphan them.
        if self.process.isRunning {
            self.process.signal(SIGTERM)
            if (try? self.process.wait(seconds: 30)) == nil { self.process.signal(SIGKILL) }
        }
        try? FileManager.default.removeItem(atPath: self.directory)
    }
}

@Suite struct SupervisorProcessTests {
    static let pipeline = """
        {"name": "bus-proxy", "command": ["bus-proxy"]},
        {"name": "gesture-recognizer", "command": ["gesture-recognizer"]},
        {"name": "input-source", "command": ["input-source", "run", "--scenario", "tap", "--loop"]}
        """

    @Test func killedServicesComeBackAndTheOthersKeepRunning() throws {
        let run = try SupervisorRun(services: Self.pipeline)
        try run.process.waitForLine("ready", seconds: 60)
        for name in ["gesture-recognizer", "input-source", "bus-proxy"] {
            let before = try run.status()["services"]?.arrayValue ?? []
            let victim = try #require(before.first { $0["name"] == .string(name) })
            let pid = Int32(try #require(victim["pid"]?.intValue))
            let started = Date()
            kill(pid, SIGKILL)
            try waitUntil("\(name) restarted", seconds: 20) {
                let now = try run.service(name)
                return now["state"] == .string("running") && now["pid"]?.intValue != Int64(pid)
            }
            print("\(name) back after \(Int(Date().timeIntervalSince(started) * 1000)) ms")
            // Every other service kept its process.
            for other in before where other["name"] != .string(name) {
                let now = try run.service(other["name"]?.stringValue ?? "")
                #expect(
                    now["pid"] == other["pid"],
                    "\(other["name"]?.stringValue ?? "") was disturbed; supervisor said:\n\(run.process.stdout)")
            }
        }
        #expect(try run.service("gesture-recognizer")["restarts"] == .int(1))
        #expect(try run.down() == 0)
        #expect(try run.process.wait() == 0)
        #expect(!FileManager.default.fileExists(atPath: run.directory + "/run/in"), "stale ipc file")
        #expect(run.process.stdout.contains("input-source stopped"))
    }

    @Test func aCrashLoopOfTheOnlyServiceEndsTheGroup() throws {
        let run = try SupervisorRun(
            services: #"{"name": "crasher", "command": ["/bin/sh", "-c", "echo ready; exit 3"], "watchdog": false}"#,
            policy: #"{"initial_backoff_ms": 5, "maximum_restarts": 5}"#)
        #expect(try run.process.wait(seconds: 30) == 1)
        #expect(run.process.stderr.contains("no service left running: crasher restart intensity exceeded: 6 restarts"))
        #expect(run.process.stdout.contains("restarting crasher in"))
    }

    @Test func aPermanentFailureIsNotRetried() throws {
        let run = try SupervisorRun(
            services: #"{"name": "misconfigured", "command": ["/bin/sh", "-c", "exit 78"], "watchdog": false}"#)
        #expect(try run.process.wait(seconds: 30) == 1)
        #expect(run.process.stderr.contains("misconfigured failed permanently (exit code 78)"))
        #expect(!run.process.stdout.contains("restarting"))
    }

    @Test func theWatchdogKillsAServiceWhoseHealthStops() throws {
        // Prints ready but never publishes health on the bus.
        let run = try SupervisorRun(
            services: #"""
                {"name": "bus-proxy", "command": ["bus-proxy"]},
                {"name": "silent", "command": ["/bin/sh", "-c", "echo ready; exec sleep 600"]}
                """#,
            policy: #"{"watchdog_ms": 2500}"#)
        try run.process.waitForLine("ready", seconds: 60)
        try waitUntil("the watchdog to restart the silent service", seconds: 20) {
            (try run.service("silent")["restarts"]?.intValue ?? 0) >= 1
        }
        #expect(run.process.stdout.contains("watchdog: no heartbeat for 2500 ms from silent"))
        #expect(try run.service("bus-proxy")["restarts"] == .int(0), "the proxy beats and is left alone")
        #expect(try run.down() == 0)
        #expect(try run.process.wait() == 0)
    }

    @Test func aSecondSupervisorOnTheSameRunDirectoryIsRefused() throws {
        let run = try SupervisorRun(services: #"{"name": "bus-proxy", "command": ["bus-proxy"]}"#)
        try run.process.waitForLine("ready", seconds: 60)
        let (status, _, stderr) = try ChildProcess.run(
            "uibus-supervisor",
            [
                "up", "--config", run.directory + "/services.json", "--run-dir", run.directory + "/run", "--bin",
                ChildProcess.binDirectory,
            ], bus: run.directory + "/bus.json")
        #expect(status == 1)
        #expect(stderr.contains("supervisor.lock is held by pid \(run.process.pid)"))
        #expect(try run.down() == 0)
    }

    @Test func aBadServicesFileIsAPermanentConfigurationError() throws {
        let run = try SupervisorRun(services: #"{"name": "ghost", "command": ["no-such-program"]}"#)
        #expect(try run.process.wait() == 78)
        #expect(run.process.stderr.contains("services[0].command"))
        #expect(run.process.stderr.contains("no-such-program is not an executable"))
    }
}
