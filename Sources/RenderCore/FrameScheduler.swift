/// Decides when the render worker draws: at most `framesPerSecond` on average, always from the
/// newest state (states arriving while a frame is being drawn coalesce into the next one), and
/// while animations run. Time is an input; the owner renders, publishes and arms timers.
///
/// The rate is kept as a virtual schedule (the generic cell rate algorithm), one frame an
/// interval, that a frame may run ahead of by one interval: a state arriving a little early for
/// a fixed interval since the last frame (input at the display's own 60 Hz, jittered on its way
/// over the bus) is drawn at once, not held for the rest of the interval, while a flood still
/// gets no more than `framesPerSecond` frames a second.
public struct FrameScheduler: Sendable {
    /// What happened.
    public enum Event: Sendable, Equatable {
        /// A `ui/` or `memo/changed/` message was applied to the scene state; `stateSeq` counts them.
        case stateApplied(stateSeq: Int, atMs: Double)
        /// The timer armed by ``Effect/armTimer(atMs:)`` fired.
        case timerFired(atMs: Double)
        /// The frame asked for by ``Effect/render(frameID:stateSeq:writePNG:)`` is done.
        case frameFinished(atMs: Double, stillAnimating: Bool)
        /// Someone asked for a PNG snapshot of the next frame.
        case snapshotRequested(atMs: Double)
        /// The current state must be drawn again though it did not change (a viewer joined).
        case redrawRequested(atMs: Double)
    }

    /// What the owner must do.
    public enum Effect: Sendable, Equatable {
        /// Draw the current state as frame `frameID`, then send ``Event/frameFinished(atMs:stillAnimating:)``.
        case render(frameID: Int, stateSeq: Int, writePNG: Bool)
        /// Send ``Event/timerFired(atMs:)`` at this time (replaces any timer armed before).
        case armTimer(atMs: Double)
    }

    private enum State: Sendable, Equatable {
        /// Nothing to draw.
        case idle
        /// Something to draw, waiting for the frame interval (a timer is armed).
        case waiting
        /// A frame is being drawn; `dirty` when newer state or animation needs another.
        case rendering(dirty: Bool)
    }

    private var state = State.idle
    private var latestSeq = 0
    /// When the next frame is due on the virtual schedule; a frame may start one interval before.
    private var scheduledMs = -Double.infinity
    private var nextFrameID = 1
    private var snapshotPending = false
    private var framesSinceSnapshot = 0
    private let intervalMs: Double
    private let snapshotEvery: Int?

    /// - Parameters:
    ///   - framesPerSecond: the most frames per second (> 0).
    ///   - snapshotEvery: write a PNG every N frames (nil: only on request).
    public init(framesPerSecond: Double = 60, snapshotEvery: Int? = nil) {
        intervalMs = 1000 / max(framesPerSecond, 0.001)
        self.snapshotEvery = snapshotEvery.flatMap { $0 > 0 ? $0 : nil }
    }

    public mutating func handle(_ event: Event) -> [Effect] {
        switch (state, event) {
        case (.idle, .stateApplied(let seq, let now)):
            latestSeq = max(latestSeq, seq)
            return startOrWait(now)
        case (.idle, .snapshotRequested(let now)):
            snapshotPending = true
            return startOrWait(now)
        case (.idle, .redrawRequested(let now)):
            return startOrWait(now)
        case (.waiting, .redrawRequested):
            return []
        case (.rendering, .redrawRequested):
            state = .rendering(dirty: true)
            return []
        case (.waiting, .stateApplied(let seq, _)):
            latestSeq = max(latestSeq, seq)
            return []
        case (.rendering, .stateApplied(let seq, _)):
            latestSeq = max(latestSeq, seq)
            state = .rendering(dirty: true)
            return []
        case (.waiting, .snapshotRequested), (.rendering, .snapshotRequested):
            snapshotPending = true
            if case .rendering = state { state = .rendering(dirty: true) }
            return []
        case (.waiting, .timerFired(let now)):
            return start(now)
        case (.idle, .timerFired), (.rendering, .timerFired):
            return []
        case (.rendering(let dirty), .frameFinished(let now, let animating)):
            state = .idle
            return dirty || animating ? startOrWait(now) : []
        case (_, .frameFinished):
            return []
        }
    }

    private mutating func startOrWait(_ now: Double) -> [Effect] {
        let due = scheduledMs - intervalMs
        if now >= due { return start(now) }
        state = .waiting
        return [.armTimer(atMs: due)]
    }

    private mutating func start(_ now: Double) -> [Effect] {
        state = .rendering(dirty: false)
        scheduledMs = max(scheduledMs, now) + intervalMs
        framesSinceSnapshot += 1
        var png = snapshotPending
        if let snapshotEvery, framesSinceSnapshot >= snapshotEvery { png = true }
        if png {
            snapshotPending = false
            framesSinceSnapshot = 0
        }
        defer { nextFrameID += 1 }
        return [.render(frameID: nextFrameID, stateSeq: latestSeq, writePNG: png)]
    }
}
