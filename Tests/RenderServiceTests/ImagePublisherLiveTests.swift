import Bus
import BusSchema
import BusTestSupport
import Foundation
import RenderCore
import Testing

/// Frames for viewers on `render/image/main/`: JPEGs of the whole frame, only while someone
/// watches, to every viewer that joins without waiting for input, carrying the input they show.
@Suite struct ImagePublisherLiveTests {
    /// The images an echo of `render/image/` printed so far, decoded (and so checked) by the typed decoder.
    static func images(_ echo: ChildProcess) throws -> [RenderImage] {
        try RenderBus.payloads(echo).map { try RenderImage(messagePack: $0.messagePack) }
    }

    /// Waits for an image on `echo` that satisfies `condition`.
    static func image(
        _ echo: ChildProcess, _ what: String, where condition: (RenderImage) -> Bool = { _ in true }
    ) throws -> RenderImage {
        var found: RenderImage?
        try waitUntil(what, seconds: 30) {
            found = try Self.images(echo).last(where: condition)
            return found != nil
        }
        return try #require(found)
    }

    /// Waits for the first tile message on `echo` that satisfies `condition`.
    static func tiles(
        _ echo: ChildProcess, _ what: String, where condition: (RenderTiles) -> Bool
    ) throws -> RenderTiles {
        var found: RenderTiles?
        try waitUntil(what, seconds: 30) {
            found = try RenderBus.payloads(echo).map { try RenderTiles(messagePack: $0.messagePack) }
                .first(where: condition)
            return found != nil
        }
        return try #require(found)
    }

    static let whole = [RenderImage.Rect(x: 0, y: 0, width: 400, height: 100)]

    /// The input an image names: touch frame `seq` of `device`, taken at `sourceTimeNs`.
    static func input(_ device: String, seq: UInt64, sourceTimeNs: Int64) -> TouchInput {
        TouchInput {
            $0.device = device
            $0.seq = seq
            $0.sourceTimeNs = sourceTimeNs
        }
    }

    @Test func nothingIsEncodedWhileNobodyWatchesThenAViewerGetsAJPEGOfTheWholeFrame() throws {
        let bus = try RenderBus()
        defer { _ = try? bus.stop() }
        let health = try bus.echo("sys/health/render-worker/")
        let frames = try bus.echo("render/frame/")
        // Watching the whole of render/ (a recorder) is not watching the images.
        let everything = try bus.echo("render/")
        try bus.padState(highlighted: 1)
        _ = try RenderBus.frames(frames, untilStateSeq: 1)
        var report: Value?
        try waitUntil("a health report after the first frame", seconds: 30) {
            report = try RenderBus.payloads(health).last { ($0["extra"]?["frames"]?.intValue ?? 0) >= 1 }
            return report != nil
        }
        #expect(report?["extra"]?["images"]?.intValue == 0, "frames drawn, none encoded: \(String(describing: report))")
        let viewer = try bus.echo("render/image/main/")
        let first = try Self.image(viewer, "the viewer's first image")
        #expect(first.surface == "main" && first.encoding == .jpeg && first.scale == 1)
        #expect(first.width == 400 && first.height == 100)
        #expect(Array(first.data.prefix(3)) == [0xFF, 0xD8, 0xFF], "JPEG SOI marker")
        let decoded = try JPEGCodec.decode(first.data)
        #expect(decoded.width == 400 && decoded.height == 100)
        #expect(first.damage == Self.whole, "a viewer's first image is all damaged")
        #expect(first.frame >= 2, "drawn again for the viewer, without new input")
        try bus.padState(highlighted: 5)
        let next = try Self.image(viewer, "the image of the next state") { $0.frame > first.frame }
        let area = next.damage.reduce(0) { $0 + $1.width * $1.height }
        #expect(area > 0 && area < 400 * 100, "only the keys that changed: \(next.damage)")
        #expect(next.data != first.data)
        #expect(try RenderBus.payloads(everything).allSatisfy { $0["surface"] == nil || $0["data"] != nil })
        try waitUntil("health counts the images", seconds: 30) {
            try RenderBus.payloads(health).contains { ($0["extra"]?["images"]?.intValue ?? 0) >= 2 }
        }
        #expect(try bus.stop() == 0, "\(bus.worker.stderr)")
    }

    @Test func aTilesViewerGetsAKeyFrameThenOnlyWhatChangedOverTheFrameBefore() throws {
        let bus = try RenderBus()
        defer { _ = try? bus.stop() }
        let frames = try bus.echo("render/frame/")
        try bus.padState(highlighted: 1)
        _ = try RenderBus.frames(frames, untilStateSeq: 1)
        let viewer = try bus.echo("render/tiles/main/")
        let key = try Self.tiles(viewer, "the viewer's key frame") { _ in true }
        #expect(key.isKeyFrame && key.tiles.count == 1 && key.frame >= 2, "drawn again for the viewer, whole")
        let whole = try JPEGCodec.decode(key.tiles[0].data)
        #expect(whole.width == 400 && whole.height == 100)
        try bus.padState(highlighted: 2)
        let next = try Self.tiles(viewer, "the tiles of the next state") { $0.frame > key.frame }
        #expect(next.base == key.frame, "over the key frame")
        let area = next.tiles.reduce(0) { $0 + $1.width * $1.height }
        #expect(area > 0 && area < 400 * 100 / 2, "only the keys that changed: \(next.tiles.map { ($0.x, $0.width) })")
        #expect(try bus.stop() == 0, "\(bus.worker.stderr)")
    }

    @Test func aSecondViewerGetsTheCurrentFrameWithoutNewInput() throws {
        let bus = try RenderBus()
        defer { _ = try? bus.stop() }
        let frames = try bus.echo("render/frame/")
        try bus.padState(highlighted: 3)
        _ = try RenderBus.frames(frames, untilStateSeq: 1)
        let first = try Self.image(try bus.echo("render/image/main/"), "the first viewer's image")
        let second = try Self.image(try bus.echo("render/image/"), "the second viewer's image")
        // The proxy's last-value cache may hand over the frame the first viewer got before the
        // worker's redraw for the new subscription arrives: either way it is the current frame.
        #expect(second.frame >= first.frame, "the current frame when the second viewer joined")
        #expect(second.data == first.data, "the same state, the same pixels, the same JPEG")
        #expect(try bus.stop() == 0, "\(bus.worker.stderr)")
    }

    /// A number pad state showing key 4's popup, from touch frame `seq` of device web-7.
    static func poppedFour(seq: Int) -> String {
        """
        {"instance": "pad1", "t_ms": 0, "layout": "startWithZero", "enabled": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
         "highlighted": 4, "popup": {"kind": "inner", "digit": 4}, "touched_string": "4", "sequential_string": "4",
         "input": {"device": "web-7", "seq": \(seq), "source_time_ns": 123456789}}
        """
    }

    @Test func newerInputThatChangesNoPixelReachesTilesViewersAsAFrameWithoutTiles() throws {
        let bus = try RenderBus()
        defer { _ = try? bus.stop() }
        let viewer = try bus.echo("render/tiles/main/")
        _ = try Self.tiles(viewer, "the viewer's key frame") { $0.isKeyFrame }
        try bus.pub("ui/numberPad/pad1/", schema: "state.numberPad", json: Self.poppedFour(seq: 42))
        let popped = try Self.tiles(viewer, "the popup's frame") { $0.input?.seq == 42 }
        #expect(!popped.tiles.isEmpty)
        // The same pixels again, from a later touch frame (a finger resting on the key).
        try bus.pub("ui/numberPad/pad1/", schema: "state.numberPad", json: Self.poppedFour(seq: 43))
        let resting = try Self.tiles(viewer, "the resting finger's frame") { $0.input?.seq == 43 }
        #expect(resting.tiles.isEmpty && resting.base == popped.frame && resting.frame > popped.frame)
        #expect(try bus.stop() == 0, "\(bus.worker.stderr)")
    }

    @Test func anImageCarriesTheInputOfTheNewestStateThatHadOne() throws {
        let bus = try RenderBus()
        defer { _ = try? bus.stop() }
        let viewer = try bus.echo("render/image/main/")
        // A state that changes pixels (the key's popup), so that its frame is encoded.
        try bus.pub("ui/numberPad/pad1/", schema: "state.numberPad", json: Self.poppedFour(seq: 42))
        let image = try Self.image(viewer, "an image with input") { $0.input != nil }
        #expect(image.input == Self.input("web-7", seq: 42, sourceTimeNs: 123_456_789))
        #expect(try bus.stop() == 0, "\(bus.worker.stderr)")
    }

    @Test func aTouchFrameIsNamedByTheImageThatShowsItsEffectThroughTheRealServices() throws {
        let bus = try RenderBus()
        defer { _ = try? bus.stop() }
        let viewer = try bus.echo("render/image/main/")
        _ = try bus.service("component-host")
        _ = try bus.service("gesture-recognizer")
        // A finger lands on the pad: touchDown (gesture-recognizer), a highlighted key
        // (component-host), the frame that draws it (render-worker).
        try bus.pub(
            "touch/web-1/", schema: "touch.frame",
            json:
                #"{"device": "web-1", "frame": 5, "t_ns": 123456, "contacts": [{"id": 1, "phase": "began", "x": 50, "y": 50}]}"#
        )
        let image = try Self.image(viewer, "the image of the touch") { $0.input != nil }
        #expect(image.input == Self.input("web-1", seq: 5, sourceTimeNs: 123_456))
        #expect(try bus.stop() == 0, "\(bus.worker.stderr)")
    }

    @Test func aRestartedWorkerRedrawsTheCurrentUIWithoutNewInput() throws {
        let bus = try RenderBus()
        defer { _ = try? bus.stop() }
        let viewer = try bus.echo("render/image/main/")
        _ = try bus.service("component-host")
        // A finger lands on the pad: the host highlights a key, and the frame shows it, carrying
        // the touch frame through the gesture event and the state.
        let touch = #"{"device": "d0", "seq": 7, "source_time_ns": 7000000}"#
        try bus.pub(
            "gesture/d0/pad/padDown/", schema: "gesture.event",
            json: """
                {"t_ms": 7, "device": "d0", "view": "pad", "recognizer": "touchDown", "state": "began", "x": 50,
                 "y": 50, "touches": 1, "name": "padDown", "input": \(touch)}
                """)
        let touched = try Self.image(viewer, "the touched pad") { $0.input?.seq == 7 }
        #expect(touched.input == Self.input("d0", seq: 7, sourceTimeNs: 7_000_000))
        let seen = try Self.images(viewer).count
        try bus.restartWorker()
        // Nothing is touched again: the new worker draws the host's current states for the viewer.
        try waitUntil("the restarted worker's image of the touched pad", seconds: 30) {
            try Self.images(viewer).dropFirst(seen).contains { $0.data == touched.data }
        }
        #expect(try bus.stop() == 0, "\(bus.worker.stderr)")
    }
}
