import Bus
import BusSchema
import Foundation
import Glibc
import ServiceSupport

/// The supervisor's command line: `up`, `status`, `down`, `logs`, `start|stop|restart SERVICE`.
public enum SupervisorCommand {
    public static let usage = """
        usage: uibus-supervisor VERB [options]
          up [--config FILE] [--bus FILE] [--bin DIR]   run the services in the foreground (prints `ready`)
          status [--json]                               each service: pid, state, uptime, restarts, last exit, health
          down [--timeout S]                            stop a running supervisor and wait for it
          start|stop|restart SERVICE [--timeout S]      one service, through the running supervisor; waits until done
          logs [SERVICE…] [-f|--follow] [--since 5m] [--lines N]
                                                        the logs, merged by time, each line stamped and named
        common: [--run-dir DIR] (default var/run) [--log-dir DIR] (default var/log)
        """
    static let timeout = OptionSpec.value("timeout", "S", "how long to wait (default 30)")
    static let commandLine = CommandLineSpec(
        common: [
            .value("run-dir", "DIR", "the supervisor's run directory (default var/run)"),
            .value("log-dir", "DIR", "the services' logs (default var/log)"),
        ],
        verbs: [
            "up": [
                .value("config", "FILE", "the services (default deploy/services.json)"), .bus,
                .value("bin", "DIR", "the services' executables (default: this one's directory)"),
            ],
            "status": [.flag("json", "the whole status document as JSON")], "down": [Self.timeout],
            "start": [Self.timeout], "stop": [Self.timeout], "restart": [Self.timeout],
            "logs": [
                .flag("follow", "keep printing new lines (-f)"),
                .value("since", "TIME", "lines from then on (5m, 2h, 2026-12-01T20:41)"),
                .value("lines", "N", "the last N lines of each log"),
            ],
        ])

    /// `relative` under the current directory for `up`, or when a supervisor was started here;
    /// else under the checkout this executable was built in (``BusConfig/checkoutRoot``), so that
    /// `status`, `logs`, `down` and the rest work from any directory.
    static func defaultDirectory(_ relative: String, for verb: String) -> String {
        if verb == "up" || FileManager.default.fileExists(atPath: "var/run/supervisor.lock") { return relative }
        guard let root = BusConfig.checkoutRoot else { return relative }
        return root + "/" + relative
    }

    /// Runs the verb in `arguments`; returns the exit status.
    public static func run(_ arguments: [String], signals: SignalWatcher) throws -> Int32 {
        // `-f` as `tail -f`, `journalctl -f` and `docker compose logs -f` spell it.
        var options = try Self.commandLine.parse(arguments.map { $0 == "-f" ? "--follow" : $0 })
        let verb = options.verb
        // `up` runs where it was started (its services' paths are relative to it); the other
        // verbs find that supervisor from any directory.
        let runDirectory = options.string("run-dir") ?? Self.defaultDirectory("var/run", for: verb)
        let logDirectory = options.string("log-dir") ?? Self.defaultDirectory("var/log", for: verb)
        switch verb {
        case "up":
            let busPath = options.string("bus") ?? BusConfig.defaultPath
            let bus: BusConfig
            do {
                bus = try BusConfig.load(busPath)
            } catch {
                throw ConfigurationError("\(error)")
            }
            let binDirectory = options.string("bin") ?? Self.ownDirectory
            let configPath = options.string("config") ?? "deploy/services.json"
            try options.finish(maximumPositionals: 1)
            let config: SupervisorConfig
            do {
                config = try SupervisorConfig.load(configPath, binDirectory: binDirectory)
            } catch {
                throw ConfigurationError("\(error)")
            }
            let host = SupervisorHost(
                config: config, bus: bus, busPath: busPath, runDirectory: runDirectory, logDirectory: logDirectory)
            if let failure = try host.run(signals: signals) {
                Log.error("uibus-supervisor", failure)
                return 1
            }
            return 0
        case "status":
            let json = options.flag("json")
            try options.finish(maximumPositionals: 1)
            return Self.status(runDirectory: runDirectory, json: json)
        case "down":
            let timeout = try options.double("timeout") ?? 30
            try options.finish(maximumPositionals: 1)
            return try Self.down(runDirectory: runDirectory, timeoutSeconds: timeout)
        case "start", "stop", "restart":
            guard options.positionals.count == 2 else { throw UsageError("\(verb) needs one service name") }
            let timeout = try options.double("timeout") ?? 30
            try options.finish(maximumPositionals: 2)
            return try Self.control(
                verb, options.positionals[1], runDirectory: runDirectory, timeoutSeconds: timeout)
        default:  // logs
            let follow = options.flag("follow")
            let since = try options.string("since").map { try LogsCommand.since($0, nowNs: Clock.wallNs()) }
            let lines = try options.int("lines")
            if let lines, lines < 0 { throw UsageError("--lines takes a count of 0 or more, not \(lines)") }
            try options.finish(maximumPositionals: .max)
            let command = LogsCommand(
                logDirectory: logDirectory, services: Array(options.positionals.dropFirst()), follow: follow,
                since: since, lines: lines)
            return try command.run(signals: signals)
        }
    }

    /// The directory of the running executable, where the sibling service executables are.
    static var ownDirectory: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    /// The status document and whether the supervisor that wrote it is still alive.
    static func readStatus(runDirectory: String) -> (document: Value, alive: Bool)? {
        guard let text = try? TextFile.read(SupervisorHost.statusPath(runDirectory: runDirectory)),
            let document = try? JSONReader.parse(text)
        else { return nil }
        let pid = Int32(document["pid"]?.intValue ?? 0)
        let running = document["state"]?.stringValue == "running"
        return (document, running && pid > 0 && kill(pid, 0) == 0)
    }

    static func status(runDirectory: String, json: Bool) -> Int32 {
        guard let (document, alive) = Self.readStatus(runDirectory: runDirectory) else {
            Log.out(json ? #"{"state":"never started"}"# : "not running (no status in \(runDirectory))")
            return 3
        }
        if json {
            Log.out(document.json)
            return alive ? 0 : 3
        }
        let state = alive ? "running" : "not running (last state: \(document["state"]?.stringValue ?? "?"))"
        Log.out("supervisor pid \(document["pid"]?.intValue ?? 0): \(state)")
        if let failure = document["failure"]?.stringValue { Log.out("  gave up: \(failure)") }
        let services = document["services"]?.arrayValue ?? []
        // Columns as wide as their widest entry: a state is never cut short.
        let names = services.map { $0["name"]?.stringValue ?? "?" }
        let states = services.map(Self.stateText)
        let nameWidth = names.map(\.count).max() ?? 0
        let stateWidth = states.map(\.count).max() ?? 0
        for (index, service) in services.enumerated() {
            var line = "  " + names[index].padding(toLength: nameWidth + 2, withPad: " ", startingAt: 0)
            line += states[index].padding(toLength: stateWidth, withPad: " ", startingAt: 0)
            if let pid = service["pid"]?.intValue { line += "  pid \(pid)" }
            if let uptime = service["uptime_ms"]?.intValue { line += "  up \(uptime / 1000) s" }
            line += "  restarts \(service["restarts"]?.intValue ?? 0)"
            if let exit = service["last_exit"]?.stringValue { line += "  last exit: \(exit)" }
            if let recovery = service["last_recovery_ms"]?.intValue { line += " (back in \(recovery) ms)" }
            if let counters = service["health"]?["counters"] {
                let names = ["sent", "received", "gaps", "rejected", "dead_lettered"]
                line += "  " + names.map { "\($0) \(counters[$0]?.intValue ?? 0)" }.joined(separator: " ")
            }
            if let ignored = service["health_ignored"]?.intValue { line += "  health ignored \(ignored)" }
            if let reason = service["reason"]?.stringValue { line += "  why: \(reason)" }
            Log.out(line)
        }
        return alive ? 0 : 3
    }

    /// A service's state in words, with its deadline: `backing off (restart in 300 ms)`. A
    /// failed service's reason ends its line, whole.
    private static func stateText(_ service: Value) -> String {
        let state = service["state"]?.stringValue ?? "?"
        if let due = service["restart_in_ms"]?.intValue { return "\(state) (restart in \(due) ms)" }
        return state
    }

    /// Asks the running supervisor to start, stop or restart one service, then waits until the
    /// status shows it done: running under a new pid, or stopped.
    static func control(_ verb: String, _ service: String, runDirectory: String, timeoutSeconds: Double) throws
        -> Int32
    {
        let before = Self.readStatus(runDirectory: runDirectory).flatMap { status in
            status.document["services"]?.arrayValue?.first { $0["name"]?.stringValue == service }?["pid"]?.intValue
        }
        let answer = try ControlSocket.send("\(verb) \(service)", runDirectory: runDirectory)
        guard answer.ok else { throw SupervisorError(answer.message) }
        let deadline = Clock.monotonicNs() + UInt64(timeoutSeconds * 1e9)
        while true {
            let entry = Self.readStatus(runDirectory: runDirectory)?.document["services"]?.arrayValue?.first {
                $0["name"]?.stringValue == service
            }
            let state = entry?["state"]?.stringValue
            let pid = entry?["pid"]?.intValue
            if verb == "stop", state == "stopped" || state == "failed" {
                Log.out("\(service) \(state ?? "")")
                return 0
            }
            if verb != "stop", state == "running", let pid, verb == "start" || pid != before {
                Log.out("\(service) running (pid \(pid))")
                return 0
            }
            guard Clock.monotonicNs() < deadline else {
                throw SupervisorError("\(answer.message), but \(service) is \(state ?? "?") after \(timeoutSeconds) s")
            }
            var poller = Poller()
            try poller.poll(timeoutMs: 50)
        }
    }

    static func down(runDirectory: String, timeoutSeconds: Double) throws -> Int32 {
        guard let (document, alive) = Self.readStatus(runDirectory: runDirectory), alive,
            let pid = document["pid"]?.intValue
        else {
            Log.out("not running")
            return 0
        }
        kill(Int32(pid), SIGTERM)
        let deadline = Clock.monotonicNs() + UInt64(timeoutSeconds * 1e9)
        while kill(Int32(pid), 0) == 0 {
            guard Clock.monotonicNs() < deadline else {
                throw SupervisorError("supervisor pid \(pid) still running after \(timeoutSeconds) s")
            }
            var poller = Poller()
            try poller.poll(timeoutMs: 20)
        }
        Log.out("stopped")
        return 0
    }
}
