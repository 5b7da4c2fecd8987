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
/// One frame at a time: the owner submits a ``Job`` only after the last one finished. A frame
/// someone watches goes on to the ``FrameEncoder``'s thread, and the render thread is free for
/// the next frame while it is encoded. A frame whose layer tree, size and scale are those of the
/// frame drawn before it is not drawn again: it shows the same pixels (RenderCore is a function
/// of the tree), so the last image stands for it and nothing new goes to the encoder, unless a
/// viewer asks for a key frame or the frame names newer input (viewers get a message of no tiles
/// naming it: that input's effect shows). States that change nothing on screen (a gesture's
/// bookkeeping, a drag against a stop) then cost a tree comparison, not a frame. When a frame is
/// drawn or an image encoded the loop is woken through a pipe it watches, and ``takeFinished()``
/// and ``takeEncoded()`` hand the results over on the loop's thread.
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

        /// Whether `other` is drawn on a canvas of the same size and scale as this one.
        func sameCanvas(as other: Job) -> Bool {
            self.width == other.width && self.height == other.height && self.scale == other.scale
        }
    }

    /// A drawn frame.
    struct Output: Sendable {
        let checksum: String
        let png: String?
        let renderMs: Double
        let blurMs: Double
        let encodeMs: Double
        let statistics: RenderStatistics
        /// The frame showed the same layers as the one before: not drawn, its image reused.
        let unchanged: Bool
    }

    /// The last frame drawn, kept to recognise a frame that would draw the same pixels and to
    /// draw the next one over (its image is kept apart, ``lastImage``).
    private struct Drawn {
        /// What was drawn: the frame ID, the layer tree and the canvas.
        let job: Job
        let digest: FrameDigest
        let checksum: String
        let statistics: RenderStatistics

        func shows(_ next: Job) -> Bool { self.job.sameCanvas(as: next) && self.job.root == next.root }
    }

    /// What the threads hand to the loop, and the pipe that wakes it.
    private final class Mailbox: Sendable {
        let frames = Mutex<[(Job, Result<Output, any Error>)]>([])
        let images = Mutex<[(frameID: Int, result: Result<EncodedFrame, any Error>)]>([])
        let writer: Int32

        init(writer: Int32) { self.writer = writer }

        func wake() {
            var one: UInt8 = 1
            _ = write(self.writer, &one, 1)
        }
    }

    /// The file descriptor that becomes readable when a frame is done (a pipe's read end).
    let wakeDescriptor: Int32
    private let mailbox: Mailbox
    private let renderer: LayerRenderer
    private let snapshots: SnapshotWriter
    private let queue: DispatchQueue
    private let encoder: FrameEncoder
    /// Used on the render queue only; the locks make that checkable.
    private let lastDrawn = Mutex<Drawn?>(nil)
    private let lastImage = Mutex<Image?>(nil)

    /// - Parameters:
    ///   - imageEncoding, imageQuality: how frames are encoded for viewers (``ImageEncoder``).
    ///   - queue, encoderQueue: the serial queues frames are drawn and encoded on (a test may
    ///     hold one suspended).
    /// - Throws: ``ConfigurationError`` when no pipe can be made, ``RenderError`` when
    ///   libjpeg-turbo cannot make a compressor. The C functions are `pipe` and `fcntl`.
    init(
        renderer: LayerRenderer, snapshots: SnapshotWriter, imageEncoding: RenderImage.Encoding = .jpeg,
        imageQuality: Int = JPEGEncoder.defaultQuality,
        queue: DispatchQueue = DispatchQueue(label: "render-worker.frames"),
        encoderQueue: DispatchQueue = DispatchQueue(label: "render-worker.encoder")
    ) throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw ConfigurationError("pipe failed: errno \(errno)") }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        let mailbox = Mailbox(writer: ends[1])
        self.wakeDescriptor = ends[0]
        self.mailbox = mailbox
        do {
            self.encoder = try FrameEncoder(encoding: imageEncoding, quality: imageQuality, queue: encoderQueue) {
                frameID, result in
                mailbox.images.withLock { $0.append((frameID, result)) }
                mailbox.wake()
            }
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
        self.renderer = renderer
        self.snapshots = snapshots
        self.queue = queue
    }

    deinit {
        close(self.wakeDescriptor)
        close(self.mailbox.writer)
    }

    /// Starts drawing `job` on the render thread.
    func submit(_ job: Job) {
        self.queue.async { [self] in
            let result = Result { try self.draw(job) }
            self.mailbox.frames.withLock { $0.append((job, result)) }
            self.mailbox.wake()
        }
    }

    /// Waits until the render thread is idle (the frame it is drawing and its snapshot are
    /// done), for at most `seconds`; returns false if it is still drawing then.
    func waitUntilIdle(seconds: Double) -> Bool {
        let idle = DispatchSemaphore(value: 0)
        self.queue.async { idle.signal() }
        return idle.wait(timeout: .now() + seconds) == .success
    }

    /// Frames replaced by a newer one before they were encoded (the encoder lagged).
    var imagesSkipped: UInt64 { self.encoder.skipped }

    /// The frames finished since the last call; clears the wake-up (call ``takeEncoded()`` after).
    func takeFinished() -> [(Job, Result<Output, any Error>)] {
        var drain = [UInt8](repeating: 0, count: 64)
        while read(self.wakeDescriptor, &drain, drain.count) > 0 {}
        return self.mailbox.frames.withLock { done in
            defer { done.removeAll() }
            return done
        }
    }

    /// The frames encoded since the last call, oldest first.
    func takeEncoded() -> [(frameID: Int, result: Result<EncodedFrame, any Error>)] {
        self.mailbox.images.withLock { done in
            defer { done.removeAll() }
            return done
        }
    }

    private func draw(_ job: Job) throws -> Output {
        let stopwatch = PhaseStopwatch()
        let start = Clock.monotonicNs()
        let last = self.lastDrawn.withLock { $0 }
        // Taken out while drawing: the next frame is drawn over it in place when nothing else
        // holds it (the encoder is done with it; otherwise its bytes are copied first), and a
        // frame that fails leaves nothing behind to draw over.
        var previous = self.lastImage.withLock { image in
            defer { image = nil }
            return image
        }
        if let last, let shown = previous, last.shows(job) {
            self.lastImage.withLock { $0 = shown }
            let png = try self.deliver(
                shown, job, damage: KnownDamage(shows: last.job.frameID, since: last.job.frameID, rects: []),
                news: job.image?.input != last.job.image?.input)
            return Output(
                checksum: last.checksum, png: png.path, renderMs: Self.ms(png.started - start),
                blurMs: stopwatch.milliseconds(.blur), encodeMs: png.ms, statistics: last.statistics, unchanged: true)
        }
        self.lastDrawn.withLock { $0 = nil }
        let (image, damage) = try self.render(job, over: &previous, since: last, stopwatch)
        let statistics = self.renderer.lastStatistics
        let png = try self.deliver(image, job, damage: damage, news: true)
        // After the encoder has the frame: the pixels redrawn are hashed again.
        var digest: FrameDigest
        if let last, damage.since != nil {
            digest = last.digest
            digest.update(image, within: damage.rects)
        } else {
            digest = FrameDigest(of: image)
        }
        let checksum = digest.checksum
        self.lastDrawn.withLock {
            $0 = Drawn(job: job, digest: digest, checksum: checksum, statistics: statistics)
        }
        self.lastImage.withLock { $0 = image }
        return Output(
            checksum: checksum, png: png.path, renderMs: Self.ms(png.started - start),
            blurMs: stopwatch.milliseconds(.blur), encodeMs: png.ms, statistics: statistics, unchanged: false)
    }

    /// Writes the frame's PNG snapshot when the job asks for one, and offers the frame to the
    /// encoder while someone watches and it has news for them (`news`: it was drawn, or it names
    /// newer input than the frame drawn before, whose effect viewers then know shows) or a
    /// viewer asked for a key frame.
    /// - Returns: the snapshot's path, when it began (the frame's drawing ended) and its ms.
    private func deliver(_ image: Image, _ job: Job, damage: KnownDamage, news: Bool) throws -> (
        path: String?, started: UInt64, ms: Double
    ) {
        let started = Clock.monotonicNs()
        var path: String?
        if job.writePNG { path = try self.snapshots.write(try PNGCodec.encode(image), frameID: job.frameID) }
        let written = Clock.monotonicNs()
        if let request = job.image {
            if news || request.asksForKeyFrame {
                self.encoder.offer(
                    FrameEncoder.Frame(frameID: job.frameID, image: image, request: request, damage: damage))
            }
        } else {
            self.encoder.forget()
        }
        return (path, started, job.writePNG ? Self.ms(written - started) : 0)
    }

    /// Draws the job's frame: within the damage found from the layers that changed since the
    /// last frame drawn, over its image (`previous`, redrawn in place), when that damage is
    /// bounded and under half the frame; whole otherwise.
    /// - Returns: the frame, and the pixels that changed since the last frame drawn, found
    ///   while they were replaced (or by comparing the frames, when drawn whole); not known for
    ///   the first frame or a new size.
    private func render(_ job: Job, over previous: inout Image?, since last: Drawn?, _ stopwatch: PhaseStopwatch)
        throws -> (Image, KnownDamage)
    {
        let sameCanvas = last?.job.sameCanvas(as: job) ?? false
        if sameCanvas, let last, previous != nil,
            let damage = LayerRenderer.damage(
                from: last.job.root, to: job.root, width: job.width, height: job.height, scale: job.scale,
                maximumCount: RenderTiles.maximumTiles),
            damage.reduce(0, { $0 + $1.width * $1.height }) * 2 < job.width * job.height
        {
            let changed = try self.renderer.render(
                job.root, width: job.width, height: job.height, scale: job.scale, over: &previous!, damage: damage,
                observer: stopwatch)
            return (previous!, KnownDamage(shows: job.frameID, since: last.job.frameID, rects: changed))
        }
        let whole = try self.renderer.render(
            job.root, width: job.width, height: job.height, scale: job.scale, observer: stopwatch)
        guard sameCanvas, let last, let before = previous else {
            return (whole, KnownDamage(shows: job.frameID, since: nil, rects: []))
        }
        let changed = whole.damage(since: before, maximumCount: RenderTiles.maximumTiles)
        return (whole, KnownDamage(shows: job.frameID, since: last.job.frameID, rects: changed))
    }

    static func ms(_ nanoseconds: UInt64) -> Double { (Double(nanoseconds) / 1e3).rounded() / 1e3 }
}
