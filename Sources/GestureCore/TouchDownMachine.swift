import BusSchema

/// Touch-down: begins the instant one finger lands (no slop, no delay), changes as it moves,
/// ends when it lifts and is cancelled when a second finger lands. It stands for the view's own
/// touch handling, which a recognizer with `cancelsTouches` cancels.
struct TouchDownMachine: RecognizerMachine {
    private enum State: Sendable, Hashable {
        case possible
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
        case .began: .underway
        case .finished: .done
        }
    }

    mutating func handle(_ event: RecognizerEvent, touches: inout FollowedTouches) -> Proposal? {
        switch (event, self.state) {
        case (.frameEnded, .began):
            if touches.cancelled || touches.landedCount > 0 { return self.finish(.cancel) }
            if touches.down.isEmpty { return self.finish(.end) }
            return touches.moved ? .change : nil
        case (.frameEnded, .possible):
            guard touches.landedCount > 0 else { return touches.down.isEmpty ? self.finish(.fail) : nil }
            guard touches.down.count == 1, touches.lifted.isEmpty else { return self.finish(.fail) }
            self.state = .began
            return .begin
        case (.arenaClosed, .possible), (.arenaClosed, .began):
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
