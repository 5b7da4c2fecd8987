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

/// The touches one recognizer follows, and what happened to them in the frame being handled.
///
/// The arena delivers a frame's contacts here, then hands the set to the recognizer's machine
/// with ``RecognizerEvent/frameEnded(at:)`` and clears the frame's marks once its events are out.
struct FollowedTouches: Sendable {
    /// Still down, in landing order.
    private(set) var down: [TrackedTouch] = []
    /// Lifted in the frame being handled (their last positions).
    private(set) var lifted: [TrackedTouch] = []
    /// How many of `down` landed in this frame (they are the last ones).
    private(set) var landedCount = 0
    /// A touch was cancelled in this frame.
    private(set) var cancelled = false
    /// A touch moved in this frame.
    private(set) var moved = false
    /// Where the touches were and how many, as of the last frame the machine judged (for events
    /// fired by timers and after every touch is gone).
    private var lastX = 0.0
    private var lastY = 0.0
    private var lastCount = 0

    /// Whether it follows or has just lifted any touch.
    var isEmpty: Bool { self.down.isEmpty && self.lifted.isEmpty }

    func follows(_ id: Int) -> Bool { self.down.contains { $0.id == id } }

    /// A touch landed where the recognizer receives it.
    mutating func land(id: Int, x: Double, y: Double) {
        // A source that begins a followed id again is inconsistent: treat it as a move, so the id
        // is followed once and its one lift frees the recognizer.
        if self.move(id: id, x: x, y: y) { return }
        self.down.append(TrackedTouch(id: id, startX: x, startY: y, x: x, y: y))
        self.landedCount += 1
    }

    /// A touch moved or stayed; returns whether it is followed.
    mutating func move(id: Int, x: Double, y: Double) -> Bool {
        guard let index = self.down.firstIndex(where: { $0.id == id }) else { return false }
        if self.down[index].x != x || self.down[index].y != y {
            self.down[index].x = x
            self.down[index].y = y
            self.moved = true
        }
        return true
    }

    /// A touch ended or was cancelled; returns whether it was followed.
    mutating func lift(id: Int, x: Double, y: Double, cancelled: Bool) -> Bool {
        guard let index = self.down.firstIndex(where: { $0.id == id }) else { return false }
        var touch = self.down.remove(at: index)
        if touch.x != x || touch.y != y { self.moved = true }
        touch.x = x
        touch.y = y
        self.lifted.append(touch)
        if cancelled { self.cancelled = true }
        return true
    }

    /// Remembers where the touches are, before the machine judges the frame.
    mutating func frameJudged() {
        (self.lastX, self.lastY) = self.location
        self.lastCount = self.count
    }

    /// Forgets the frame's lifted touches and marks, after the arena has published its events.
    mutating func clearFrame() {
        if !self.lifted.isEmpty { self.lifted.removeAll(keepingCapacity: true) }
        self.landedCount = 0
        self.cancelled = false
        self.moved = false
    }

    /// Forgets everything but the arrays' storage: touch sequence after touch sequence then
    /// allocates nothing.
    mutating func reset() {
        // Guarded: removing nothing still costs a call of the generic `replaceSubrange`, and a
        // finished recognizer has no touch down.
        if !self.down.isEmpty { self.down.removeAll(keepingCapacity: true) }
        self.clearFrame()
        (self.lastX, self.lastY, self.lastCount) = (0, 0, 0)
    }

    // MARK: - Geometry

    /// Centroid of the touches down, or of the ones lifted this frame when none is left.
    var location: (x: Double, y: Double) {
        Self.centroid(self.down) ?? Self.centroid(self.lifted) ?? (self.lastX, self.lastY)
    }

    /// The touches involved in the frame: still down plus lifted in it.
    var count: Int {
        let count = self.down.count + self.lifted.count
        return count > 0 ? count : self.lastCount
    }

    /// The touches down before this frame's landings: the old set of a translation.
    var downBeforeFrame: ArraySlice<TrackedTouch> { self.down.prefix(self.down.count - self.landedCount) }

    /// A followed touch by id, down or lifted in this frame.
    func touch(_ id: Int) -> TrackedTouch? {
        self.down.first { $0.id == id } ?? self.lifted.first { $0.id == id }
    }

    /// Whether any touch moved farther than `distance` from where it landed.
    func anyMoved(beyond distance: Double) -> Bool {
        let moved: (TrackedTouch) -> Bool = { hypot($0.x - $0.startX, $0.y - $0.startY) > distance }
        return self.down.contains(where: moved) || self.lifted.contains(where: moved)
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
}
