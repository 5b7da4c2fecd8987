import Dispatch
import Foundation
import RenderCore
import Testing

@testable import RenderService

/// The render thread's stop wait: bounded, so a stop never hangs behind a frame that will not end.
@Suite struct FrameRendererTests {
    @Test func aStopWaitsForTheFrameInFlightButNoLongerThanItsBound() throws {
        let directory = NSTemporaryDirectory() + "uibus-frames-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let queue = DispatchQueue(label: "test.frames")
        let frames = try FrameRenderer(
            renderer: LayerRenderer(font: try FontFace.systemJapanese()),
            snapshots: try SnapshotWriter(directory: directory), queue: queue)
        var root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 40, height: 30))
        root.backgroundColor = Color(hex: 0x336699)
        // Held: the frame cannot start, as if it were taking forever.
        queue.suspend()
        frames.submit(
            .init(frameID: 1, stateSeq: 1, root: root, width: 40, height: 30, scale: 1, writePNG: true, image: nil))
        #expect(!frames.waitUntilIdle(seconds: 0.05), "still drawing: the wait gives up at its bound")
        #expect(frames.takeFinished().isEmpty)
        queue.resume()
        #expect(frames.waitUntilIdle(seconds: 60), "the frame finishes and the wait returns")
        let finished = frames.takeFinished()
        #expect(finished.count == 1 && finished.first?.0.frameID == 1)
        let output = try #require(try finished.first?.1.get())
        #expect(output.png.map { FileManager.default.fileExists(atPath: $0) } == true, "its whole snapshot is written")
    }
}
