import Bus
import BusSchema
import BusTestSupport
import Foundation
import GestureCore
import InputCore

/// A real bus for one test: `bus-proxy`, a `gesture-recognizer`, and helpers to start
/// `bus-tap echo` and `input-source` against it, all as child processes.
final class Pipeline {
    let proxy: ProxyProcess
    let recognizer: ChildProcess
    private let context: ZMQContext
    private let probe: Publisher

    /// Starts the proxy and the recognizer (with `scene`, a file, if given) and waits for `ready`.
    init(scene: String? = nil) throws {
        self.proxy = try ProxyProcess()
        self.recognizer = try ChildProcess(
            "gesture-recognizer", scene.map { ["--scene", $0] } ?? [], bus: self.proxy.busFile)
        try self.recognizer.waitForLine("ready")
        self.context = try ZMQContext()
        self.probe = try Publisher(context: self.context, endpoint: self.proxy.config.publish, name: "probe")
    }

    var busFile: String { self.proxy.busFile }
    var directory: String { self.proxy.directory }

    /// Starts `bus-tap echo PREFIX --json [--count N]` and returns once its subscription has
    /// reached the proxy (a publisher sees it), so nothing published afterwards is missed.
    func echo(_ prefix: String, count: Int? = nil) throws -> ChildProcess {
        let echo = try ChildProcess(
            "bus-tap", ["echo", prefix, "--json"] + (count.map { ["--count", "\($0)"] } ?? []), bus: self.busFile)
        let topic = try Topic(prefix + "probe/")
        try waitUntil("echo \(prefix) subscribed") {
            try self.probe.drainSubscriptions()
            return self.probe.hasSubscriber(for: topic)
        }
        return echo
    }

    /// Runs `input-source run ARGUMENTS` to completion; returns its exit status and stderr.
    func runSource(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let source = try ChildProcess("input-source", ["run"] + arguments, bus: self.busFile)
        let status = try source.wait(seconds: 30)
        return (status, source.stderr)
    }

    /// Writes `text` to a file in the test's directory and returns its path.
    func write(_ text: String, name: String) throws -> String {
        let path = self.directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Stops the recognizer and the proxy.
    func stop() throws {
        self.probe.socket.close()
        self.recognizer.signal(SIGTERM)
        try self.recognizer.wait()
        try self.proxy.stop()
    }
}

/// One `bus-tap echo --json` line.
struct EchoLine {
    var topic: String
    var mono: UInt64
    var payload: Value

    static func parse(_ echo: ChildProcess) throws -> [EchoLine] {
        try echo.lines.map { line in
            let value = try JSONReader.parse(line)
            return EchoLine(
                topic: value["topic"]?.stringValue ?? "", mono: UInt64(value["mono"]?.intValue ?? 0),
                payload: value["payload"] ?? .null)
        }
    }
}

/// What the recognizers make of touch-script lines offline (the reference for the live pipeline).
enum Offline {
    static func events(_ lines: [TouchScriptLine], scene: GestureScene = .standard()) -> [GestureEvent] {
        GestureEngine.replay(TouchScriptFramer.frames(for: TouchScript(lines: lines)).frames, scene: scene)
    }

    /// The JSON form of `events`, parsed back so numbers compare as the echo's do.
    static func payloads(_ events: [GestureEvent]) throws -> [Value] {
        try events.map { try JSONReader.parse($0.value.json) }
    }
}
