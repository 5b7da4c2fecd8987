import Bus
import BusSchema
import RenderCore
import ServiceSupport

/// `render-worker` on the bus: component states in, frames out.
///
/// Subscribes `ui/` (every `state.<kind>` schema, and whole `scene` documents on `ui/scene/`),
/// `memo/changed/` and `cmd/render/` (a `component.command` with command `snapshot` asks for a
/// PNG of the next frame, `key_frame` for a key frame of the tiles: a viewer lost one). States only update a ``RenderScene``; once the queued messages are
/// drained, a ``FrameScheduler`` decides when to draw, at most `framesPerSecond` and always
/// the newest state, so a burst of states becomes one frame. Frames are drawn on a render
/// thread (``FrameRenderer``) while the loop goes on applying states and publishing health; a
/// slow frame lowers the frame rate, and the next one draws the newest state. Each frame is published on
/// `render/frame/` (``RenderFrame``), animation completions on `render/animation/`, and, while
/// someone subscribes, the frame encoded for viewers on `render/image/<surface>/` and what
/// changed on `render/tiles/<surface>/` (``ImagePublisher``),
/// encoded on a thread of its own (``FrameEncoder``: the newest frame wins) once per frame
/// however many viewers watch.
/// The store's memos follow `memo/changed/` in seq order; at start, and whenever a change shows
/// a new store epoch (the store restarted) or a gap, the worker asks the store for a snapshot
/// (a `snapshot` command as client `<service name>`, answered on `memo/snapshot/<name>/`), and
/// asks again, backing off from 1 s to 16 s, until one arrives.
/// A payload that cannot be applied is counted (`bad_payload`) and skipped; a frame that
/// cannot be drawn is counted (`render_failed`); a memo board background image that cannot be
/// read is counted (`background_unreadable`) and drawn as cork (``BackgroundImages``). Every time is read here, never in RenderCore.
public final class RenderService {
    /// What the command line sets.
    public struct Configuration: Sendable {
        /// The scene, or nil to wait for one on `ui/scene/`.
        public var scene: Scene?
        public var framesPerSecond: Double = 60
        /// Write a PNG every N frames; nil writes them only on request.
        public var snapshotEvery: Int?
        public var snapshotDirectory = "var/render"
        /// Pixels per scene point.
        public var scale: Double = 1
        /// Blur workers.
        public var threads = 2
        /// The surface name of the frames for viewers (`render/image/<surface>/`).
        public var surface = "main"
        /// How frames for viewers are encoded, and the JPEG quality.
        public var imageEncoding = RenderImage.Encoding.jpeg
        public var imageQuality = JPEGEncoder.defaultQuality
        /// How long a stop waits for the frame in flight (the supervisor's own stop timeout may be shorter).
        public var stopWaitSeconds = 10.0

        public init(scene: Scene?) {
            self.scene = scene
        }
    }

    /// The `ui/` schemas read: every component state, a memo board's deltas, and the scene.
    public static let uiSchemas =
        [
            "scrollView", "pullToRefresh", "pager", "slideTable", "drawer", "numberPad", "canvas", "zoomView",
            "memoBoard",
        ].map { SchemaID("state.\($0)", major: 1, minor: 0) } + [MemoBoardDelta.schema, RenderService.sceneSchema]
    public static let sceneSchema = SchemaID("scene", major: 2, minor: 1)
    public static let memoChangedSchema = SchemaID("memo.changed", major: 1, minor: 0)
    public static let commandSchema = SchemaID("component.command", major: 1, minor: 0)
    public static let memoSnapshotSchema = SchemaID("memo.snapshot", major: 1, minor: 0)
    static let snapshotRetryMs = (first: 1000, maximum: 16_000, unheard: 50)

    private let runner: ServiceRunner
    private let configuration: Configuration
    private let frames: FrameRenderer
    private var scene: RenderScene
    private var scheduler: FrameScheduler
    private let frameTopic: Topic
    private let animationTopic: Topic
    private let images: ImagePublisher
    private var applyTimer: Int?
    private var frameTimer: Int?
    private var framesPublished: UInt64 = 0
    /// Frames whose layers were those of the frame before: published, not drawn again.
    private var framesUnchanged: UInt64 = 0
    private var snapshotsWritten: UInt64 = 0
    private var lastRenderMs = 0.0
    private var lastStatistics = RenderStatistics()
    private let memoCommandTopic: Topic
    private var snapshotTimer: Int?
    private var snapshotRetryMs = RenderService.snapshotRetryMs.first
    /// The frame the render thread is drawing, if any.
    private var frameInFlight: Int?
    private var backgrounds = BackgroundImages()

    /// - Throws: ``ConfigurationError`` for a missing font or an unusable snapshot directory.
    public init(runner: ServiceRunner, configuration: Configuration) throws {
        self.runner = runner
        self.configuration = configuration
        do {
            self.scene = RenderScene(
                scene: configuration.scene,
                snapshotPrefix: "\(runner.name):\(String(runner.publisher.epoch, radix: 16))")
            self.frames = try FrameRenderer(
                renderer: LayerRenderer(
                    blur: BlurKernel(threads: configuration.threads), font: try FontFace.systemJapanese()),
                snapshots: try SnapshotWriter(directory: configuration.snapshotDirectory),
                imageEncoding: configuration.imageEncoding, imageQuality: configuration.imageQuality)
            self.images = try ImagePublisher(
                publisher: runner.publisher, surface: configuration.surface, scale: configuration.scale)
            self.frameTopic = try Topic("render/frame/")
            self.animationTopic = try Topic("render/animation/")
            self.memoCommandTopic = try Topic("memo/cmd/")
        } catch {
            throw ConfigurationError("\(error)")
        }
        self.scheduler = FrameScheduler(
            framesPerSecond: configuration.framesPerSecond, snapshotEvery: configuration.snapshotEvery)
    }

    /// Runs until a stop signal.
    public func run() throws {
        self.runner.healthExtra = { [unowned self] in
            var extra: ValueMap = [
                "frames": Value(self.framesPublished), "frames_unchanged": Value(self.framesUnchanged),
                "snapshots": Value(self.snapshotsWritten),
                "state_seq": Value(UInt64(self.scene.stateSeq)), "last_render_ms": .double(self.lastRenderMs),
                "layers_drawn": Value(UInt64(self.lastStatistics.layersDrawn)),
                "layers_culled": Value(UInt64(self.lastStatistics.layersCulled)),
                "offscreen_groups": Value(UInt64(self.lastStatistics.offscreenGroups)),
                "largest_offscreen_px": Value(UInt64(self.lastStatistics.largestOffscreenPixels)),
            ]
            for (key, value) in self.images.health { extra[key] = value }
            extra["images_skipped"] = Value(self.frames.imagesSkipped)
            return extra
        }
        try self.runner.subscribe(["ui/"], filter: SchemaFilter(Self.uiSchemas)) { [unowned self] delivery, _ in
            try self.apply(delivery) { value in
                if delivery.envelope.schema == Self.sceneSchema.id {
                    try self.scene.applyScene(value)
                } else if delivery.envelope.schema == MemoBoardDelta.schema.id {
                    try self.applyMemoBoardDelta(value)
                } else {
                    try self.publish(
                        try self.scene.applyState(value, schema: delivery.envelope.schema, atMs: Self.nowMs()))
                    self.images.noteState(value)
                }
            }
        }
        // Recognizer configurations share `ui/` (the last-value cache keeps them) but draw nothing:
        // their own route takes them, so they are neither drawn nor counted as unknown.
        try self.runner.subscribe(["ui/recognizer/"], filter: SchemaFilter([RecognizerConfig.self])) { _, _ in }
        try self.runner.subscribe(["memo/changed/"], filter: SchemaFilter([Self.memoChangedSchema])) {
            [unowned self] delivery, _ in
            try self.apply(delivery) { change in
                if let request = try self.scene.receiveMemoChange(change, epoch: delivery.envelope.epoch) {
                    try self.sendSnapshotRequest(request, first: true)
                }
            }
        }
        try self.runner.subscribe(
            ["memo/snapshot/\(self.runner.name)/"], filter: SchemaFilter([Self.memoSnapshotSchema])
        ) { [unowned self] delivery, _ in
            try self.apply(delivery) { chunk in
                if let request = try self.scene.receiveMemoSnapshot(chunk, epoch: delivery.envelope.epoch) {
                    try self.sendSnapshotRequest(request, first: true)
                }
            }
        }
        try self.runner.subscribe(["cmd/render/"], filter: SchemaFilter([Self.commandSchema])) {
            [unowned self] delivery, _ in
            let command = try? Value(messagePack: delivery.payload)
            guard let name = command?["command"]?.stringValue else {
                self.runner.statistics.reject("bad_payload")
                Log.error(self.runner.name, "bad_payload: a command without 'command' on \(delivery.topic)")
                return
            }
            switch name {
            case "snapshot": try self.perform(self.scheduler.handle(.snapshotRequested(atMs: Self.nowMs())))
            case "key_frame":
                // A viewer of the tiles lost one: the current state drawn again, as a key frame.
                self.images.requestKeyFrame()
                try self.perform(self.scheduler.handle(.redrawRequested(atMs: Self.nowMs())))
            default: self.runner.statistics.countReason("unknown_command")
            }
        }
        self.runner.watch(fileDescriptor: self.frames.wakeDescriptor) { [unowned self] in
            for (job, result) in self.frames.takeFinished() { try self.finish(job, result) }
            for (frameID, result) in self.frames.takeEncoded() { try self.publishImage(frameID, result) }
        }
        self.runner.onStop = { [unowned self] in try self.finishFrameInFlight() }
        self.runner.every(ms: ImagePublisher.pollMs) { [unowned self] in
            if try self.images.viewerJoined() {
                try self.perform(self.scheduler.handle(.redrawRequested(atMs: Self.nowMs())))
            }
        }
        let request = self.scene.requestMemoSnapshot()
        self.runner.at(deadlineNs: 0) { [unowned self] in try self.sendSnapshotRequest(request, first: true) }
        self.askForStates(afterMs: Self.snapshotRetryMs.first)
        try self.runner.run()
    }

    /// Says `resync` on `sys/lifecycle/` while no component state has arrived, backing off from 1 s
    /// to 16 s: the component host answers `ready` and `resync` with every state, but its answer
    /// to this worker's `ready` is lost if the worker's `ui/` subscription has not reached it yet
    /// (a restart on a busy machine), and then the worker would draw the bare scene until the next
    /// input.
    private func askForStates(afterMs waitMs: Int) {
        self.runner.at(deadlineNs: Clock.monotonicNs() + UInt64(waitMs) * 1_000_000) { [unowned self] in
            guard !self.scene.hasComponentStates else { return }
            try self.runner.announce(.resync, reason: "no component state yet")
            self.askForStates(afterMs: min(waitMs * 2, Self.snapshotRetryMs.maximum))
        }
    }

    /// Sends a `snapshot` command and arms its retry: while the request is still the one
    /// awaited when the timer fires, a new one goes out, each wait twice the last. Until the
    /// store's subscription to `memo/cmd/` has reached this publisher (just after start, or a
    /// store restarting), the command would be dropped unseen, so it is held and tried again
    /// shortly instead.
    private func sendSnapshotRequest(_ request: String, first: Bool) throws {
        let publisher = self.runner.publisher
        try publisher.drainSubscriptions()
        let heard = publisher.hasSubscriber(for: self.memoCommandTopic)
        if heard {
            try publisher.publish(
                MemoCommand {
                    $0.cmdId = request
                    $0.client = self.runner.name
                    $0.op = .snapshot
                }, on: self.memoCommandTopic)
        }
        if first { self.snapshotRetryMs = Self.snapshotRetryMs.first }
        if let timer = self.snapshotTimer { self.runner.cancel(timer: timer) }
        let waitMs = heard ? self.snapshotRetryMs : Self.snapshotRetryMs.unheard
        self.snapshotTimer = self.runner.at(deadlineNs: Clock.monotonicNs() + UInt64(waitMs) * 1_000_000) {
            [unowned self] in
            self.snapshotTimer = nil
            guard self.scene.pendingMemoSnapshot == request else { return }
            guard heard else { return try self.sendSnapshotRequest(request, first: false) }
            self.snapshotRetryMs = min(self.snapshotRetryMs * 2, Self.snapshotRetryMs.maximum)
            try self.sendSnapshotRequest(self.scene.requestMemoSnapshot(), first: false)
        }
    }

    /// Applies one state payload; the scheduler hears of it once the queued messages are drained.
    private func apply(_ delivery: Delivery, _ body: (Value) throws -> Void) throws {
        do {
            try body(try Value(messagePack: delivery.payload))
        } catch let error as RenderScene.StateError {
            self.reject(delivery, error.description)
            return
        } catch let error as CodecError {
            self.reject(delivery, "\(error)")
            return
        }
        guard self.applyTimer == nil else { return }
        self.applyTimer = self.runner.at(deadlineNs: Clock.monotonicNs()) { [unowned self] in
            self.applyTimer = nil
            try self.perform(self.scheduler.handle(.stateApplied(stateSeq: self.scene.stateSeq, atMs: Self.nowMs())))
        }
    }

    /// A board delta that does not follow the board's copy asks (once, until a full state
    /// comes) for every state again, with a `resync` on `sys/lifecycle/`.
    private func applyMemoBoardDelta(_ value: Value) throws {
        switch try self.scene.applyMemoBoardDelta(value, atMs: Self.nowMs()) {
        case .applied(let completions): try self.publish(completions)
        case .outOfStep(let askForFullState):
            self.runner.statistics.countReason("board_delta_out_of_step")
            if askForFullState { try self.runner.announce(.resync, reason: "memo board delta out of step") }
        }
    }

    private func reject(_ delivery: Delivery, _ reason: String) {
        self.runner.statistics.reject("bad_payload")
        Log.error(self.runner.name, "bad_payload: \(delivery.envelope.schema) on \(delivery.topic): \(reason)")
    }

    private func perform(_ effects: [FrameScheduler.Effect]) throws {
        for effect in effects {
            switch effect {
            case .armTimer(let atMs):
                if let timer = self.frameTimer { self.runner.cancel(timer: timer) }
                self.frameTimer = self.runner.at(deadlineNs: UInt64(max(atMs, 0) * 1e6)) { [unowned self] in
                    self.frameTimer = nil
                    try self.perform(self.scheduler.handle(.timerFired(atMs: Self.nowMs())))
                }
            case .render(let frameID, _, let writePNG):
                do {
                    if try self.startFrame(frameID: frameID, writePNG: writePNG) { continue }
                } catch {
                    self.runner.statistics.countReason("render_failed")
                    Log.error(self.runner.name, "render_failed: frame \(frameID): \(error)")
                }
                try self.frameFinished()
            }
        }
    }

    /// Takes the newest state's layers as frame `frameID` and hands them to the render thread.
    /// - Returns: false when there is nothing to draw (no scene yet).
    private func startFrame(frameID: Int, writePNG: Bool) throws -> Bool {
        let now = Self.nowMs()
        try self.publish(self.scene.frameStarted(atMs: now))
        self.loadBackgrounds()
        guard let (size, root) = try self.scene.layers(atMs: now) else { return false }
        let scale = self.configuration.scale
        self.frameInFlight = frameID
        self.frames.submit(
            FrameRenderer.Job(
                frameID: frameID, stateSeq: self.scene.stateSeq, root: root,
                width: Int((size.width * scale).rounded()), height: Int((size.height * scale).rounded()), scale: scale,
                writePNG: writePNG, image: try self.images.request()))
        return true
    }

    /// Reads the memo boards' background images not tried yet; one that cannot be shown is
    /// counted (`background_unreadable`) and logged once, and its board draws cork.
    private func loadBackgrounds() {
        for failure in self.backgrounds.load(self.scene.backgroundPaths) {
            self.runner.statistics.countReason("background_unreadable")
            Log.error(self.runner.name, "background_unreadable: \(failure) (drawing cork)")
        }
        self.scene.backgroundImages = self.backgrounds.images
    }

    /// On a stop signal: waits for the frame the render thread is drawing, so its snapshot is
    /// written whole (never cut off by the exit), and publishes it. A frame still drawing after
    /// ``Configuration/stopWaitSeconds`` is given up (its snapshot, unrenamed, never appears under its name).
    private func finishFrameInFlight() throws {
        guard let frameID = self.frameInFlight else { return }
        Log.error(self.runner.name, "stopping: waiting for frame \(frameID) in flight")
        guard self.frames.waitUntilIdle(seconds: self.configuration.stopWaitSeconds) else {
            Log.error(
                self.runner.name,
                "stopping: frame \(frameID) still drawing after \(self.configuration.stopWaitSeconds) s; left")
            return
        }
        for (job, result) in self.frames.takeFinished() { try self.finish(job, result) }
    }

    /// Publishes a frame the render thread finished (or counts its failure).
    private func finish(_ job: FrameRenderer.Job, _ result: Result<FrameRenderer.Output, any Error>) throws {
        self.frameInFlight = nil
        switch result {
        case .success(let output):
            if output.png != nil { self.snapshotsWritten += 1 }
            if output.unchanged { self.framesUnchanged += 1 }
            self.lastRenderMs = output.renderMs
            self.lastStatistics = output.statistics
            let timings = RenderFrame.Timings {
                $0.renderMs = output.renderMs
                $0.blurMs = output.blurMs
                $0.encodeMs = output.encodeMs
            }
            let frame = RenderFrame {
                $0.frameID = job.frameID
                $0.width = job.width
                $0.height = job.height
                $0.checksum = output.checksum
                $0.stateSeq = job.stateSeq
                $0.timings = timings
                $0.png = output.png
            }
            try self.runner.publisher.publish(frame, on: self.frameTopic)
            self.framesPublished += 1
        case .failure(let error):
            self.runner.statistics.countReason("render_failed")
            Log.error(self.runner.name, "render_failed: frame \(job.frameID): \(error)")
        }
        try self.frameFinished()
    }

    /// Publishes a frame's image for viewers; one that cannot be encoded or sent is counted
    /// (`image_failed`).
    private func publishImage(_ frameID: Int, _ result: Result<EncodedFrame, any Error>) throws {
        do {
            try self.images.publish(try result.get(), frameID: frameID)
        } catch let error as BusError {
            throw error
        } catch {
            self.runner.statistics.countReason("image_failed")
            Log.error(self.runner.name, "image_failed: frame \(frameID): \(error)")
        }
    }

    /// Tells the scheduler the frame is over; what it asks next runs from the loop, so a long
    /// animation never recurses here.
    private func frameFinished() throws {
        let next = self.scheduler.handle(.frameFinished(atMs: Self.nowMs(), stillAnimating: self.scene.isAnimating))
        if !next.isEmpty {
            self.runner.at(deadlineNs: Clock.monotonicNs()) { [unowned self] in try self.perform(next) }
        }
    }

    private func publish(_ completions: [Animator.Completion]) throws {
        for completion in completions {
            let message = RenderAnimation {
                $0.layer = completion.layer
                $0.property = RenderAnimation.Property(rawValue: completion.property.rawValue)!
                $0.finished = completion.finished
                $0.tMs = completion.atMs
                $0.animationID = completion.animationID
                $0.durationMs = completion.durationMs
            }
            try self.runner.publisher.publish(message, on: self.animationTopic)
        }
    }

    private static func nowMs() -> Double { Double(Clock.monotonicNs()) / 1e6 }
}
