import BusSchema

/// Long press: `touchesRequired` fingers held `minDuration` within `allowableMovement` begins it
/// (from the timer); it changes as they move and ends when one lifts.
struct LongPressMachine: RecognizerMachine {
    var settings: RecognizerSettings
    private var state = ContinuousPhase.possible
    /// While possible with the required fingers down: when it begins (their landing plus
    /// `minDuration`).
    private var pressedUntil: SourceInstant?

    init(kind: GestureEvent.Kind, settings: RecognizerSettings, screen: Rect) {
        self.settings = settings
    }

    mutating func restart() {
        self.state = .possible
        self.pressedUntil = nil
    }

    var status: MachineStatus {
        if self.state == .possible, let until = self.pressedUntil { return MachineStatus(deadline: until) }
        return self.state.status
    }

    mutating func handle(_ event: RecognizerEvent, touches: inout FollowedTouches) -> Proposal? {
        switch (event, self.state) {
        case (.frameEnded, .began):
            if touches.cancelled { return self.state.finish(.cancel) }
            if touches.down.count < self.settings.touchesRequired { return self.state.finish(.end) }
            return touches.moved ? .change : nil
        case (.frameEnded(let now), .possible):
            if touches.cancelled || !touches.lifted.isEmpty { return self.state.finish(.fail) }
            if touches.down.count > self.settings.touchesRequired { return self.state.finish(.fail) }
            if touches.anyMoved(beyond: self.settings.allowableMovement) { return self.state.finish(.fail) }
            if touches.landedCount > 0, touches.down.count == self.settings.touchesRequired {
                self.pressedUntil = now + self.settings.minDuration
            }
            return nil
        case (.deadlinePassed, .possible) where self.pressedUntil != nil:
            guard touches.down.count == self.settings.touchesRequired else { return self.state.finish(.fail) }
            return self.state.begin()
        case (.arenaClosed, _):
            return self.state.close()
        case (.frameEnded, .finished), (.deadlinePassed, _):
            return nil
        }
    }
}
