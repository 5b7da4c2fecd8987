import BusSchema

/// The translation of a set of fingers and its velocity (pan, screen-edge pan, swipe):
/// translation = base + centroid − anchor.
///
/// It stays continuous when fingers land or lift: the old set's movement goes into the base and
/// the new set's centroid becomes the anchor.
struct TranslationTracker: Sendable {
    private var (anchorX, anchorY) = (0.0, 0.0)
    private var (baseX, baseY) = (0.0, 0.0)
    private var (lastCentroidX, lastCentroidY) = (0.0, 0.0)
    private var tracker = VelocityTracker()
    /// The time of the last sample; velocities are fitted only when an event needs them.
    private(set) var sampled = SourceInstant(nanoseconds: 0)

    var translation: (x: Double, y: Double) {
        (self.baseX + self.lastCentroidX - self.anchorX, self.baseY + self.lastCentroidY - self.anchorY)
    }

    /// The velocity as of the last sample, in points per second.
    var velocity: (x: Double, y: Double) { self.tracker.velocity(at: self.sampled) }

    /// Back to a fresh tracker's state, its samples' storage kept.
    mutating func restart() {
        var tracker = VelocityTracker()
        swap(&tracker, &self.tracker)
        tracker.reset()
        self = TranslationTracker()
        self.tracker = tracker
    }

    /// Updates the translation and its samples after a frame at `now`.
    mutating func track(_ touches: borrowing FollowedTouches, at now: SourceInstant) {
        if touches.landedCount > 0 || !touches.lifted.isEmpty {
            // Landed touches were appended last, so the old set is the rest plus the lifted ones.
            let old = touches.downBeforeFrame + touches.lifted
            if let oldCentroid = FollowedTouches.centroid(old) {
                self.baseX += oldCentroid.x - self.anchorX
                self.baseY += oldCentroid.y - self.anchorY
                (self.anchorX, self.anchorY) = FollowedTouches.centroid(touches.down) ?? oldCentroid
            } else if let first = FollowedTouches.centroid(touches.down) {
                (self.anchorX, self.anchorY) = first
            }
            (self.lastCentroidX, self.lastCentroidY) = (self.anchorX, self.anchorY)
        } else if let current = FollowedTouches.centroid(touches.down) {
            (self.lastCentroidX, self.lastCentroidY) = current
        }
        let translation = self.translation
        self.tracker.add(at: now, x: translation.x, y: translation.y)
        self.sampled = now
    }
}
