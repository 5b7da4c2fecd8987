import BusSchema
import BusTestSupport
import Foundation
import Testing

/// A checkout of its own in a temporary directory: `deploy/bus.json`, `deploy/services.json` and
/// the tools under `.build/debug/`, so that a stack can run with the defaults (`var/run`,
/// `var/log`, the checkout's bus file) without touching the real checkout's.
final class ScratchCheckout {
    let root: String
    /// Where the checkout's own copies of the tools are: they find the checkout from there.
    var bin: String { self.root + "/.build/debug" }

    init(services: String) throws {
        self.root =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "uibus-co-\(UUID().uuidString.prefix(8))"
            ).path
        try FileManager.default.createDirectory(atPath: self.root + "/deploy", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: self.bin, withIntermediateDirectories: true)
        try #"{"root": "..", "publish": "ipc://var/run/bus-in", "subscribe": "ipc://var/run/bus-out"}"#.write(
            toFile: self.root + "/deploy/bus.json", atomically: true, encoding: .utf8)
        try #"{"services": [\#(services)]}"#.write(
            toFile: self.root + "/deploy/services.json", atomically: true, encoding: .utf8)
        for tool in ["uibus-supervisor", "bus-tap"] {
            // A hard link is the tool itself at another path (a symbolic link would resolve back).
            let source = ChildProcess.binDirectory + "/" + tool
            do {
                try FileManager.default.linkItem(atPath: source, toPath: self.bin + "/" + tool)
            } catch {
                try FileManager.default.copyItem(atPath: source, toPath: self.bin + "/" + tool)
            }
        }
    }

    /// This process's environment without `UIBUS_BUS`, so that the tools look for the bus themselves.
    static var environment: [String: String] {
        ProcessInfo.processInfo.environment.filter { $0.key != "UIBUS_BUS" }
    }

    /// Runs one of the checkout's tools in `directory`.
    func run(_ tool: String, _ arguments: [String], in directory: String) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try ChildProcess.run(self.bin + "/" + tool, arguments, directory: directory, environment: Self.environment)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: self.root)
    }
}

/// Issue 24 point 2: a running stack is found from any directory, as `supervisorctl` and
/// `docker compose` find theirs.
@Suite struct AnyDirectoryTests {
    @Test func statusLogsBusTapAndDownFindTheCheckoutsStackFromAnotherDirectory() throws {
        let checkout = try ScratchCheckout(services: #"{"name": "bus-proxy", "command": ["bus-proxy"]}"#)
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent(
            "uibus-elsewhere-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        // `up` runs in the checkout with every default: var/run, var/log, deploy/services.json.
        let up = try ChildProcess(
            checkout.bin + "/uibus-supervisor", ["up", "--bin", ChildProcess.binDirectory], directory: checkout.root,
            environment: ScratchCheckout.environment)
        defer {
            if up.isRunning {
                up.signal(SIGTERM)
                _ = try? up.wait(seconds: 30)
            }
        }
        try up.waitForLine("ready", seconds: 60)

        let status = try checkout.run("uibus-supervisor", ["status", "--json"], in: elsewhere)
        #expect(status.status == 0, "\(status.stdout) \(status.stderr)")
        let document = try JSONReader.parse(status.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        let proxy = try #require(document["services"]?.arrayValue?.first { $0["name"] == .string("bus-proxy") })
        #expect(proxy["state"] == .string("running"))
        let pid = try #require(proxy["pid"]?.intValue)

        let logs = try checkout.run("uibus-supervisor", ["logs", "bus-proxy"], in: elsewhere)
        #expect(logs.status == 0, "\(logs.stderr)")
        #expect(logs.stdout.contains("bus-proxy[\(pid)]: ready"), "\(logs.stdout)")

        // bus-tap finds the same bus: the running proxy's own health, from its pid.
        let health = try checkout.run(
            "bus-tap", ["echo", "sys/health/bus-proxy/", "--once", "--json", "--duration", "10"], in: elsewhere)
        #expect(health.status == 0, "\(health.stderr)")
        let message = try JSONReader.parse(health.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(message["payload"]?["pid"]?.intValue == pid, "\(health.stdout)")

        let down = try checkout.run("uibus-supervisor", ["down"], in: elsewhere)
        #expect(down.status == 0, "\(down.stderr)")
        #expect(down.stdout.contains("stopped"), "\(down.stdout)")
        #expect(try up.wait(seconds: 30) == 0)
        #expect(kill(Int32(pid), 0) != 0, "the proxy went down with its supervisor")
    }
}
