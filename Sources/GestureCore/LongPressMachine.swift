import BusSchema

/// Long press: `touchesRequired` fingers held `minDuration` within `allowableMovement` begins it
/// (from the timer); it changes as they move and ends when one lifts.
struct LongPressMachine: RecognizerMachine {
    private enum State: Sendable, Hashable {
        case possible
        /// The required fingers are down; it begins at `until` (their landing plus `minDuration`).
        case pressing(until: SourceInstant)
        case began
        /// Ended, cancelled or failed.
        case finished
    }

    var settings: RecognizerSettings
    private var state = State.possible

    init(kind: GestureEvent.Kind, settings: RecognizerSettings, screen: Rect) {
        self.settings = settings
    }

    mutating func restart() { self.state = .possible }

    var status: MachineStatus {
        switch self.state {
        case .possible: .possible
        case .pressing(let until): MachineStatus(deadline: until)
        case .began: .underway
        case .finished: .done
        }
    }

    mutating func handle(_ event: RecognizerEvent, touches: inout FollowedTouches) -> Proposal? {
        switch (event, self.state) {
        case (.frameEnded, .began):
            if touches.cancelled { return self.finish(.cancel) }
            if touches.down.count < self.settings.touchesRequired { return self.finish(.end) }
            return touches.moved ? .change : nil
        case (.frameEnded(let now), .possible), (.frameEnded(let now), .pressing):
            if touches.cancelled || !touches.lifted.isEmpty { return self.finish(.fail) }
            if touches.down.count > self.settings.touchesRequired { return self.finish(.fail) }
            if touches.anyMoved(beyond: self.settings.allowableMovement) { return self.finish(.fail) }
            if touches.landedCount > 0, touches.down.count == self.settings.touchesRequired {
                self.state = .pressing(until: now + self.settings.minDuration)
            }
            return nil
        case (.deadlinePassed, .pressing):
            guard touches.down.count == self.settings.touchesRequired else { return self.finish(.fail) }
            self.state = .began
            return .begin
        case (.arenaClosed, .possible), (.arenaClosed, .pressing), (.arenaClosed, .began):
            self.state = .finished
            return nil
        case (.frameEnded, .finished), (.deadlinePassed, _), (.arenaClosed, .finished):
            return nil
        }
    }

    private mutating func finish(_ proposal: Proposal) -> Proposal {
        self.state = .finished
        return proposal
    }
}
