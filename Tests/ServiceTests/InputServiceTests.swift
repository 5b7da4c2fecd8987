import BusSchema
import BusTestSupport
import Foundation
import InputCore
import InputService
import MessageFixtures
import ServiceSupport
import Testing

/// `input-source run` on its own: the stuck-touch guard's timer, and scenes given to the recognizer.
@Suite struct InputServiceTests {
    @Test func aContactSilentForTheStuckTimeoutIsCancelledByTheTimerBeforeTheNextFrame() throws {
        let pipeline = try Pipeline()
        defer { try? pipeline.stop() }
        let lines = [
            TouchScriptLine.line(0, 0, .began, 100, 100),
            TouchScriptLine.line(1000, 1, .began, 300, 300),
            TouchScriptLine.line(1080, 1, .ended, 300, 300),
            TouchScriptLine.line(1200, 0, .ended, 100, 100),
        ]
        let path = try pipeline.write(TouchScript(lines: lines).jsonLines, name: "stuck.jsonl")
        let frames = try pipeline.echo("touch/d0/", count: 4)
        let health = try pipeline.echo("sys/health/input-source/")
        let source = try pipeline.runSource(["--script", path, "--stuck-timeout-ms", "200"])
        #expect(source.status == 0, "\(source.stderr)")
        #expect(try frames.wait() == 0)
        let received = try EchoLine.parse(frames).map(\.payload)
        // Cancelled at 200 ms; the source's later reports of id 0 (stationary, ended) are dropped.
        #expect(received.map { $0["t_ns"] } == [0, 200_000_000, 1_000_000_000, 1_080_000_000].map { Value.int($0) })
        #expect(received.map { $0["frame"] } == [1, 2, 3, 4].map { Value.int($0) })
        let cancel = received[1]["contacts"]?.arrayValue ?? []
        #expect(cancel.map { $0["id"] } == [.int(0)])
        #expect(cancel.map { $0["phase"] } == [.string("cancelled")])
        #expect(received[2]["contacts"]?.arrayValue?.map { $0["id"] } == [.int(1)])
        try waitUntil("the stopping report") {
            try EchoLine.parse(health).contains { $0.payload["state"] == .string("stopping") }
        }
        let stopping = try #require(try EchoLine.parse(health).last { $0.payload["state"] == .string("stopping") })
        #expect(stopping.payload["extra"]?["stuck_cancellation_frames"] == .int(1))
        #expect(stopping.payload["extra"]?["frames_sent"] == .int(4))
        health.signal(SIGTERM)
        try health.wait()
    }

    @Test func aScenePublishedOnUISceneReplacesTheRecognizersScene() throws {
        let pipeline = try Pipeline()
        defer { try? pipeline.stop() }
        let scene = try String(
            contentsOfFile: ChildProcess.repositoryRoot + "/Tests/data/scenes/minimal.json", encoding: .utf8)
        let health = try pipeline.echo("sys/health/gesture-recognizer/")
        let (status, _, stderr) = try ChildProcess.run(
            "bus-tap", ["pub", "ui/scene/", "--schema", "scene", "--major", "2", scene], bus: pipeline.busFile)
        #expect(status == 0, "\(stderr)")
        try waitUntil("the scene loaded", seconds: 15) {
            try EchoLine.parse(health).contains { $0.payload["extra"]?["scenes_loaded"] == .int(1) }
        }
        let gestures = try pipeline.echo("gesture/", count: 2)
        let path = try pipeline.write(
            TouchScript(lines: ScenarioGenerator().tap(x: 200, y: 50)).jsonLines, name: "pad-tap.jsonl")
        let source = try pipeline.runSource(["--script", path])
        #expect(source.status == 0, "\(source.stderr)")
        #expect(try gestures.wait() == 0)
        let lines = try EchoLine.parse(gestures)
        #expect(lines.map(\.topic) == ["gesture/d0/pad/padDown/", "gesture/d0/pad/padDown/"])
        #expect(lines.map { $0.payload["state"] } == [.string("began"), .string("ended")])
        health.signal(SIGTERM)
        try health.wait()
    }

    @Test func maxPaceSendsEveryFrameOfAScenarioAndExits() throws {
        let pipeline = try Pipeline()
        defer { try? pipeline.stop() }
        let lines = try #require(ScenarioCatalog.lines(named: "pinch-out", device: "d0"))
        let expected = TouchScriptFramer.frames(for: TouchScript(lines: lines)).frames
        let frames = try pipeline.echo("touch/d0/", count: expected.count)
        let source = try pipeline.runSource(["--scenario", "pinch-out", "--pace", "max"])
        #expect(source.status == 0, "\(source.stderr)")
        #expect(try frames.wait() == 0)
        let received = try EchoLine.parse(frames).map(\.payload)
        #expect(received == (try expected.map { try JSONReader.parse($0.value.json) }))
    }

    /// Issue 20 point 10: a script plays as it is read, a line at a time. One larger than any file
    /// read whole (`TextFile`) plays every frame while the source's memory stays far below the
    /// file's size, and its over-long lines are reported by file and number and skipped.
    @Test func aScriptLargerThanAnyWholeReadPlaysALineAtATimeInBoundedMemory() throws {
        let pipeline = try Pipeline()
        defer { try? pipeline.stop() }
        let lines = try #require(ScenarioCatalog.lines(named: "pinch-out", device: "d0")).map { $0.value.json }
        let expected = TouchScriptFramer.frames(
            for: TouchScript(lines: try #require(ScenarioCatalog.lines(named: "pinch-out", device: "d0")))
        ).frames
        // After the first line, junk lines of twice the line limit, more bytes in all than a whole read takes.
        let junkLines = TextFile.defaultMaxBytes / (2 * LineReader.defaultMaxLineBytes) + 1
        let path = pipeline.directory + "/big.jsonl"
        #expect(FileManager.default.createFile(atPath: path, contents: Data((lines[0] + "\n").utf8)))
        let file = try #require(FileHandle(forWritingAtPath: path))
        try file.seekToEnd()
        let junk = Data(repeating: UInt8(ascii: "x"), count: 2 * LineReader.defaultMaxLineBytes) + Data("\n".utf8)
        for _ in 0..<junkLines { try file.write(contentsOf: junk) }
        try file.write(contentsOf: Data(lines.dropFirst().map { $0 + "\n" }.joined().utf8))
        // Then a touch ten minutes on, so that the source still runs, the file read through, when
        // its memory is looked at.
        try file.write(
            contentsOf: Data(#"{"t_ms": 600000, "device": "d0", "id": 9, "phase": "began", "x": 1, "y": 1}"#.utf8))
        try file.close()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > TextFile.defaultMaxBytes)

        let frames = try pipeline.echo("touch/d0/", count: expected.count)
        let source = try pipeline.startSource(["--script", path])
        #expect(try frames.wait(seconds: 120) == 0, "\(source.stderr)")
        let received = try EchoLine.parse(frames).map(\.payload)
        #expect(received == (try expected.map { try JSONReader.parse($0.value.json) }))
        let status = try String(contentsOfFile: "/proc/\(source.pid)/status", encoding: .utf8)
        let peakKiB = try #require(
            status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?.split(separator: " ").dropFirst().first
                .flatMap { Int($0) })
        #expect(peakKiB * 1024 < size / 2, "peak RSS \(peakKiB) KiB for a \(size)-byte script")
        source.signal(SIGTERM)
        #expect(try source.wait() == 0, "\(source.stderr)")
        for line in [2, 1 + junkLines] {
            #expect(
                source.stderr.contains(
                    "\(path): line \(line): longer than \(LineReader.defaultMaxLineBytes) bytes; skipped"),
                "\(source.stderr.prefix(500))")
        }
    }

    @Test func aFloodPublishesEveryDeviceOnItsOwnTopicUntilStopped() throws {
        let pipeline = try Pipeline()
        defer { try? pipeline.stop() }
        let last = try pipeline.echo("touch/d2/", count: 5)
        let source = try pipeline.startSource(["--flood", "--devices", "3", "--rate", "200"])
        #expect(try last.wait() == 0)
        #expect(try EchoLine.parse(last).map { $0.payload["frame"] } == (1...5).map { Value.int($0) }, "\(last.stdout)")
        source.signal(SIGTERM)
        #expect(try source.wait() == 0, "\(source.stderr)")
    }

    @Test func badCommandLinesAreUsageErrors() throws {
        let bus = ChildProcess.repositoryRoot + "/deploy/bus.json"
        let none = try ChildProcess.run("input-source", ["run"], bus: bus)
        #expect(none.0 == 64 && none.2.contains("run needs one of --script"))
        let pace = try ChildProcess.run("input-source", ["run", "--scenario", "tap", "--pace", "slow"], bus: bus)
        #expect(pace.0 == 64 && pace.2.contains("--pace is recorded or max"))
        let scenario = try ChildProcess.run("input-source", ["run", "--scenario", "juggle"], bus: bus)
        #expect(scenario.0 == 64 && scenario.2.contains("unknown scenario 'juggle'"))
        let option = try ChildProcess.run("gesture-recognizer", ["--colour", "red"], bus: bus)
        #expect(option.0 == 64 && option.2.contains("unknown option --colour"))
    }
}
