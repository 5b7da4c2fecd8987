import BusSchema

#if canImport(Glibc)
    import Glibc
#endif

extension RecognizerMachine {
    /// Pan and screen-edge pan.
    ///
    /// A pan begins when its translation exceeds the slop with `minTouches`…`maxTouches` fingers
    /// down, changes as they move and ends when fewer than `minTouches` remain. A screen-edge pan
    /// also needs its first touch to land within `edgeWidth` of one of its edges and its motion to
    /// point inward at least as much as along the edge; otherwise it fails.
    mutating func panFrame(tNs: Int64) -> Proposal? {
        if self.kind == .edgePan, self.edge == nil, self.landedCount > 0, self.touches.count == self.landedCount {
            self.edge = self.nearEdge(self.touches[0])
            if self.edge == nil { return .fail }
        }
        self.trackTranslation(tNs: tNs)
        if self.phase == .active {
            if self.cancelledTouch { return .cancel }
            if self.touches.count < self.settings.minTouches { return .end }
            return self.moved || self.landedCount > 0 ? .change : nil
        }
        if self.cancelledTouch || self.touches.count > self.settings.maxTouches { return .fail }
        if self.touches.isEmpty { return .fail }
        guard self.touches.count >= self.settings.minTouches else { return nil }
        let (dx, dy) = self.translation
        guard hypot(dx, dy) > self.settings.slop else { return nil }
        if let edge = self.edge {
            let (inward, along): (Double, Double)
            switch edge {
            case .left: (inward, along) = (dx, dy)
            case .right: (inward, along) = (-dx, dy)
            case .top: (inward, along) = (dy, dx)
            case .bottom: (inward, along) = (-dy, dx)
            }
            return inward >= abs(along) ? .begin : .fail
        }
        return .begin
    }

    private func nearEdge(_ touch: TrackedTouch) -> GestureEvent.Edge? {
        let width = self.settings.edgeWidth
        // Fixed order, so a touch in a corner picks the same edge every time.
        for edge in [GestureEvent.Edge.left, .right, .top, .bottom] where self.settings.edges.contains(edge) {
            switch edge {
            case .left where touch.startX - self.screen.x <= width: return edge
            case .right where self.screen.x + self.screen.width - touch.startX <= width: return edge
            case .top where touch.startY - self.screen.y <= width: return edge
            case .bottom where self.screen.y + self.screen.height - touch.startY <= width: return edge
            default: continue
            }
        }
        return nil
    }

    /// Swipe: decided when the last finger lifts. The dominant axis of the travel gives the
    /// direction; it needs ≥ `minDistance` of travel along it, ≤ `maxAngleDegrees` of deviation,
    /// ≥ `minVelocity` along it (LSQ2 at lift, same sign) and a direction in `directions`.
    mutating func swipeFrame(tNs: Int64) -> Proposal? {
        if self.cancelledTouch { return .fail }
        self.tapMaxTouches = max(self.tapMaxTouches, self.touches.count)
        if self.tapMaxTouches > self.settings.touchesRequired { return .fail }
        self.trackTranslation(tNs: tNs)
        guard self.touches.isEmpty else {
            // Fail early, as UIKit does, once the travel shows it cannot be an accepted swipe, so
            // recognizers waiting for it to fail need not wait for the lift.
            let (dx, dy) = self.translation
            guard hypot(dx, dy) >= self.settings.minDistance else { return nil }
            let (direction, deviation) = Self.direction(dx, dy)
            let acceptable = deviation <= self.settings.maxAngleDegrees && self.settings.directions.contains(direction)
            return acceptable ? nil : .fail
        }
        guard self.tapMaxTouches == self.settings.touchesRequired else { return .fail }
        let (dx, dy) = self.translation
        let horizontal = abs(dx) >= abs(dy)
        let along = horizontal ? dx : dy
        let velocity = self.tracker.velocity(atNs: tNs)
        let speed = horizontal ? velocity.x : velocity.y
        let (direction, deviation) = Self.direction(dx, dy)
        guard abs(along) >= self.settings.minDistance, deviation <= self.settings.maxAngleDegrees,
            speed * along > 0, abs(speed) >= self.settings.minVelocity,
            self.settings.directions.contains(direction)
        else { return .fail }
        self.direction = direction
        return .recognize
    }

    /// The direction of the dominant axis of a travel and its deviation from that axis in degrees.
    private static func direction(_ dx: Double, _ dy: Double) -> (GestureEvent.Direction, Double) {
        let horizontal = abs(dx) >= abs(dy)
        let direction: GestureEvent.Direction = horizontal ? (dx >= 0 ? .right : .left) : (dy >= 0 ? .down : .up)
        let deviation = atan2(horizontal ? abs(dy) : abs(dx), horizontal ? abs(dx) : abs(dy)) * 180 / Double.pi
        return (direction, deviation)
    }
}
