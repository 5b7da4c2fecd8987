import BusSchema

#if canImport(Glibc)
    import Glibc
#endif

/// Swipe: decided when the last finger lifts. The dominant axis of the travel gives the
/// direction; it needs ≥ `minDistance` of travel along it, ≤ `maxAngleDegrees` of deviation,
/// ≥ `minVelocity` along it (LSQ2 at lift, same sign) and a direction in `directions`.
struct SwipeMachine: RecognizerMachine {
    private enum State: Sendable, Hashable {
        case possible
        /// Fingers are down; at most `mostTouches` were at once.
        case tracking(mostTouches: Int)
        case recognized(GestureEvent.Direction)
        case failed
    }

    var settings: RecognizerSettings
    private var state = State.possible
    private var translation = TranslationTracker()

    init(kind: GestureEvent.Kind, settings: RecognizerSettings, screen: Rect) {
        self.settings = settings
    }

    mutating func restart() {
        self.state = .possible
        self.translation.restart()
    }

    var status: MachineStatus {
        switch self.state {
        case .possible, .tracking: .possible
        case .recognized, .failed: .done
        }
    }

    mutating func handle(_ event: RecognizerEvent, touches: inout FollowedTouches) -> Proposal? {
        switch (event, self.state) {
        case (.frameEnded(let now), .possible):
            return self.judge(touches, mostTouches: 0, now: now)
        case (.frameEnded(let now), .tracking(let mostTouches)):
            return self.judge(touches, mostTouches: mostTouches, now: now)
        case (.arenaClosed, .possible), (.arenaClosed, .tracking):
            self.state = .failed
            return nil
        case (.frameEnded, _), (.deadlinePassed, _), (.arenaClosed, _):
            return nil
        }
    }

    private mutating func judge(_ touches: borrowing FollowedTouches, mostTouches: Int, now: SourceInstant) -> Proposal?
    {
        if touches.cancelled { return self.fail() }
        let most = max(mostTouches, touches.down.count)
        if most > self.settings.touchesRequired { return self.fail() }
        self.state = .tracking(mostTouches: most)
        self.translation.track(touches, at: now)
        let (dx, dy) = self.translation.translation
        guard touches.down.isEmpty else {
            // Fail early, as UIKit does, once the travel shows it cannot be an accepted swipe, so
            // recognizers waiting for it to fail need not wait for the lift.
            guard hypot(dx, dy) >= self.settings.minDistance else { return nil }
            let (direction, deviation) = Self.direction(dx, dy)
            let acceptable = deviation <= self.settings.maxAngleDegrees && self.settings.directions.contains(direction)
            return acceptable ? nil : self.fail()
        }
        guard most == self.settings.touchesRequired else { return self.fail() }
        let horizontal = abs(dx) >= abs(dy)
        let along = horizontal ? dx : dy
        let velocity = self.translation.velocity
        let speed = horizontal ? velocity.x : velocity.y
        let (direction, deviation) = Self.direction(dx, dy)
        guard abs(along) >= self.settings.minDistance, deviation <= self.settings.maxAngleDegrees,
            speed * along > 0, abs(speed) >= self.settings.minVelocity,
            self.settings.directions.contains(direction)
        else { return self.fail() }
        self.state = .recognized(direction)
        return .recognize
    }

    private mutating func fail() -> Proposal {
        self.state = .failed
        return .fail
    }

    /// The direction of the dominant axis of a travel and its deviation from that axis in degrees.
    private static func direction(_ dx: Double, _ dy: Double) -> (GestureEvent.Direction, Double) {
        let horizontal = abs(dx) >= abs(dy)
        let direction: GestureEvent.Direction = horizontal ? (dx >= 0 ? .right : .left) : (dy >= 0 ? .down : .up)
        let deviation = atan2(horizontal ? abs(dy) : abs(dx), horizontal ? abs(dx) : abs(dy)) * 180 / Double.pi
        return (direction, deviation)
    }

    mutating func describe(into event: inout GestureEvent) {
        let velocity = self.translation.velocity
        if case .recognized(let direction) = self.state { event.direction = direction }
        event.velocity = GestureEvent.Vector(x: velocity.x, y: velocity.y)
    }
}
