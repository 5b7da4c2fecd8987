import Dispatch
import RenderCore
import Synchronization
import Testing

@testable import RenderService

/// Encoding for viewers runs on a thread of its own (the render thread never waits for it: see
/// ``FrameRendererTests``); when it lags the newest frame wins, the skipped ones counted, a key
/// frame never lost.
@Suite struct FrameEncoderTests {
    /// What an encoder delivered, and a semaphore signalled per delivery.
    final class Deliveries: Sendable {
        let images = Mutex<[(frameID: Int, image: EncodedImage)]>([])
        let arrived = DispatchSemaphore(value: 0)

        func deliver(_ frameID: Int, _ result: Result<EncodedImage, any Error>) {
            if let image = try? result.get() { self.images.withLock { $0.append((frameID, image)) } }
            self.arrived.signal()
        }

        func wait(_ what: Comment) throws {
            try #require(self.arrived.wait(timeout: .now() + 60) == .success, what)
        }
    }

    static func frame(_ id: Int, key: Bool, marked: Bool = false) throws -> FrameEncoder.Frame {
        var image = try Image(width: 64, height: 48, fill: RGBA8(0x33, 0x66, 0x99, 255))
        if marked { image.setPixel(10, 10, RGBA8(255, 255, 255, 255)) }
        return FrameEncoder.Frame(frameID: id, image: image, request: ImageRequest(keyFrame: key, input: nil))
    }

    @Test func framesDrawnWhileTheEncoderIsBusyAreSkippedToTheNewestWhichKeepsTheKey() throws {
        let queue = DispatchQueue(label: "test.encoder")
        let deliveries = Deliveries()
        let encoder = try FrameEncoder(encoding: .jpeg, quality: 85, queue: queue, deliver: deliveries.deliver)
        // Held: as if the encoder were still busy with an earlier frame.
        queue.suspend()
        encoder.offer(try Self.frame(1, key: true))
        encoder.offer(try Self.frame(2, key: false))
        encoder.offer(try Self.frame(3, key: false))
        #expect(encoder.skipped == 2)
        queue.resume()
        try deliveries.wait("the newest frame encoded")
        let first = try #require(deliveries.images.withLock { $0.first })
        #expect(first.frameID == 3, "the newest frame wins")
        #expect(first.image.damage == [PixelRect(x: 0, y: 0, width: 64, height: 48)], "the skipped key frame's key")
        #expect(Array(first.image.data.prefix(3)) == [0xFF, 0xD8, 0xFF], "a JPEG")
        encoder.offer(try Self.frame(4, key: false, marked: true))
        try deliveries.wait("the next frame encoded")
        let next = try #require(deliveries.images.withLock { $0.count == 2 ? $0.last : nil })
        #expect(next.frameID == 4)
        let area = next.image.damage.reduce(0) { $0 + $1.width * $1.height }
        #expect(area > 0 && area < 64 * 48, "only what changed since the image before: \(next.image.damage)")
        #expect(encoder.skipped == 2)
    }
}
