import Bus
import BusSchema
import BusTestSupport
import CZeroMQ
import Foundation
import GestureCore
import InputCore

/// A real bus for one test: `bus-proxy`, a `gesture-recognizer`, and helpers to start
/// `bus-tap echo` and `input-source` against it, all as child processes.
final class Pipeline {
    let proxy: ProxyProcess
    let recognizer: ChildProcess
    private let context: ZMQContext
    /// A raw XPUB on the proxy's input: counts every subscribe notice by prefix. The proxy and the
    /// probe are both verbose, so a second subscriber of a prefix shows up as a second notice.
    private let probe: ZMQSocket
    private var notices: [String: Int] = [:]
    /// Every echo and source started, so a failed test leaves none running.
    private var children: [ChildProcess] = []

    /// Starts the proxy and the recognizer (with `scene`, a file, if given, and `recognizerArguments`)
    /// and waits for `ready`.
    init(scene: String? = nil, recognizerArguments: [String] = []) throws {
        self.proxy = try ProxyProcess()
        self.recognizer = try ChildProcess(
            "gesture-recognizer", (scene.map { ["--scene", $0] } ?? []) + recognizerArguments, bus: self.proxy.busFile)
        try self.recognizer.waitForLine("ready")
        self.context = try ZMQContext()
        self.probe = try ZMQSocket(self.context, .xpub)
        try self.probe.setOption(ZMQ_XPUB_VERBOSE, 1)
        try self.probe.connect(self.proxy.config.publish)
    }

    var busFile: String { self.proxy.busFile }
    var directory: String { self.proxy.directory }

    /// Starts `bus-tap echo PREFIX --json [--count N]` and returns once its own subscription
    /// has reached the publishers (even if another subscriber already had the same prefix), so
    /// nothing published afterwards is missed.
    func echo(_ prefix: String, count: Int? = nil) throws -> ChildProcess {
        try self.readNotices()
        let before = self.notices[prefix, default: 0]
        let echo = try ChildProcess(
            "bus-tap", ["echo", prefix, "--json"] + (count.map { ["--count", "\($0)"] } ?? []), bus: self.busFile)
        self.children.append(echo)
        try waitUntil("echo \(prefix) subscribed", seconds: 30) {
            try self.readNotices()
            return self.notices[prefix, default: 0] > before
        }
        return echo
    }

    private func readNotices() throws {
        var frames = Frames()
        while try self.probe.receive(into: &frames, dontWait: true) {
            guard frames.count == 1, frames[0].first == 1 else { continue }
            self.notices[String(decoding: frames[0].dropFirst(), as: UTF8.self), default: 0] += 1
        }
    }

    /// Starts one more `gesture-recognizer ARGUMENTS` and waits for its `ready`.
    func startRecognizer(_ arguments: [String]) throws -> ChildProcess {
        let recognizer = try ChildProcess("gesture-recognizer", arguments, bus: self.busFile)
        self.children.append(recognizer)
        try recognizer.waitForLine("ready")
        return recognizer
    }

    /// Starts `input-source run ARGUMENTS`. It waits for the recognizer's subscription as long as
    /// a loaded test machine may need before it sends (a PUB drops what no subscription covers).
    func startSource(_ arguments: [String]) throws -> ChildProcess {
        let source = try ChildProcess(
            "input-source", ["run"] + arguments + ["--subscriber-wait-ms", "30000"], bus: self.busFile)
        self.children.append(source)
        return source
    }

    /// Runs `input-source run ARGUMENTS` to completion; returns its exit status and stderr.
    func runSource(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let source = try self.startSource(arguments)
        let status = try source.wait(seconds: 60)
        return (status, source.stderr)
    }

    /// Writes `text` to a file in the test's directory and returns its path.
    func write(_ text: String, name: String) throws -> String {
        let path = self.directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Stops whatever is still running, the recognizer and the proxy.
    func stop() throws {
        for child in self.children + [self.recognizer] where child.isRunning { child.signal(SIGTERM) }
        for child in self.children { _ = try? child.wait() }
        self.probe.close()
        try self.recognizer.wait()
        try self.proxy.stop()
    }
}

/// One `bus-tap echo --json` line.
struct EchoLine {
    var topic: String
    var mono: UInt64
    var epoch: UInt64
    /// The payload without `input`, which only the live recognizer knows (it names the touch
    /// frame that caused a gesture event), so it compares with the offline replay's.
    var payload: Value
    var input: Value?

    static func parse(_ echo: ChildProcess) throws -> [EchoLine] {
        try echo.lines.map { line in
            let value = try JSONReader.parse(line)
            var payload = value["payload"]?.mapValue ?? [:]
            let input = payload["input"]
            payload["input"] = nil
            return EchoLine(
                topic: value["topic"]?.stringValue ?? "", mono: UInt64(value["mono"]?.intValue ?? 0),
                epoch: UInt64(value["epoch"]?.intValue ?? 0), payload: .map(payload), input: input)
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
