import BusSchema

#if canImport(Glibc)
    import Glibc
#endif

/// Pinch and rotation follow the first two fingers down.
///
/// The span and angle are taken when the second finger lands. A pinch begins once the span has
/// changed by more than `pinchSlop` (scale = span / start span); a rotation once the angle has
/// turned by more than `rotationSlop` (radians, unwrapped, positive turning +x toward +y). They
/// end when fewer than two of the pair remain, and fail if every finger lifts first.
struct TransformMachine: RecognizerMachine {
    /// The two fingers followed and where the measure started.
    private struct Pair: Sendable, Hashable {
        var first: Int
        var second: Int
        var startSpan: Double
        var lastAngle: Double
    }

    let kind: GestureEvent.Kind
    var settings: RecognizerSettings
    private var state = ContinuousPhase.possible
    /// Once two fingers are down (always when it has begun).
    private var pair: Pair?
    /// The last measure, kept after the end for the events published then.
    private var scale = 1.0
    private var rotation = 0.0
    private var tracker = VelocityTracker()
    private var sampled = SourceInstant(nanoseconds: 0)

    init(kind: GestureEvent.Kind, settings: RecognizerSettings, screen: Rect) {
        self.kind = kind
        self.settings = settings
    }

    mutating func restart() {
        self.state = .possible
        self.pair = nil
        (self.scale, self.rotation) = (1, 0)
        self.tracker.reset()
        self.sampled = SourceInstant(nanoseconds: 0)
    }

    var status: MachineStatus { self.state.status }

    mutating func handle(_ event: RecognizerEvent, touches: inout FollowedTouches) -> Proposal? {
        switch (event, self.state) {
        case (.frameEnded(let now), .possible):
            return self.judge(touches, began: false, now: now)
        case (.frameEnded(let now), .began):
            return self.judge(touches, began: true, now: now)
        case (.arenaClosed, _):
            return self.state.close()
        case (.frameEnded, .finished), (.deadlinePassed, _):
            return nil
        }
    }

    private mutating func judge(
        _ touches: borrowing FollowedTouches, began: Bool, now: SourceInstant
    ) -> Proposal? {
        var pair = self.pair
        if pair == nil, touches.down.count >= 2 {
            var new = Pair(first: touches.down[0].id, second: touches.down[1].id, startSpan: 0, lastAngle: 0)
            let (span, angle) = Self.spanAndAngle(new, touches)
            new.startSpan = max(span, 1)
            new.lastAngle = angle
            (self.rotation, self.scale) = (0, 1)
            self.tracker.reset()
            pair = new
        }
        var span = 0.0
        if var current = pair {
            // Positions include a finger lifted in this frame, so the last values are exact.
            let angle: Double
            (span, angle) = Self.spanAndAngle(current, touches)
            var turn = angle - current.lastAngle
            if turn > Double.pi { turn -= 2 * Double.pi }
            if turn < -Double.pi { turn += 2 * Double.pi }
            self.rotation += turn
            current.lastAngle = angle
            self.scale = span / current.startSpan
            self.tracker.add(at: now, x: self.scale, y: self.rotation)
            self.sampled = now
            pair = current
            if !(touches.follows(current.first) && touches.follows(current.second)) {
                pair = nil
                if began { return self.state.finish(touches.cancelled ? .cancel : .end) }
            }
        }
        if touches.cancelled { return self.state.finish(began ? .cancel : .fail) }
        if touches.down.isEmpty { return self.state.finish(began ? .end : .fail) }
        self.pair = pair
        guard let pair else { return nil }
        if began { return touches.moved ? .change : nil }
        let started =
            self.kind == .pinch
            ? abs(span - pair.startSpan) > self.settings.pinchSlop
            : abs(self.rotation) > self.settings.rotationSlop
        return started ? self.state.begin() : nil
    }

    /// The pair's span and angle (0 when one of them is gone), found in one pass: this runs for
    /// two recognizers on every frame.
    private static func spanAndAngle(_ pair: Pair, _ touches: borrowing FollowedTouches) -> (
        span: Double, angle: Double
    ) {
        guard let a = touches.touch(pair.first), let b = touches.touch(pair.second) else { return (0, 0) }
        return (hypot(b.x - a.x, b.y - a.y), atan2(b.y - a.y, b.x - a.x))
    }

    mutating func describe(into event: inout GestureEvent) {
        let velocity = self.tracker.velocity(at: self.sampled)
        if self.kind == .pinch {
            event.scale = self.scale
            event.scaleVelocity = velocity.x
        } else {
            event.rotation = self.rotation
            event.rotationVelocity = velocity.y
        }
    }
}
