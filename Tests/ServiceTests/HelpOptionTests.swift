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
    ])
    func helpPrintsTheUsageOnStdoutAndSucceeds(_ command: [String]) throws {
        let (status, stdout, stderr) = try ChildProcess.run(command[0], Array(command.dropFirst()))
        #expect(status == 0, "\(command): \(stderr)")
        #expect(stdout.hasPrefix("usage: \(command[0])") || stdout.contains("\nusage:"), "\(command): \(stdout)")
        #expect(stderr.isEmpty, "\(command): \(stderr)")
    }

    @Test func helpStopsParsingWhereverItStandsButNotAsAnOptionsValue() throws {
        #expect(throws: HelpRequest.self) { try Options(["touch", "--rate", "10", "-h", "--bogus"]) }
        var options = try Options(["--bus", "--help"])
        #expect(options.string("bus") == "--help")
    }
}
