import BusSchema
import BusTestSupport
import Foundation
import Testing

/// Issue 24 point 6: `start|stop|restart SERVICE` and `logs` through the real supervisor.
@Suite struct OperatorTests {
    /// Whether `line` starts `2026-12-01T20:41:07.125Z name[pid]: ` or `… name (supervisor): `.
    static func isStamped(_ line: String) -> Bool {
        line.contains(#/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z [a-z-]+(\[\d+\]| \(supervisor\)): /#)
    }

    @Test func restartServiceGivesItANewProcessAndLeavesTheOthersAlone() throws {
        let run = try SupervisorRun(services: SupervisorProcessTests.pipeline)
        try run.process.waitForLine("ready", seconds: 60)
        let proxy = try run.pid("bus-proxy")
        let old = try run.pid("gesture-recognizer")
        let (status, stdout, stderr) = try run.verb(["restart", "gesture-recognizer"])
        #expect(status == 0, "\(stderr)")
        let new = try run.pid("gesture-recognizer")
        #expect(new != old)
        #expect(stdout.contains("gesture-recognizer running (pid \(new))"))
        #expect(try run.service("gesture-recognizer")["restarts"] == .int(0), "asked for, not a crash")
        #expect(try run.pid("bus-proxy") == proxy)

        #expect(try run.verb(["stop", "input-source"]).status == 0)
        #expect(try run.service("input-source")["state"] == .string("stopped"))
        let (started, startOutput, _) = try run.verb(["start", "input-source"])
        #expect(started == 0)
        #expect(startOutput.contains("input-source running"))
        let (unknown, _, unknownError) = try run.verb(["restart", "no-such"])
        #expect(unknown != 0)
        #expect(unknownError.contains("no service 'no-such' (services: bus-proxy, gesture-recognizer, input-source)"))
        #expect(try run.down() == 0)
    }

    @Test func logsFollowShowsNewLinesStampedAndNamed() throws {
        let run = try SupervisorRun(services: SupervisorProcessTests.pipeline)
        try run.process.waitForLine("ready", seconds: 60)
        let follow = try ChildProcess(
            "uibus-supervisor",
            [
                "logs", "gesture-recognizer", "-f", "--run-dir", run.directory + "/run", "--log-dir",
                run.directory + "/log",
            ])
        let old = try run.pid("gesture-recognizer")
        try waitUntil("the existing lines", seconds: 20) { follow.stdout.contains("gesture-recognizer[\(old)]: ready") }
        #expect(try run.verb(["restart", "gesture-recognizer"]).status == 0)
        let new = try run.pid("gesture-recognizer")
        try waitUntil("the restarted process's lines, followed", seconds: 20) {
            follow.stdout.contains("gesture-recognizer[\(new)]: ready")
        }
        let lines = follow.lines
        #expect(lines.contains { $0.contains("gesture-recognizer[\(new)]: starting: pid \(new)") }, "no start line")
        #expect(lines.contains { $0.contains("gesture-recognizer (supervisor): restarting gesture-recognizer") })
        for line in lines { #expect(Self.isStamped(line), "unstamped: \(line)") }
        follow.signal(SIGTERM)
        #expect(try follow.wait() == 0)

        // Every service merged, in time order; --since in the future shows nothing.
        let (status, merged, _) = try run.verb(["logs"])
        #expect(status == 0)
        let stamps = merged.split(separator: "\n").map { $0.prefix(24) }
        #expect(stamps == stamps.sorted())
        #expect(
            merged.contains("bus-proxy[") && merged.contains("input-source[") && merged.contains("supervisor[")
                && merged.contains("gesture-recognizer (supervisor): restarting"))
        #expect(try run.verb(["logs", "--since", "2999-01-01T00:00"]).stdout.isEmpty)
        #expect(try run.down() == 0)
    }
}
