import BusTestSupport
import ServiceSupport
import Testing

/// `--help` and `-h`: every tool prints its usage on stdout and exits 0, whatever else was given.
@Suite struct HelpOptionTests {
    @Test(arguments: [
        ["bus-proxy", "--help"],
        ["bus-tap", "--help"],
        ["bus-tap", "echo", "ui/", "-h"],
        ["bus-flood", "touch", "--rate", "10", "--help"],
        ["gesture-recognizer", "--scene", "deploy/scenes/demo.json", "--help"],
        ["component-host", "--help"],
        ["input-source", "run", "--help"],
        ["render-worker", "--help"],
        ["render-worker", "blur", "--help"],
        ["memo-store", "--help"],
        ["memo-store", "export", "--db", "x.sqlite", "-h"],
        ["uibus-supervisor", "--help"],
        ["uibus-faults", "--help"],
        ["uibus-fuzz", "--help"],
        ["uibus-report", "--help"],
        ["uibus-view", "--help"],
    ])
    func helpPrintsTheUsageOnStdoutAndSucceeds(_ command: [String]) throws {
        let (status, stdout, stderr) = try ChildProcess.run(command[0], Array(command.dropFirst()))
        #expect(status == 0, "\(command): \(stderr)")
        #expect(stdout.hasPrefix("usage: \(command[0])") || stdout.contains("\nusage:"), "\(command): \(stdout)")
        #expect(stderr.isEmpty, "\(command): \(stderr)")
    }

    /// Issue 24 point 4, for every verb of every tool: `VERB --help` has the verb's option table,
    /// a typo of one of its options is a usage error (64) naming the option meant, and
    /// `--version` answers there too.
    @Test(arguments: [
        (["bus-proxy"], "cpus"), (["bus-proxy", "keys"], "dir"), (["bus-tap", "echo"], "filter"),
        (["bus-tap", "record"], "compression"), (["bus-flood", "memo"], "clients"),
        (["gesture-recognizer"], "device-prefixes"), (["gesture-recognizer", "replay"], "touches"),
        (["component-host"], "scene"), (["component-host", "replay"], "gestures"),
        (["input-source", "run"], "subscriber-wait-ms"), (["input-source", "convert"], "desc"),
        (["input-source", "scenario"], "name"), (["input-source", "flood"], "count"),
        (["render-worker"], "image-quality"), (["render-worker", "blur"], "sigma"),
        (["render-worker", "bench-blur"], "warmup"), (["render-worker", "bench-encode"], "runs"),
        (["render-worker", "render"], "state"), (["render-worker", "demo"], "memos"),
        (["memo-store"], "max-pages"), (["memo-store", "export"], "format"), (["memo-store", "check"], "db"),
        (["memo-store", "apply"], "db"), (["uibus-supervisor", "up"], "config"),
        (["uibus-supervisor", "status"], "json"), (["uibus-supervisor", "logs"], "since"),
        (["uibus-supervisor", "restart"], "timeout"), (["uibus-view"], "listen"), (["uibus-faults"], "soak"),
        (["uibus-fuzz", "run"], "inputs"), (["uibus-report"], "recording"), (["bus-bench", "codec"], "iterations"),
        (["bus-bench", "hop"], "endpoint"), (["gesture-bench"], "frames"), (["memo-bench"], "only"),
        (["component-bench"], "events"),
    ])
    func everyVerbExplainsRefusesAndVersionsItsOptions(command: [String], option: String) throws {
        let tool = command[0]
        let verb = Array(command.dropFirst())
        let (status, stdout, stderr) = try ChildProcess.run(tool, verb + ["--help"])
        #expect(status == 0 && stderr.isEmpty, "\(command): \(stderr)")
        #expect(stdout.contains("\noptions:\n") && stdout.contains("\n  --\(option)"), "\(command): \(stdout)")
        // The last two letters swapped: one edit away.
        let typo = String(option.dropLast(2) + option.suffix(2).reversed())
        let (typoStatus, typoOut, typoError) = try ChildProcess.run(tool, verb + ["--\(typo)", "1"])
        #expect(typoStatus == Tool.usageStatus && typoOut.isEmpty, "\(command): \(typoError)")
        #expect(typoError.contains("unknown option --\(typo) (did you mean --\(option)?)"), "\(command): \(typoError)")
        let (versionStatus, version, _) = try ChildProcess.run(tool, verb + ["--version"])
        #expect(versionStatus == 0 && version == "\(tool) \(Tool.version)\n", "\(command): \(version)")
    }

    @Test func anUnknownVerbIsAUsageErrorNamingTheNearestOne() throws {
        let (status, _, stderr) = try ChildProcess.run("input-source", ["convrt", "x.jsonl"])
        #expect(status == Tool.usageStatus)
        #expect(stderr.contains("unknown verb 'convrt' (did you mean convert?)"), "\(stderr)")
        let (missing, _, missingError) = try ChildProcess.run("uibus-supervisor", [])
        #expect(missing == Tool.usageStatus)
        #expect(missingError.contains("missing verb (down, logs, restart, start, status, stop, up)"), "\(missingError)")
    }

    @Test func helpStopsParsingWhereverItStandsButNotAsAnOptionsValue() throws {
        #expect(throws: HelpRequest.self) { try Options(["touch", "--rate", "10", "-h", "--bogus"]) }
        var options = try Options(["--bus", "--help"])
        #expect(options.string("bus") == "--help")
    }
}
