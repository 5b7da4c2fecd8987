import Bus
import BusSchema
import Foundation
import Glibc
import ServiceSupport

/// The supervisor's command line: `up`, `status`, `down`, `logs SERVICE`.
public enum SupervisorCommand {
    public static let usage = """
        usage: uibus-supervisor VERB [options]
          up [--config FILE] [--bus FILE] [--bin DIR]   run the services in the foreground (prints `ready`)
          status [--json]                               each service: pid, state, uptime, restarts, last exit, health
          down [--timeout S]                            stop a running supervisor and wait for it
          logs SERVICE [--lines N]                      the end of a service's log
        common: [--run-dir DIR] (default var/run) [--log-dir DIR] (default var/log)
        """

    /// Runs the verb in `arguments`; returns the exit status.
    public static func run(_ arguments: [String], signals: SignalWatcher) throws -> Int32 {
        var options = try Options(arguments, flags: ["json"])
        guard let verb = options.positionals.first else { throw UsageError("missing verb") }
        let runDirectory = options.string("run-dir") ?? "var/run"
        let logDirectory = options.string("log-dir") ?? "var/log"
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
        case "logs":
            guard options.positionals.count >= 2 else { throw UsageError("logs needs a service name") }
            let lines = try options.int("lines") ?? 100
            try options.finish(maximumPositionals: 2)
            return try Self.logs(options.positionals[1], logDirectory: logDirectory, lines: lines)
        default:
            throw UsageError("unknown verb '\(verb)'")
        }
    }

    /// The directory of the running executable, where the sibling service executables are.
    static var ownDirectory: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    /// The status document and whether the supervisor that wrote it is still alive.
    static func readStatus(runDirectory: String) -> (document: Value, alive: Bool)? {
        guard let data = FileManager.default.contents(atPath: SupervisorHost.statusPath(runDirectory: runDirectory)),
            let document = try? data.withUnsafeBytes({ try JSONReader.parse($0) })
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
        for service in document["services"]?.arrayValue ?? [] {
            var line = "  \(service["name"]?.stringValue ?? "?")".padding(toLength: 22, withPad: " ", startingAt: 0)
            line += (service["state"]?.stringValue ?? "?").padding(toLength: 14, withPad: " ", startingAt: 0)
            if let pid = service["pid"]?.intValue { line += " pid \(pid)" }
            if let uptime = service["uptime_ms"]?.intValue { line += "  up \(uptime / 1000) s" }
            line += "  restarts \(service["restarts"]?.intValue ?? 0)"
            if let exit = service["last_exit"]?.stringValue { line += "  last exit: \(exit)" }
            if let recovery = service["last_recovery_ms"]?.intValue { line += " (back in \(recovery) ms)" }
            if let counters = service["health"]?["counters"] {
                let names = ["sent", "received", "gaps", "rejected", "dead_lettered"]
                line += "  " + names.map { "\($0) \(counters[$0]?.intValue ?? 0)" }.joined(separator: " ")
            }
            Log.out(line)
        }
        return alive ? 0 : 3
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

    static func logs(_ service: String, logDirectory: String, lines: Int) throws -> Int32 {
        let path = "\(logDirectory)/\(service).log"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SupervisorError("no log for '\(service)' at \(path)")
        }
        let text = String(decoding: data, as: UTF8.self)
        Log.write(
            text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines + 1).joined(separator: "\n"),
            to: STDOUT_FILENO)
        return 0
    }
}
