import BusSchema

/// Touch-down: begins the instant one finger lands (no slop, no delay), changes as it moves,
/// ends when it lifts and is cancelled when a second finger lands. It stands for the view's own
/// touch handling, which a recognizer with `cancelsTouches` cancels.
struct TouchDownMachine: RecognizerMachine {
    var settings: RecognizerSettings
    private var state = ContinuousPhase.possible

    init(kind: GestureEvent.Kind, settings: RecognizerSettings, screen: Rect) {
        self.settings = settings
    }

    mutating func restart() { self.state = .possible }

    var status: MachineStatus { self.state.status }

    mutating func handle(_ event: RecognizerEvent, touches: inout FollowedTouches) -> Proposal? {
        switch (event, self.state) {
        case (.frameEnded, .began):
            if touches.cancelled || touches.landedCount > 0 { return self.state.finish(.cancel) }
            if touches.down.isEmpty { return self.state.finish(.end) }
            return touches.moved ? .change : nil
        case (.frameEnded, .possible):
            guard touches.landedCount > 0 else { return touches.down.isEmpty ? self.state.finish(.fail) : nil }
            guard touches.down.count == 1, touches.lifted.isEmpty else { return self.state.finish(.fail) }
            return self.state.begin()
        case (.arenaClosed, _):
            return self.state.close()
        case (.frameEnded, .finished), (.deadlinePassed, _):
            return nil
        }
    }
}
