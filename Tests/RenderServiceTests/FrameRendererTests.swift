import BusSchema
import Dispatch
import Foundation
import Glibc
import RenderCore
import Testing

@testable import RenderService

/// The render thread: its stop wait is bounded, so a stop never hangs behind a frame that will not
/// end, it never waits for a frame's encoding, and a frame showing the layers of the one before is
/// neither drawn nor encoded again.
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
        let encoded = Self.encoded(frames, through: 1)
        #expect(encoded.map(\.frameID) == [1])
        let image = try #require(try encoded.first?.result.get().image)
        #expect(image.width == 40 && image.height == 30)
    }

    /// Waits until frame `frameID`'s encoding is delivered; returns every delivery seen meanwhile.
    static func encoded(
        _ frames: FrameRenderer, through frameID: Int
    ) -> [(frameID: Int, result: Result<EncodedFrame, any Error>)] {
        var encoded: [(frameID: Int, result: Result<EncodedFrame, any Error>)] = []
        let deadline = Date().addingTimeInterval(60)
        while !encoded.contains(where: { $0.frameID == frameID }), Date() < deadline {
            var readable = pollfd(fd: frames.wakeDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&readable, 1, 100)
            _ = frames.takeFinished()
            encoded += frames.takeEncoded()
        }
        return encoded
    }

    @Test func aFrameWithTheLayersOfTheOneBeforeIsNotDrawnOrEncodedUnlessAViewerAsksForAKeyFrame() throws {
        let directory = NSTemporaryDirectory() + "uibus-frames-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (frames, root) = try Self.renderer(directory)
        var moved = root
        moved.sublayers = [Layer(name: "dot", frame: Rect(x: 4, y: 4, width: 6, height: 6))]
        moved.sublayers[0].backgroundColor = Color(hex: 0xFFFFFF)
        func submit(_ id: Int, _ layers: Layer, key: Bool = false) {
            frames.submit(
                .init(
                    frameID: id, stateSeq: id, root: layers, width: 40, height: 30, scale: 1, writePNG: false,
                    image: ImageRequest(image: nil, tiles: .init(keyFrame: key), input: nil)))
        }
        // Each frame's encoding is awaited before the next frame, so none can replace another.
        var finished: [(FrameRenderer.Job, Result<FrameRenderer.Output, any Error>)] = []
        var encoded: [(frameID: Int, result: Result<EncodedFrame, any Error>)] = []
        for (id, layers, key, encodes) in [(1, root, true, true), (2, root, false, false), (3, moved, false, true)]
            + [(4, moved, true, true)]
        {
            submit(id, layers, key: key)
            #expect(frames.waitUntilIdle(seconds: 60))
            finished += frames.takeFinished()
            if encodes { encoded += Self.encoded(frames, through: id) }
        }
        let outputs = try finished.map { try $0.1.get() }
        #expect(finished.map(\.0.frameID) == [1, 2, 3, 4])
        #expect(outputs.map(\.unchanged) == [false, true, false, true], "frames 2 and 4 repeat the layers before")
        #expect(outputs[1].checksum == outputs[0].checksum && outputs[2].checksum != outputs[1].checksum)
        #expect(frames.imagesSkipped == 0, "no frame was replaced before its encoding")
        #expect(encoded.map(\.frameID) == [1, 3, 4], "the unchanged frame 2 is not encoded; 4 asks for a key frame")
        let key = try #require(try encoded.last?.result.get().tiles)
        #expect(key.base == nil && key.tiles.count == 1, "a key frame: the whole frame as one tile")
    }

    @Test func aFrameWithTheLayersOfTheOneBeforeButNewerInputGoesToViewersWithoutTiles() throws {
        let directory = NSTemporaryDirectory() + "uibus-frames-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (frames, root) = try Self.renderer(directory)
        var encoded: [(frameID: Int, result: Result<EncodedFrame, any Error>)] = []
        for (id, seq): (Int, UInt64) in [(1, 1), (2, 1), (3, 2)] {
            let input = TouchInput {
                $0.device = "web-1"
                $0.seq = seq
            }
            frames.submit(
                .init(
                    frameID: id, stateSeq: id, root: root, width: 40, height: 30, scale: 1, writePNG: false,
                    image: ImageRequest(image: nil, tiles: .init(keyFrame: id == 1), input: input)))
            #expect(frames.waitUntilIdle(seconds: 60))
            #expect(try frames.takeFinished().map { try $0.1.get().unchanged } == [id > 1])
            if id != 2 { encoded += Self.encoded(frames, through: id) }
        }
        #expect(encoded.map(\.frameID) == [1, 3], "frame 2 names the input frame 1 did: not encoded")
        let unchanged = try #require(try encoded.last?.result.get().tiles)
        #expect(unchanged.tiles.isEmpty && unchanged.base == 1 && unchanged.input?.seq == 2)
    }
}
