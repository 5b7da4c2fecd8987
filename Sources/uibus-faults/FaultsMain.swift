import FaultInjection
import Foundation
import ServiceSupport

/// `uibus-faults`: the fault drill of ``FaultDrill`` with the plan on the command line.
@main
enum FaultsMain {
    static let usage = """
        usage: uibus-faults [--bin DIR] [--root DIR] [--dir DIR] [--devices N] [--rate R] [--memo-rate R]
                            [--settle-ms MS] [--stop-ms MS] [--out FILE]
        --rate is touch frames per second over all devices; --out also writes the JSON report to FILE.
        Runs the whole stack under uibus-supervisor with a touch flood and a memo driver, kills each
        service (SIGKILL), pauses two (SIGSTOP/SIGCONT), and reports recovery, loss per hop and memos.
        """

    static func main() {
        Tool.main("uibus-faults", usage: Self.usage) {
            var options = try Options(Array(CommandLine.arguments.dropFirst()))
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
            let jsonPath = options.string("out")
            try options.finish(maximumPositionals: 0)
            let drill = FaultDrill(plan: plan)
            drill.log = { Log.error("uibus-faults", $0) }
            let report = try drill.run()
            if let jsonPath {
                try report.json.write(toFile: jsonPath, atomically: true, encoding: .utf8)
            }
            Log.out(report.json)
            if report.check.lost > 0 || report.check.appliedTwice > 0 { exit(1) }
        }
    }
}
