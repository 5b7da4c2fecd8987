import BusSchema
import BusTestSupport
import Foundation
import RenderCore
import Testing

/// The live `render-worker` drawing a memo board's background image: a path it cannot read is
/// logged, counted in health and drawn as cork, and the worker goes on; a readable PNG is drawn.
@Suite struct RenderWorkerBackgroundTests {
    @Test func anUnreadableBackgroundIsCountedAndDrawnAsCorkThenAReadableOneIsDrawn() throws {
        let bus = try RenderBus(scene: RenderWorkerLiveTests.boardScene)
        defer { _ = try? bus.stop() }
        let health = try bus.echo("sys/health/render-worker/")
        let frames = try bus.echo("render/frame/")
        func board(background: String) throws {
            let json = """
                {"instance": "b1", "t_ms": 0, "selected": null, "arrange_order": "created",
                 "background": "\(background)", "memos": []}
                """
            try bus.pub("ui/memoBoard/b1/", schema: "state.memoBoard", json: json)
        }
        let missing = bus.proxy.directory + "/missing.png"
        try board(background: missing)
        let cork = try #require(try RenderBus.frames(frames, untilStateSeq: 1).last)
        try waitUntil("background_unreadable counted", seconds: 15) {
            try RenderBus.payloads(health).contains { $0["reasons"]?["background_unreadable"] == .int(1) }
        }
        #expect(bus.worker.stderr.contains("background_unreadable: background image \(missing): No such file"))
        let readable = bus.proxy.directory + "/board.png"
        try Data(try PNGCodec.encode(try Image(width: 6, height: 4, fill: RGBA8(20, 90, 200, 255))))
            .write(to: URL(fileURLWithPath: readable))
        try board(background: readable)
        let drawn = try #require(try RenderBus.frames(frames, untilStateSeq: 2).last)
        #expect(drawn["checksum"] != cork["checksum"], "the image, not the cork")
        try board(background: missing)
        let again = try #require(try RenderBus.frames(frames, untilStateSeq: 3).last)
        #expect(again["checksum"] == cork["checksum"], "cork again")
        #expect(bus.worker.isRunning)
        #expect(try bus.stop() == 0, "\(bus.worker.stderr)")
    }
}
