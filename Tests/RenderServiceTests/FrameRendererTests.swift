import Dispatch
import Foundation
import Glibc
import RenderCore
import Testing

@testable import RenderService

/// The render thread: its stop wait is bounded, so a stop never hangs behind a frame that will not
/// end, and it never waits for a frame's encoding.
@Suite struct FrameRendererTests {
    /// A renderer snapshotting into `directory`, on the given queues, and a 40×30 frame to draw.
    static func renderer(
        _ directory: String, queue: DispatchQueue = DispatchQueue(label: "test.frames"),
        encoderQueue: DispatchQueue = DispatchQueue(label: "test.encoder")
    ) throws -> (FrameRenderer, Layer) {
        let frames = try FrameRenderer(
            renderer: LayerRenderer(font: try FontFace.systemJapanese()),
            snapshots: try SnapshotWriter(directory: directory), queue: queue, encoderQueue: encoderQueue)
        var root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 40, height: 30))
        root.backgroundColor = Color(hex: 0x336699)
        return (frames, root)
    }

    @Test func aStopWaitsForTheFrameInFlightButNoLongerThanItsBound() throws {
        let directory = NSTemporaryDirectory() + "uibus-frames-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let queue = DispatchQueue(label: "test.frames")
        let (frames, root) = try Self.renderer(directory, queue: queue)
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

    @Test func theRenderThreadFinishesAFrameWithoutWaitingForItsEncoding() throws {
        let directory = NSTemporaryDirectory() + "uibus-frames-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let encoderQueue = DispatchQueue(label: "test.encoder")
        let (frames, root) = try Self.renderer(directory, encoderQueue: encoderQueue)
        encoderQueue.suspend()
        frames.submit(
            .init(
                frameID: 1, stateSeq: 1, root: root, width: 40, height: 30, scale: 1, writePNG: false,
                image: ImageRequest(image: .init(keyFrame: true), tiles: nil, input: nil)))
        #expect(frames.waitUntilIdle(seconds: 60), "drawn while its encoding is held")
        #expect(frames.takeFinished().map(\.0.frameID) == [1])
        #expect(frames.takeEncoded().isEmpty)
        encoderQueue.resume()
        var encoded: [(frameID: Int, result: Result<EncodedFrame, any Error>)] = []
        let deadline = Date().addingTimeInterval(60)
        while encoded.isEmpty, Date() < deadline {
            var readable = pollfd(fd: frames.wakeDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&readable, 1, 100)
            _ = frames.takeFinished()
            encoded += frames.takeEncoded()
        }
        #expect(encoded.map(\.frameID) == [1])
        let image = try #require(try encoded.first?.result.get().image)
        #expect(image.width == 40 && image.height == 30)
    }
}
