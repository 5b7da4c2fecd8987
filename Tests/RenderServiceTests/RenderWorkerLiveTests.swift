import Bus
import BusSchema
import BusTestSupport
import Foundation
import RenderCore
import Testing

/// The live `render-worker` on a real bus: states in, frames, snapshots and health out.
@Suite struct RenderWorkerLiveTests {
    @Test func statesProduceFramesOfTheSceneSizeWhoseChecksumFollowsTheState() throws {
        let bus = try RenderBus()
        defer { _ = try? bus.stop() }
        let echo = try bus.echo("render/frame/")
        try bus.padState(highlighted: nil)
        let first = try #require(try RenderBus.frames(echo, untilStateSeq: 1).last)
        #expect(first["width"]?.intValue == 400)
        #expect(first["height"]?.intValue == 100)
        #expect(first["frame_id"]?.intValue == 1)
        try bus.padState(highlighted: nil)
        let same = try #require(try RenderBus.frames(echo, untilStateSeq: 2).last)
        #expect(same["checksum"] == first["checksum"])
        try bus.padState(highlighted: 5)
        let changed = try #require(try RenderBus.frames(echo, untilStateSeq: 3).last)
        #expect(changed["checksum"] != first["checksum"])
        #expect(changed["frame_id"]?.intValue == 3)
        for frame in try RenderBus.payloads(echo) {
            #expect(frame["png"] == nil)
            #expect(frame["timings"]?["render_ms"]?.doubleValue ?? -1 >= 0)
            #expect(frame["timings"]?["encode_ms"]?.doubleValue == 0)
        }
        #expect(try bus.stop() == 0, "\(bus.worker.stderr)")
    }

    @Test func aBurstOfStatesIsDrawnOnceFromTheNewest() throws {
        let bus = try RenderBus(["--fps", "4"])
        defer { _ = try? bus.stop() }
        let echo = try bus.echo("render/frame/")
        let states = 60
        try bus.padState(highlighted: 3, count: states)
        let frames = try RenderBus.frames(echo, untilStateSeq: states)
        #expect(frames.count < states, "\(frames.count) frames for \(states) states")
        #expect(frames.last?["state_seq"]?.intValue == Int64(states))
        let seqs = frames.compactMap { $0["state_seq"]?.intValue }
        #expect(seqs == seqs.sorted(), "state_seq never goes back")
        #expect(try bus.stop() == 0, "\(bus.worker.stderr)")
    }

    @Test func aSnapshotCommandWritesAWholePNGOfTheNextFrame() throws {
        let bus = try RenderBus()
        defer { _ = try? bus.stop() }
        let echo = try bus.echo("render/frame/")
        try bus.padState(highlighted: 7)
        let drawn = try #require(try RenderBus.frames(echo, untilStateSeq: 1).last)
        #expect(drawn["png"] == nil)
        try bus.pub(
            "cmd/render/", schema: "component.command", json: #"{"instance": "render-worker", "command": "snapshot"}"#)
        var snapshot: Value?
        try waitUntil("a frame with a png") {
            snapshot = try RenderBus.payloads(echo).first { $0["png"] != nil }
            return snapshot != nil
        }
        let frame = try #require(snapshot)
        let path = try #require(frame["png"]?.stringValue)
        #expect(path.hasPrefix(bus.snapshotDirectory + "/frame-"))
        #expect(frame["timings"]?["encode_ms"]?.doubleValue ?? 0 > 0)
        let image = try PNGCodec.decode([UInt8](try #require(FileManager.default.contents(atPath: path))))
        #expect(image.width == 400 && image.height == 100)
        // The scene is opaque, so the straight-alpha PNG decodes to exactly the frame's pixels.
        #expect(image.checksum == frame["checksum"]?.stringValue)
        #expect(frame["checksum"] == drawn["checksum"], "same state, same pixels")
        let files = try FileManager.default.contentsOfDirectory(atPath: bus.snapshotDirectory)
        #expect(files == [String(path.split(separator: "/").last!)], "no temporary or partial files: \(files)")
        #expect(try bus.stop() == 0, "\(bus.worker.stderr)")
    }

    @Test func snapshotEveryNFramesWritesEveryNthFrame() throws {
        let bus = try RenderBus(["--snapshot-every", "2"])
        defer { _ = try? bus.stop() }
        let echo = try bus.echo("render/frame/")
        for seq in 1...4 {
            try bus.padState(highlighted: seq)
            _ = try RenderBus.frames(echo, untilStateSeq: seq)
        }
        let frames = try RenderBus.payloads(echo)
        #expect(frames.map { $0["png"] != nil } == [false, true, false, true])
        for frame in frames {
            guard let path = frame["png"]?.stringValue else { continue }
            let image = try PNGCodec.decode([UInt8](try #require(FileManager.default.contents(atPath: path))))
            #expect(image.checksum == frame["checksum"]?.stringValue)
        }
        #expect(try bus.stop() == 0, "\(bus.worker.stderr)")
    }

    @Test func aMalformedStateIsCountedInHealthAndTheWorkerKeepsDrawing() throws {
        let bus = try RenderBus()
        defer { _ = try? bus.stop() }
        let health = try bus.echo("sys/health/render-worker/")
        let echo = try bus.echo("render/frame/")
        let context = try ZMQContext()
        let publisher = try Publisher(context: context, endpoint: bus.proxy.config.publish, name: "garbage")
        defer { publisher.socket.close() }
        let topic = try Topic("ui/numberPad/pad1/")
        #expect(try publisher.waitForSubscriber(matching: topic, timeoutMs: 10_000))
        let schema = SchemaID("state.numberPad", major: 1, minor: 0)
        // 0xc1 is never valid MessagePack; {"x": 1} has no instance.
        try publisher.publish(payload: [0xc1], schema: schema, on: topic)
        try publisher.publish(payload: [0x81, 0xa1, 0x78, 0x01], schema: schema, on: topic)
        // A drawer's state for the number pad, and a number pad state without its layout: each
        // decodes into its kind's type once, at the edge, or is refused.
        try publisher.publish(
            try JSONReader.parse(
                #"{"instance": "pad1", "t_ms": 0, "open": true, "progress": 1, "listening_direction": "left"}"#),
            schema: SchemaID("state.drawer", major: 1, minor: 0), on: try Topic("ui/drawer/pad1/"))
        try publisher.publish(
            try JSONReader.parse(
                #"{"instance": "pad1", "t_ms": 0, "enabled": [], "highlighted": null, "popup": null, "#
                    + #""touched_string": "", "sequential_string": ""}"#),
            schema: schema, on: topic)
        try waitUntil("bad_payload counted four times", seconds: 15) {
            try RenderBus.payloads(health).contains { $0["reasons"]?["bad_payload"] == .int(4) }
        }
        #expect(bus.worker.isRunning)
        #expect(bus.worker.stderr.contains("bad_payload"))
        try bus.padState(highlighted: 1)
        let frame = try #require(try RenderBus.frames(echo, untilStateSeq: 1).last)
        #expect(frame["width"]?.intValue == 400)
        #expect(try bus.stop() == 0, "\(bus.worker.stderr)")
    }

    /// A 300×200 memo board, instance `b1`.
    static let boardScene = """
        {"width": 300, "height": 200, "views": [{"id": "board", "frame": {"x": 0, "y": 0, "width": 300, "height": 200},
         "component": {"kind": "memoBoard", "id": "b1"}}]}
        """

    @Test func anAnimatedMemoMovePublishesItsCompletionWhenItEnds() throws {
        let bus = try RenderBus(["--fps", "30"], scene: Self.boardScene)
        defer { _ = try? bus.stop() }
        let animations = try bus.echo("render/animation/")
        let frames = try bus.echo("render/frame/")
        func board(x: Int, animation: String) throws {
            let json = """
                {"instance": "b1", "t_ms": 0, "selected": null, "arrange_order": "created", "background": null,
                 "memos": [{"id": "m1", "text": "買い物", "x": \(x), "y": 20, "width": 100, "height": 80, "scale": 1,
                            "rotation": 0, "z": 1, "color": "yellow", "minimized": false}]\(animation)}
                """
            try bus.pub("ui/memoBoard/b1/", schema: "state.memoBoard", json: json)
        }
        try board(x: 10, animation: "")
        _ = try RenderBus.frames(frames, untilStateSeq: 1)
        try board(x: 150, animation: #", "animation": {"duration_ms": 1000, "curve": "easeOut"}"#)
        try waitUntil("the move's completion") {
            try RenderBus.payloads(animations).contains { $0["property"] == .string("position") }
        }
        let position = try #require(try RenderBus.payloads(animations).first { $0["property"] == .string("position") })
        #expect(position["layer"] == .string("board/m1"))
        #expect(position["finished"] == .bool(true))
        #expect(position["duration_ms"]?.doubleValue == 1000)
        // Frames kept coming while it moved, all from the same state.
        let moving = try RenderBus.payloads(frames).filter { $0["state_seq"] == .int(2) }
        #expect(moving.count >= 2)
        #expect(Set(moving.compactMap { $0["checksum"] }).count >= 2, "the memo is drawn at different places")
        #expect(try bus.stop() == 0, "\(bus.worker.stderr)")
    }

    /// Publishes a `memo.changed` of memo `m1` (one 160×120 memo at 24, 40) as the store would,
    /// then waits on `echo` for a frame of state `stateSeq` and returns the last frame.
    static func drawMemoChange(
        _ kind: String, text: String, rotation: Double, color: String, stateSeq: Int, bus: RenderBus,
        echo: ChildProcess
    ) throws -> Value {
        let json = """
            {"seq": 1, "change": "\(kind)", "cmd_id": "c1", "memo": {"id": "m1", "text": "\(text)", "x": 24, "y": 40,
             "width": 160, "height": 120, "scale": 1, "rotation": \(rotation), "z": 1, "color": "\(color)",
             "minimized": false, "trashed_at": null, "created_at": 1, "updated_at": 2, "version": 1}}
            """
        try bus.pub("memo/changed/", schema: "memo.changed", json: json)
        return try #require(try RenderBus.frames(echo, untilStateSeq: stateSeq).last)
    }

    @Test func memoStoreChangesAreDrawnOnABoardWithNoStateYet() throws {
        let bus = try RenderBus(scene: Self.boardScene)
        defer { _ = try? bus.stop() }
        let echo = try bus.echo("render/frame/")
        func change(_ kind: String, _ stateSeq: Int) throws -> Value {
            try Self.drawMemoChange(
                kind, text: "牛乳", rotation: 0.2, color: "pink", stateSeq: stateSeq, bus: bus, echo: echo)
        }
        let shown = try change("upsert", 1)
        let removed = try change("delete", 2)
        let again = try change("upsert", 3)
        #expect(shown["width"]?.intValue == 300 && shown["height"]?.intValue == 200)
        #expect(removed["checksum"] != shown["checksum"])
        #expect(again["checksum"] == shown["checksum"])
        #expect(try bus.stop() == 0, "\(bus.worker.stderr)")
    }

    @Test func blurMsTimesTheShadowBlursOfAFrameAndIsZeroWhenNothingIsBlurred() throws {
        let bus = try RenderBus(scene: Self.boardScene)
        defer { _ = try? bus.stop() }
        let echo = try bus.echo("render/frame/")
        let shadowed = try Self.drawMemoChange(
            "upsert", text: "影", rotation: 0, color: "yellow", stateSeq: 1, bus: bus, echo: echo)
        let empty = try Self.drawMemoChange(
            "delete", text: "影", rotation: 0, color: "yellow", stateSeq: 2, bus: bus, echo: echo)
        let blurMs = try #require(shadowed["timings"]?["blur_ms"]?.doubleValue)
        let renderMs = try #require(shadowed["timings"]?["render_ms"]?.doubleValue)
        #expect(blurMs > 0, "a memo's drop shadow is a Gaussian blur")
        #expect(blurMs <= renderMs, "the blurs are part of the render")
        #expect(empty["timings"]?["blur_ms"]?.doubleValue == 0, "an empty board blurs nothing")
        #expect(try bus.stop() == 0, "\(bus.worker.stderr)")
    }

    @Test func sigtermStopsTheWorkerWithExitZeroAndAStoppingReport() throws {
        let bus = try RenderBus()
        defer { _ = try? bus.stop() }
        let health = try bus.echo("sys/health/render-worker/")
        // A report through the echo shows the worker's publisher has the echo's subscription
        // (the proxy's notice can reach the probe first), so the stopping report is not filtered out.
        try waitUntil("a health report") { try !RenderBus.payloads(health).isEmpty }
        bus.worker.signal(SIGTERM)
        #expect(try bus.worker.wait() == 0, "\(bus.worker.stderr)")
        try waitUntil("a stopping report") {
            try RenderBus.payloads(health).contains { $0["state"] == .string("stopping") }
        }
    }
}
