import Bus
import BusSchema
import BusTestSupport
import CZeroMQ
import Foundation

/// A real bus for one test: `bus-proxy` and a live `render-worker` on it, with helpers to
/// publish states through `bus-tap pub` and to collect what the worker publishes.
final class RenderBus {
    static let scene = ChildProcess.repositoryRoot + "/Tests/data/scenes/minimal.json"

    let proxy: ProxyProcess
    private(set) var worker: ChildProcess
    let snapshotDirectory: String
    let scenePath: String
    private let workerArguments: [String]
    private let context: ZMQContext
    /// A raw XPUB on the proxy's input: counts subscribe notices by prefix, so a test knows when
    /// an echo's subscription has reached the publishers.
    private let probe: ZMQSocket
    private var notices: [String: Int] = [:]
    private var children: [ChildProcess] = []
    private var stopped = false

    /// Starts the proxy and `render-worker --scene SCENE ARGUMENTS`; waits for `ready`.
    ///
    /// - Parameter scene: a scene document to write into the test's directory; nil uses minimal.json
    ///   (one 400×100 number pad, instance `pad1`).
    init(_ arguments: [String] = [], scene: String? = nil) throws {
        self.proxy = try ProxyProcess()
        self.snapshotDirectory = self.proxy.directory + "/snapshots"
        var scenePath = Self.scene
        if let scene {
            scenePath = self.proxy.directory + "/scene.json"
            try scene.write(toFile: scenePath, atomically: true, encoding: .utf8)
        }
        self.scenePath = scenePath
        self.workerArguments = ["--scene", scenePath, "--snapshot-dir", self.snapshotDirectory] + arguments
        self.worker = try ChildProcess("render-worker", self.workerArguments, bus: self.proxy.busFile)
        try self.worker.waitForLine("ready", seconds: 30)
        self.context = try ZMQContext()
        self.probe = try ZMQSocket(self.context, .xpub)
        try self.probe.setOption(ZMQ_XPUB_VERBOSE, 1)
        try self.probe.connect(self.proxy.config.publish)
    }

    /// Starts `bus-tap echo PREFIX --json` and returns once its subscription reached the publishers.
    func echo(_ prefix: String) throws -> ChildProcess {
        try self.readNotices()
        let before = self.notices[prefix, default: 0]
        let echo = try ChildProcess("bus-tap", ["echo", prefix, "--json"], bus: self.proxy.busFile)
        self.children.append(echo)
        try waitUntil("echo \(prefix) subscribed", seconds: 30) {
            try self.readNotices()
            return self.notices[prefix, default: 0] > before
        }
        return echo
    }

    /// Kills the worker (SIGKILL: no goodbye) and starts another with the same arguments.
    func restartWorker() throws {
        self.worker.signal(SIGKILL)
        _ = try self.worker.wait()
        self.worker = try ChildProcess("render-worker", self.workerArguments, bus: self.proxy.busFile)
        try self.worker.waitForLine("ready", seconds: 30)
    }

    /// Starts `tool --scene <the worker's scene>` (`component-host`, `gesture-recognizer`) and
    /// waits for `ready`.
    func service(_ tool: String) throws -> ChildProcess {
        let service = try ChildProcess(tool, ["--scene", self.scenePath], bus: self.proxy.busFile)
        self.children.append(service)
        try service.waitForLine("ready", seconds: 30)
        return service
    }

    /// Publishes `json` on `topic` with `bus-tap pub` (`count` times, as fast as it can).
    func pub(_ topic: String, schema: String, json: String, count: Int = 1) throws {
        let (status, _, stderr) = try ChildProcess.run(
            "bus-tap", ["pub", topic, "--schema", schema, json, "--count", "\(count)", "--wait-ms", "10000"],
            bus: self.proxy.busFile)
        guard status == 0 else { throw TimedOut(description: "bus-tap pub failed (\(status)): \(stderr)") }
    }

    /// Publishes a `state.numberPad` for `pad1` with `highlighted` and its popup, as the machine
    /// does while a finger is down (nil: none).
    func padState(highlighted: Int?, count: Int = 1) throws {
        let popup = highlighted.map { #"{"kind": "inner", "digit": \#($0)}"# } ?? "null"
        let json = """
            {"instance": "pad1", "t_ms": 0, "layout": "startWithZero", "enabled": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
             "highlighted": \(highlighted.map(String.init) ?? "null"), "popup": \(popup), "touched_string": "",
             "sequential_string": ""}
            """
        try self.pub("ui/numberPad/pad1/", schema: "state.numberPad", json: json, count: count)
    }

    /// The payloads an echo printed so far (whole lines only: a long one may be half written).
    static func payloads(_ echo: ChildProcess) throws -> [Value] {
        let text = echo.stdout
        let complete = text[..<(text.lastIndex(of: "\n") ?? text.startIndex)]
        return try complete.split(separator: "\n").map { try JSONReader.parse(String($0))["payload"] ?? .null }
    }

    /// Waits until an echo of `render/frame/` has a frame whose `state_seq` is `stateSeq`; returns every frame.
    static func frames(_ echo: ChildProcess, untilStateSeq stateSeq: Int, seconds: Double = 20) throws -> [Value] {
        var frames: [Value] = []
        try waitUntil("a frame with state_seq \(stateSeq)", seconds: seconds) {
            frames = try Self.payloads(echo)
            return frames.contains { $0["state_seq"]?.intValue == Int64(stateSeq) }
        }
        return frames
    }

    private func readNotices() throws {
        var frames = Frames()
        while try self.probe.receive(into: &frames, dontWait: true) {
            guard frames.count == 1, frames[0].first == 1 else { continue }
            self.notices[String(decoding: frames[0].dropFirst(), as: UTF8.self), default: 0] += 1
        }
    }

    /// Stops the echoes, the worker and the proxy; returns the worker's exit status. Once only:
    /// later calls (the tests' `defer`) return it again without signalling anything.
    @discardableResult
    func stop() throws -> Int32 {
        if self.stopped { return self.worker.isRunning ? -1 : try self.worker.wait() }
        self.stopped = true
        for child in self.children + [self.worker] where child.isRunning { child.signal(SIGTERM) }
        for child in self.children { _ = try? child.wait() }
        self.probe.close()
        let status = try self.worker.wait()
        try self.proxy.stop()
        return status
    }
}
