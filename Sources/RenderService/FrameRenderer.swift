import Bus
import BusSchema
import Dispatch
import Glibc
import RenderCore
import ServiceSupport
import Synchronization

/// Draws frames on a thread of its own, so that the service's event loop keeps applying states
/// and publishing health while a large frame renders (a busy worker is slow, never silent).
///
/// One frame at a time: the owner submits a ``Job`` only after the last one finished. When a
/// frame is done the loop is woken through a pipe it watches, and ``takeFinished()``
/// hands the result over on the loop's thread.
final class FrameRenderer: Sendable {
    /// A frame to draw: the layer tree taken from the scene when the frame was due.
    struct Job: Sendable {
        let frameID: Int
        let stateSeq: Int
        let root: Layer
        let width: Int
        let height: Int
        let scale: Double
        let writePNG: Bool
        /// Encode the frame for viewers too (nil while nobody watches).
        let image: ImageRequest?
    }

    /// A drawn frame.
    struct Output: Sendable {
        let checksum: String
        let png: String?
        let renderMs: Double
        let blurMs: Double
        let encodeMs: Double
        let statistics: RenderStatistics
        /// The frame encoded for viewers, when the job asked for it.
        let image: EncodedImage?
    }

    /// The file descriptor that becomes readable when a frame is done (a pipe's read end).
    let wakeDescriptor: Int32
    private let wakeWriter: Int32
    private let renderer: LayerRenderer
    private let snapshots: SnapshotWriter
    private let queue: DispatchQueue
    private let finished = Mutex<[(Job, Result<Output, any Error>)]>([])
    /// Used on the render thread only; the lock makes that checkable.
    private let imageEncoder: Mutex<ImageEncoder>

    /// - Parameters:
    ///   - imageEncoding, imageQuality: how frames are encoded for viewers (``ImageEncoder``).
    ///   - queue: the serial queue frames are drawn on (a test may hold it suspended).
    /// - Throws: ``ConfigurationError`` when no pipe can be made. The C functions are `pipe`
    ///   and `fcntl`.
    init(
        renderer: LayerRenderer, snapshots: SnapshotWriter, imageEncoding: RenderImage.Encoding = .jpeg,
        imageQuality: Int = JPEGEncoder.defaultQuality,
        queue: DispatchQueue = DispatchQueue(label: "render-worker.frames")
    ) throws {
        self.imageEncoder = Mutex(try ImageEncoder(encoding: imageEncoding, quality: imageQuality))
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw ConfigurationError("pipe failed: errno \(errno)") }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (self.wakeDescriptor, self.wakeWriter) = (ends[0], ends[1])
        self.renderer = renderer
        self.snapshots = snapshots
        self.queue = queue
    }

    deinit {
        close(self.wakeDescriptor)
        close(self.wakeWriter)
    }

    /// Starts drawing `job` on the render thread.
    func submit(_ job: Job) {
        self.queue.async { [self] in
            let result = Result { try self.draw(job) }
            self.finished.withLock { $0.append((job, result)) }
            var one: UInt8 = 1
            _ = write(self.wakeWriter, &one, 1)
        }
    }

    /// Waits until the render thread is idle (the frame it is drawing and its snapshot are
    /// done), for at most `seconds`; returns false if it is still drawing then.
    func waitUntilIdle(seconds: Double) -> Bool {
        let idle = DispatchSemaphore(value: 0)
        self.queue.async { idle.signal() }
        return idle.wait(timeout: .now() + seconds) == .success
    }

    /// The frames finished since the last call; clears the wake-up.
    func takeFinished() -> [(Job, Result<Output, any Error>)] {
        var drain = [UInt8](repeating: 0, count: 64)
        while read(self.wakeDescriptor, &drain, drain.count) > 0 {}
        return self.finished.withLock { done in
            defer { done.removeAll() }
            return done
        }
    }

    private func draw(_ job: Job) throws -> Output {
        let stopwatch = PhaseStopwatch()
        let start = Clock.monotonicNs()
        let image = try self.renderer.render(
            job.root, width: job.width, height: job.height, scale: job.scale, observer: stopwatch)
        let rendered = Clock.monotonicNs()
        var png: String?
        if job.writePNG { png = try self.snapshots.write(try PNGCodec.encode(image), frameID: job.frameID) }
        let encoded = Clock.monotonicNs()
        let forViewers = try self.imageEncoder.withLock { encoder in
            try job.image.map { try encoder.encode(image, $0) } ?? encoder.forget()
        }
        return Output(
            checksum: image.checksum, png: png, renderMs: Self.ms(rendered - start),
            blurMs: stopwatch.milliseconds(.blur), encodeMs: job.writePNG ? Self.ms(encoded - rendered) : 0,
            statistics: self.renderer.lastStatistics, image: forViewers)
    }

    static func ms(_ nanoseconds: UInt64) -> Double { (Double(nanoseconds) / 1e3).rounded() / 1e3 }
}
