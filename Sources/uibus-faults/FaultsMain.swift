import FaultInjection
import Foundation
import ServiceSupport

/// `uibus-faults`: the fault drill of ``FaultDrill`` with the plan on the command line.
@main
enum FaultsMain {
    static let usage = """
        usage: uibus-faults [--bin DIR] [--root DIR] [--dir DIR] [--devices N] [--rate R] [--memo-rate R]
                            [--settle-ms MS] [--stop-ms MS] [--soak SECONDS] [--out FILE]
        --rate is touch frames per second over all devices; --out also writes the JSON report to FILE.
        Runs the whole stack under uibus-supervisor with a touch flood and a memo driver, kills each
        service (SIGKILL), pauses two (SIGSTOP/SIGCONT), and reports recovery, loss per hop and memos.
        --soak: instead, SECONDS at a realistic load (default 4 devices × 120 frames/s, 1 memo command
        a second: 20 creates, then edits of those memos) with a random fault every 2–5 s (kill, pause or restart of a random service); reports
        memos lost and applied twice, whether the stack stopped, and each service's memory and
        descriptors in the first and the last minute. Exits 1 unless every rule held.
        """
    static let commandLine = CommandLineSpec(verbs: [
        "": [
            .value("bin", "DIR", "the executables (default: this one's directory)"),
            .value("root", "DIR", "the checkout to run in (default: the working directory)"),
            .value("dir", "DIR", "the drill's run directory (default: a temporary one)"),
            .value("devices", "N", "touch devices"), .value("rate", "R", "touch frames per second over all devices"),
            .value("memo-rate", "R", "memo commands per second"),
            .value("settle-ms", "MS", "how long to wait after each fault"),
            .value("stop-ms", "MS", "how long a paused service stays paused"),
            .value("soak", "SECONDS", "a soak of SECONDS (at least 120) instead of the drill"),
            .value("out", "FILE", "also write the JSON report to FILE"),
        ]
    ])

    static func main() {
        Tool.main("uibus-faults", usage: Self.usage) {
            var options = try Self.commandLine.parse(Array(CommandLine.arguments.dropFirst()))
            let binDirectory =
                options.string("bin")
                ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
                .deletingLastPathComponent().path
            let root = options.string("root") ?? FileManager.default.currentDirectoryPath
            let directory =
                options.string("dir")
                ?? FileManager.default.temporaryDirectory
                .appendingPathComponent("uibus-faults-\(getpid())").path
            var plan = FaultPlan(root: root, binDirectory: binDirectory, directory: directory)
            plan.devices = try options.int("devices") ?? plan.devices
            if let rate = try options.double("rate") { plan.ratePerDevice = rate / Double(max(plan.devices, 1)) }
            plan.memoRate = try options.double("memo-rate") ?? plan.memoRate
            plan.settleMs = try options.int("settle-ms") ?? plan.settleMs
            plan.stopMs = try options.int("stop-ms") ?? plan.stopMs
            let soakSeconds = try options.int("soak")
            if soakSeconds != nil {
                plan.devices = try options.int("devices") ?? 4
                plan.ratePerDevice = try options.double("rate").map { $0 / Double(max(plan.devices, 1)) } ?? 120
                plan.memoRate = try options.double("memo-rate") ?? 1
                // A memo edit a second on a board that keeps its size: growth is then not the board's.
                plan.memoEdits = 20
            }
            let jsonPath = options.string("out")
            try options.finish(maximumPositionals: 0)
            let drill = FaultDrill(plan: plan)
            drill.log = { Log.error("uibus-faults", $0) }
            if let soakSeconds {
                guard soakSeconds >= 120 else { throw UsageError("--soak needs at least 120 s (two windows of 60 s)") }
                var soakPlan = SoakDrill.Plan()
                soakPlan.durationMs = soakSeconds * 1000
                let soak = SoakDrill(drill: drill, plan: soakPlan)
                soak.log = drill.log
                let report = try soak.run()
                if let jsonPath { try report.json.write(toFile: jsonPath, atomically: true, encoding: .utf8) }
                Log.out(report.json)
                if !report.passed { exit(1) }
                return
            }
            let report = try drill.run()
            if let jsonPath {
                try report.json.write(toFile: jsonPath, atomically: true, encoding: .utf8)
            }
            Log.out(report.json)
            if report.memo.check.lost > 0 || report.memo.check.appliedTwice > 0 { exit(1) }
        }
    }
}
