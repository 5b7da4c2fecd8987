import BusSchema
import BusTestSupport
import Foundation
import RenderCore
import Testing

/// A frame that takes seconds must not silence the worker (the supervisor kills a service
/// whose health stops for 3 s), nor be cut off by a stop.
@Suite struct RenderWorkerBusyTests {
    /// One 800×600 memo board (instance `board1`).
    static let scene = """
        {"name": "big-board", "width": 800, "height": 600, "views": [
          {"id": "board", "frame": {"x": 0, "y": 0, "width": 800, "height": 600},
           "component": {"kind": "memoBoard", "id": "board1", "config": {}}}]}
        """

    /// A board state with `count` memos tiling the board, each with its own text.
    static func boardState(count: Int) -> String {
        let memos = (0..<count).map { index in
            """
            {"id": "m\(index)", "text": "メモ \(index) 牛乳と卵を買う", "x": \(Double(index % 8) * 100 + 4),
             "y": \(Double(index / 8) * 100 + 4), "width": 92, "height": 92, "scale": 1, "rotation": 0.1,
             "z": \(index), "color": "yellow", "minimized": false, "trashed_at": null}
            """
        }
        return """
            {"instance": "board1", "t_ms": 0, "memos": [\(memos.joined(separator: ","))], "selected": null,
             "arrange_order": "created", "background": null}
            """
    }

    @Test func healthKeepsArrivingWhileALargeFrameRenders() throws {
        // At 2 pixels per point the frame is 1600×1200 with 48 shadowed, rotated memos: 5–8 s of
        // work for a debug build on one blur thread, well past the 2 s the check needs.
        let bus = try RenderBus(["--scale", "2", "--threads", "1"], scene: Self.scene)
        defer { _ = try? bus.stop() }
        let health = try bus.echo("sys/health/render-worker/")
        let frames = try bus.echo("render/frame/")
        try bus.pub("ui/memoBoard/board1/", schema: "state.memoBoard", json: Self.boardState(count: 48))
        let frame = try #require(try RenderBus.frames(frames, untilStateSeq: 1, seconds: 90).last)
        let renderMs = try #require(frame["timings"]?["render_ms"]?.doubleValue)
        // Reports sent after the state was applied and before its frame was published.
        let during = try RenderBus.payloads(health).filter {
            ($0["extra"]?["state_seq"]?.intValue ?? 0) >= 1 && $0["extra"]?["frames"]?.intValue == 0
        }
        try #require(renderMs >= 2000, "the frame took \(renderMs) ms, too short to show anything")
        // One report a second; the first whole second of the frame may start just after one.
        #expect(during.count >= Int(renderMs / 1000) - 1, "\(during.count) health reports in a \(renderMs) ms frame")
        #expect(bus.worker.isRunning)
        #expect(try bus.stop() == 0, "\(bus.worker.stderr)")
    }

    @Test func sigtermMidFrameLetsTheFrameFinishAndPublishItAndLeavesOnlyWholeSnapshots() throws {
        // Half the frame above, written as a snapshot: long enough for a health report while it
        // draws. The stop wait is set far above any frame time, so a loaded machine cannot turn
        // "waits for the frame in flight" into "gives it up".
        let bus = try RenderBus(
            ["--scale", "2", "--threads", "1", "--snapshot-every", "1", "--stop-wait", "600"], scene: Self.scene)
        defer { _ = try? bus.stop() }
        let health = try bus.echo("sys/health/render-worker/")
        let lifecycle = try bus.echo("sys/lifecycle/render-worker/")
        let frames = try bus.echo("render/frame/")
        try bus.pub("ui/memoBoard/board1/", schema: "state.memoBoard", json: Self.boardState(count: 24))
        // A report saying the state is applied and no frame is out yet: frame 1 is being drawn.
        try waitUntil("a health report during the first frame", seconds: 30) {
            try RenderBus.payloads(health).contains {
                ($0["extra"]?["state_seq"]?.intValue ?? 0) >= 1 && $0["extra"]?["frames"]?.intValue == 0
            }
        }
        bus.worker.signal(SIGTERM)
        #expect(try bus.worker.wait() == 0, "\(bus.worker.stderr)")
        #expect(bus.worker.stderr.contains("render-worker: stopping: waiting for frame 1 in flight"))
        try waitUntil("the worker says stopped") {
            try RenderBus.payloads(lifecycle).contains { $0["event"] == .string("stopped") }
        }
        // The frames' echo is another process than the lifecycle's and may lag it: wait for it.
        // Whatever it shows was published before the worker exited.
        try waitUntil("the frame in flight published") { try !RenderBus.payloads(frames).isEmpty }
        let published = try RenderBus.payloads(frames)
        #expect(published.count == 1, "the frame in flight is published before the worker stops")
        let path = try #require(published.first?["png"]?.stringValue)
        let files = try FileManager.default.contentsOfDirectory(atPath: bus.snapshotDirectory)
        #expect(files == ["frame-000001.png"], "one whole snapshot, no temporary file left: \(files)")
        let image = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(image.width == 1600 && image.height == 1200)
        #expect(image.checksum == published.first?["checksum"]?.stringValue, "the snapshot is the published frame")
    }
}
