import BusSchema
import Dispatch
import RenderCore
import Synchronization

/// Encodes drawn frames for viewers on a thread of its own, so the render thread goes on to
/// the next frame while the last one is encoded (drawing and encoding overlap on two cores).
///
/// The newest frame wins: one frame is encoded at a time and at most one waits; a frame drawn
/// while another waits replaces it (counted in ``skipped``), so a slow encoder lowers the image
/// rate, never delays an image behind stale ones, and holds at most two frames. A replaced key
/// frame passes its key on to the frame that replaced it, so a viewer that joined still gets a
/// key frame first (and the tiles skip no base: they are found against the last frame encoded).
/// Finished frames are handed to `deliver` on the encoding thread.
final class FrameEncoder: Sendable {
    /// A drawn frame to encode.
    struct Frame: Sendable {
        let frameID: Int
        let image: Image
        let request: ImageRequest
        /// What the frame is known to change (nil: compare pixels).
        var damage: KnownDamage? = nil
    }

    /// An encoded frame, or why it could not be encoded.
    typealias Delivery = @Sendable (_ frameID: Int, _ result: Result<EncodedFrame, any Error>) -> Void

    private struct Slot {
        var waiting: Frame?
        var busy = false
        var skipped: UInt64 = 0
    }

    private let slot = Mutex(Slot())
    /// Used on the encoding queue only; the lock makes that checkable.
    private let encoder: Mutex<ImageEncoder>
    private let queue: DispatchQueue
    private let deliver: Delivery

    /// - Parameters:
    ///   - queue: the serial queue frames are encoded on (a test may hold it suspended).
    /// - Throws: ``RenderError`` when libjpeg-turbo cannot make a compressor.
    init(
        encoding: RenderImage.Encoding, quality: Int,
        queue: DispatchQueue = DispatchQueue(label: "render-worker.encoder"), deliver: @escaping Delivery
    ) throws {
        self.encoder = Mutex(try ImageEncoder(encoding: encoding, quality: quality))
        self.queue = queue
        self.deliver = deliver
    }

    /// Frames replaced by a newer one before their encoding started.
    var skipped: UInt64 { self.slot.withLock { $0.skipped } }

    /// Encodes `frame` when the encoder is free, or after the frame it is encoding, unless a
    /// newer one comes first.
    func offer(_ frame: Frame) {
        let start = self.slot.withLock { slot -> Bool in
            var frame = frame
            if let replaced = slot.waiting {
                slot.skipped += 1
                frame = Frame(
                    frameID: frame.frameID, image: frame.image,
                    request: frame.request.keepingKeys(of: replaced.request),
                    damage: replaced.damage.flatMap { frame.damage?.following($0) })
            }
            slot.waiting = frame
            let idle = !slot.busy
            slot.busy = true
            return idle
        }
        if start { self.queue.async { [self] in self.drain() } }
    }

    /// Drops the previous image (nobody watches now), after what is being encoded.
    func forget() {
        self.queue.async { [self] in self.encoder.withLock { $0.forget() } }
    }

    /// Encodes the waiting frames, newest first by construction, until none waits.
    private func drain() {
        while let frame = self.slot.withLock({ slot -> Frame? in
            defer { slot.waiting = nil }
            if slot.waiting == nil { slot.busy = false }
            return slot.waiting
        }) {
            let result = Result {
                try self.encoder.withLock {
                    try $0.encode(frame.image, frameID: frame.frameID, frame.request, damage: frame.damage)
                }
            }
            self.deliver(frame.frameID, result)
        }
    }
}
