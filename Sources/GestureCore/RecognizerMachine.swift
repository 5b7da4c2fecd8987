import BusSchema

#if canImport(Glibc)
    import Glibc
#endif

/// One touch a recognizer follows.
struct TrackedTouch: Sendable, Hashable {
    var id: Int
    var startX: Double
    var startY: Double
    var x: Double
    var y: Double
}

/// What a recognizer asks its arena to do after a frame or a timer.
enum Proposal: Sendable, Hashable {
    /// A continuous gesture wants to begin.
    case begin
    case change
    case end
    case cancel
    /// A discrete gesture wants to be recognized.
    case recognize
    case fail
}

/// One recognizer's own state machine (UIKit semantics), without relationships: the arena feeds it
/// touches and time and decides what its proposals become.
///
/// Internally `possible` → `active` (a continuous gesture in progress, published or held by the
/// arena) → `done`; a done recognizer ignores new touches and resets to `possible` once all its
/// touches have lifted. Multi-tap recognizers stay `possible` between taps.
struct RecognizerMachine: Sendable {
    enum Phase: Sendable, Hashable {
        case possible
        case active
        case done
    }

    let kind: GestureEvent.Kind
    /// Changed only by a run-time configuration (``GestureArena/replacePlan(_:)``).
    var settings: RecognizerSettings
    /// The screen, for screen-edge pans.
    let screen: Rect

    private(set) var phase = Phase.possible
    private(set) var touches: [TrackedTouch] = []
    /// Touches lifted in the frame being handled (their last positions).
    private(set) var lifted: [TrackedTouch] = []
    private(set) var landedCount = 0
    private(set) var cancelledTouch = false
    private(set) var moved = false
    /// When ``timeElapsed(tNs:)`` must be called.
    private(set) var deadlineNs: Int64?

    // Taps.
    var tapCount = 0
    var tapMaxTouches = 0
    var tapDownNs: Int64 = 0
    var firstTapX = 0.0
    var firstTapY = 0.0
    /// Where the current tap's fingers were when the most of them were down.
    var tapX = 0.0
    var tapY = 0.0

    // Translation (pan, edgePan, swipe): translation = base + centroid − anchor.
    var anchorX = 0.0
    var anchorY = 0.0
    var baseX = 0.0
    var baseY = 0.0
    var lastCentroidX = 0.0
    var lastCentroidY = 0.0
    var tracker = VelocityTracker()

    // Two-finger gestures (pinch, rotation).
    var pairIDs: (Int, Int)?
    var startSpan = 0.0
    var lastAngle = 0.0
    var rotation = 0.0
    var scale = 1.0
    var transformTracker = VelocityTracker()

    /// Where the touches were and how many, as of the last frame (for events fired by timers).
    var lastLocationX = 0.0
    var lastLocationY = 0.0
    var lastTouchCount = 0

    var edge: GestureEvent.Edge?
    var direction: GestureEvent.Direction?
    /// The time of the last tracked sample; velocities are fitted only when an event needs them.
    var sampledNs: Int64 = 0

    init(kind: GestureEvent.Kind, settings: RecognizerSettings, screen: Rect) {
        self.kind = kind
        self.settings = settings
        self.screen = screen
    }

    /// Whether the recognizer takes part in the current touch sequence (so others may wait for it).
    var isParticipating: Bool {
        !self.touches.isEmpty || !self.lifted.isEmpty || self.tapCount > 0 || self.phase != .possible
    }

    func follows(_ id: Int) -> Bool { self.touches.contains { $0.id == id } }

    // MARK: - Touches, as the arena delivers them

    /// A touch the recognizer receives landed (only while it is not done).
    mutating func land(id: Int, x: Double, y: Double) {
        // A source that begins a followed id again is inconsistent: treat it as a move, so the id
        // is followed once and its one lift frees the recognizer.
        if self.move(id: id, x: x, y: y) { return }
        self.touches.append(TrackedTouch(id: id, startX: x, startY: y, x: x, y: y))
        self.landedCount += 1
    }

    /// A followed touch moved or stayed; returns whether the recognizer follows it.
    mutating func move(id: Int, x: Double, y: Double) -> Bool {
        guard let index = self.touches.firstIndex(where: { $0.id == id }) else { return false }
        if self.touches[index].x != x || self.touches[index].y != y {
            self.touches[index].x = x
            self.touches[index].y = y
            self.moved = true
        }
        return true
    }

    /// A followed touch ended or was cancelled; returns whether the recognizer followed it.
    mutating func lift(id: Int, x: Double, y: Double, cancelled: Bool) -> Bool {
        guard let index = self.touches.firstIndex(where: { $0.id == id }) else { return false }
        var touch = self.touches.remove(at: index)
        if touch.x != x || touch.y != y { self.moved = true }
        touch.x = x
        touch.y = y
        self.lifted.append(touch)
        if cancelled { self.cancelledTouch = true }
        return true
    }

    /// Called once after a frame's touches were delivered; returns the recognizer's proposal.
    mutating func frameEnded(tNs: Int64) -> Proposal? {
        guard self.phase != .done else { return nil }
        (self.lastLocationX, self.lastLocationY) = self.location
        self.lastTouchCount = self.touchCount
        let proposal: Proposal?
        switch self.kind {
        case .tap, .doubleTap: proposal = self.tapFrame(tNs: tNs)
        case .longPress: proposal = self.longPressFrame(tNs: tNs)
        case .pan, .edgePan: proposal = self.panFrame(tNs: tNs)
        case .swipe: proposal = self.swipeFrame(tNs: tNs)
        case .pinch, .rotation: proposal = self.transformFrame(tNs: tNs)
        case .touchDown: proposal = self.touchDownFrame()
        }
        self.apply(proposal)
        return proposal
    }

    /// Forgets the frame's lifted touches and flags, after the arena has published its events.
    mutating func clearFrame() {
        if !self.lifted.isEmpty { self.lifted.removeAll(keepingCapacity: true) }
        self.landedCount = 0
        self.cancelledTouch = false
        self.moved = false
    }

    /// Called when time reaches ``deadlineNs``.
    mutating func timeElapsed(tNs: Int64) -> Proposal? {
        guard let deadline = self.deadlineNs, tNs >= deadline, self.phase != .done else { return nil }
        self.deadlineNs = nil
        let proposal: Proposal?
        switch self.kind {
        case .tap, .doubleTap: proposal = .fail  // held too long, or the next tap never came
        case .longPress: proposal = self.touches.count == self.settings.touchesRequired ? .begin : .fail
        default: proposal = nil
        }
        self.apply(proposal)
        return proposal
    }

    /// The arena decided this recognizer fails or is cancelled: it ignores input until its touches lift.
    mutating func forceDone() {
        self.phase = .done
        self.deadlineNs = nil
    }

    /// Back to `possible` once done and every touch has lifted; returns whether it reset.
    mutating func resetIfFinished() -> Bool {
        guard self.phase == .done, self.touches.isEmpty else { return false }
        // A fresh machine, but with the old arrays' storage (emptied): touch sequence after touch
        // sequence then allocates nothing.
        var fresh = RecognizerMachine(kind: self.kind, settings: self.settings, screen: self.screen)
        swap(&fresh.touches, &self.touches)
        swap(&fresh.lifted, &self.lifted)
        fresh.lifted.removeAll(keepingCapacity: true)
        self = fresh
        return true
    }

    private mutating func apply(_ proposal: Proposal?) {
        switch proposal {
        case .begin: self.phase = .active
        case .recognize, .end, .cancel, .fail:
            self.phase = .done
            self.deadlineNs = nil
        case .change, nil: break
        }
    }

    mutating func setDeadline(_ tNs: Int64?) {
        self.deadlineNs = tNs
    }

    // MARK: - Geometry

    /// Centroid of the followed touches, or of the ones lifted this frame when none is left.
    var location: (x: Double, y: Double) {
        Self.centroid(self.touches) ?? Self.centroid(self.lifted) ?? (self.lastLocationX, self.lastLocationY)
    }

    /// The touches involved in the frame: still down plus lifted in it.
    var touchCount: Int {
        let count = self.touches.count + self.lifted.count
        return count > 0 ? count : self.lastTouchCount
    }

    var translation: (x: Double, y: Double) {
        (self.baseX + self.lastCentroidX - self.anchorX, self.baseY + self.lastCentroidY - self.anchorY)
    }

    /// Updates the translation and its velocity after a frame. The translation stays continuous
    /// when fingers land or lift: the old set's movement goes into the base and the new set's
    /// centroid becomes the anchor.
    mutating func trackTranslation(tNs: Int64) {
        if self.landedCount > 0 || !self.lifted.isEmpty {
            // Landed touches were appended last, so the old set is the rest plus the lifted ones.
            let old = self.touches.prefix(self.touches.count - self.landedCount) + self.lifted
            if let oldCentroid = Self.centroid(old) {
                self.baseX += oldCentroid.x - self.anchorX
                self.baseY += oldCentroid.y - self.anchorY
                (self.anchorX, self.anchorY) = Self.centroid(self.touches) ?? oldCentroid
            } else if let first = Self.centroid(self.touches) {
                (self.anchorX, self.anchorY) = first
            }
            (self.lastCentroidX, self.lastCentroidY) = (self.anchorX, self.anchorY)
        } else if let current = Self.centroid(self.touches) {
            (self.lastCentroidX, self.lastCentroidY) = current
        }
        let translation = self.translation
        self.tracker.add(tNs: tNs, x: translation.x, y: translation.y)
        self.sampledNs = tNs
    }

    static func centroid<C: Collection>(_ touches: C) -> (x: Double, y: Double)? where C.Element == TrackedTouch {
        guard !touches.isEmpty else { return nil }
        var x = 0.0
        var y = 0.0
        for touch in touches {
            x += touch.x
            y += touch.y
        }
        return (x / Double(touches.count), y / Double(touches.count))
    }

    /// Whether any followed touch moved farther than `distance` from where it landed.
    func anyTouchMoved(beyond distance: Double) -> Bool {
        let moved: (TrackedTouch) -> Bool = { hypot($0.x - $0.startX, $0.y - $0.startY) > distance }
        return self.touches.contains(where: moved) || self.lifted.contains(where: moved)
    }

    /// Fills in the kind's own values (translation, velocity, scale, rotation, direction, edge).
    func describe(into event: inout GestureEvent) {
        switch self.kind {
        case .pan, .edgePan:
            let translation = self.translation
            let velocity = self.tracker.velocity(atNs: self.sampledNs)
            event.translation = GestureEvent.Vector(x: translation.x, y: translation.y)
            event.velocity = GestureEvent.Vector(x: velocity.x, y: velocity.y)
            event.edge = self.edge
        case .swipe:
            let velocity = self.tracker.velocity(atNs: self.sampledNs)
            event.direction = self.direction
            event.velocity = GestureEvent.Vector(x: velocity.x, y: velocity.y)
        case .pinch:
            event.scale = self.scale
            event.scaleVelocity = self.transformTracker.velocity(atNs: self.sampledNs).x
        case .rotation:
            event.rotation = self.rotation
            event.rotationVelocity = self.transformTracker.velocity(atNs: self.sampledNs).y
        case .tap, .doubleTap, .longPress, .touchDown:
            break
        }
    }
}
