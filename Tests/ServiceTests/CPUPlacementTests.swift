import BusTestSupport
import Foundation
import ServiceSupport
import Testing

/// `--cpus LIST`: every service pins all of its threads, the bus's I/O threads included.
@Suite struct CPUPlacementTests {
    /// The `Cpus_allowed_list` of every thread of process `pid`.
    static func threadCores(_ pid: Int32) throws -> [String] {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        return try tasks.map { task in
            let status = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") } ?? ""
            return line.split(separator: "\t").last.map(String.init) ?? ""
        }
    }

    /// The last core this test may use: on a one-core machine core 0, else one that is not the default.
    static func lastCore() throws -> Int {
        try #require(try CPUPlacement.allowed().cores.last)
    }

    @Test func cpuListsReadLikeTheKernelWritesThem() throws {
        #expect(try CPUSet(parsing: "0").cores == [0])
        #expect(try CPUSet(parsing: "0,2-3").cores == [0, 2, 3])
        #expect(try CPUSet(parsing: "3,1,1-2").description == "1-3")
        #expect(try CPUSet(parsing: "5,0,7-9,2").description == "0,2,5,7-9")
        #expect(CPUSet([4, -1, 1024, 2]).cores == [2, 4])
    }

    @Test(arguments: ["", "a", "3-1", "1024", "-1", "0,,1", "1-", "0-2-3"])
    func aMalformedCPUListIsAUsageErrorNamingIt(_ text: String) {
        #expect {
            try CPUSet(parsing: text)
        } throws: { error in
            "\(error)".contains("--cpus") && "\(error)".contains("'\(text)'")
        }
    }

    @Test(arguments: [
        ("bus-proxy", [String]()),
        ("gesture-recognizer", ["--scene", "deploy/scenes/demo.json"]),
        ("component-host", ["--scene", "deploy/scenes/demo.json"]),
        ("render-worker", ["--scene", "deploy/scenes/demo.json"]),
        ("input-source", ["run", "--scenario", "tap", "--loop", "--width", "390", "--height", "844"]),
    ])
    func everyThreadOfAServiceRunsOnItsCPUs(_ tool: String, _ arguments: [String]) throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let core = try Self.lastCore()
        // bus-proxy binds the proxy's endpoints, so it gets a bus file of its own.
        let bus = tool == "bus-proxy" ? proxy.directory + "/own.json" : proxy.busFile
        if tool == "bus-proxy" {
            try #"{"publish": "ipc://own/in", "subscribe": "ipc://own/out"}"#.write(
                toFile: bus, atomically: true, encoding: .utf8)
        }
        let service = try ChildProcess(tool, arguments + ["--cpus", "\(core)"], bus: bus)
        defer {
            service.signal(SIGTERM)
            _ = try? service.wait()
        }
        try service.waitForLine("ready")
        let cores = try Self.threadCores(service.pid)
        #expect(cores.count >= 2, "the main thread and ZeroMQ's I/O thread at least")
        #expect(cores.allSatisfy { $0 == "\(core)" }, "\(cores)")
        // No warning about the list (its start line names its arguments, --cpus among them).
        #expect(!service.stderr.contains("\(tool): --cpus"), "\(service.stderr)")
    }

    @Test func coresTheMachineLacksAreLeftOutWithAWarning() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let core = try Self.lastCore()
        let store = try ChildProcess(
            "memo-store", ["--db", proxy.directory + "/memo.sqlite", "--cpus", "\(core),1020-1023"], bus: proxy.busFile)
        defer {
            store.signal(SIGTERM)
            _ = try? store.wait()
        }
        try store.waitForLine("ready")
        #expect(try Self.threadCores(store.pid).allSatisfy { $0 == "\(core)" })
        #expect(
            store.stderr.contains("--cpus \(core),1020-1023: cores 1020-1023 not available here"), "\(store.stderr)")
    }

    @Test func withNoneOfItsCoresAvailableAServiceRunsUnpinnedAndSaysSo() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let allowed = try CPUPlacement.allowed().description
        let recognizer = try ChildProcess("gesture-recognizer", ["--cpus", "1023"], bus: proxy.busFile)
        defer {
            recognizer.signal(SIGTERM)
            _ = try? recognizer.wait()
        }
        try recognizer.waitForLine("ready")
        #expect(try Self.threadCores(recognizer.pid).allSatisfy { $0 == allowed })
        #expect(recognizer.stderr.contains("--cpus 1023: no such core available here"), "\(recognizer.stderr)")
        #expect(recognizer.stderr.contains("running unpinned"))
    }

    @Test func aMalformedCPUListStopsAServiceWithAUsageError() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let host = try ChildProcess("component-host", ["--cpus", "one"], bus: proxy.busFile)
        #expect(try host.wait() == Tool.usageStatus)
        #expect(host.stderr.contains("'one' in 'one' is not one"), "\(host.stderr)")
    }
}
