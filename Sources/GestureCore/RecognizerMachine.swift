import BusSchema

/// What happened to a recognizer, as its arena tells it.
enum RecognizerEvent: Sendable, Hashable {
    /// A frame's touches were delivered to its ``FollowedTouches``; `at` is the frame's time.
    case frameEnded(at: SourceInstant)
    /// Time reached its ``RecognizerMachine/deadline``.
    case deadlinePassed(at: SourceInstant)
    /// The arena failed or cancelled it (rules 2–4): it ignores input until its touches lift
    /// (then the arena starts it afresh).
    case arenaClosed
}

/// What a recognizer asks its arena to do after an event (the arena decides what it becomes).
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

/// What the arena reads of a machine between events.
struct MachineStatus: Sendable, Hashable {
    /// Recognized, ended, cancelled or failed: it ignores new touches until its touches lift.
    var isDone = false
    /// Past `possible`, or between the taps of a multi-tap (so others may wait for it).
    var isUnderway = false
    /// When ``RecognizerEvent/deadlinePassed(at:)`` is due.
    var deadline: SourceInstant?

    /// Nothing under way yet.
    static let possible = MachineStatus()
    /// A continuous gesture in progress.
    static let underway = MachineStatus(isUnderway: true)
    static let done = MachineStatus(isDone: true, isUnderway: true)
}

/// One recognizer kind's state machine (UIKit semantics), without relationships: the arena feeds
/// it touches and time and decides what its proposals become.
///
/// A discrete kind (tap, swipe) keeps its own private `State` enum, a continuous one a
/// ``ContinuousPhase`` and its own values beside it; a machine in a done state ignores every event,
/// and the arena restarts it (``restart()``) once its touches have lifted. Time is source time
/// (the frames' clock).
protocol RecognizerMachine: Sendable {
    init(kind: GestureEvent.Kind, settings: RecognizerSettings, screen: Rect)

    /// Changed only by a run-time configuration; the next frame is judged by the new settings.
    var settings: RecognizerSettings { get set }

    var status: MachineStatus { get }

    /// Back to the state of a fresh machine, its settings and its samples' storage kept: its touch
    /// sequence is over. In place, since a fresh machine would copy the settings and allocate
    /// the samples again, sequence after sequence.
    mutating func restart()

    /// Judges `event`; `touches` are the ones it follows, as of the frame being handled. They are
    /// only read: `inout` passes them by address, where a borrow from the arena's slot buffer is
    /// copied (two arrays retained and released per recognizer and frame).
    mutating func handle(_ event: RecognizerEvent, touches: inout FollowedTouches) -> Proposal?

    /// Fills in the kind's own values (translation, velocity, scale, rotation, direction, edge, a
    /// tap's place) of an event about to be published. Mutating only to be reached in place: a
    /// machine read from the arena's buffer for a non-mutating call is copied out and destroyed.
    mutating func describe(into event: inout GestureEvent)
}

extension RecognizerMachine {
    /// A kind with no values of its own (long press, touch-down) adds none.
    mutating func describe(into event: inout GestureEvent) {}
}

/// Where a continuous gesture (touch-down, long press, pan, pinch, rotation) is. What a kind keeps
/// along the way (a press's deadline, a pan's edge, a pinch's finger pair) it keeps beside it.
enum ContinuousPhase: Sendable, Hashable {
    case possible
    case began
    /// Ended, cancelled or failed.
    case finished

    var status: MachineStatus {
        switch self {
        case .possible: .possible
        case .began: .underway
        case .finished: .done
        }
    }

    /// Begins, proposing it.
    mutating func begin() -> Proposal {
        self = .began
        return .begin
    }

    /// Finishes with `proposal` (end, cancel or fail), which it returns.
    mutating func finish(_ proposal: Proposal) -> Proposal {
        self = .finished
        return proposal
    }

    /// The arena failed or cancelled it: finished, with nothing to propose.
    mutating func close() -> Proposal? {
        self = .finished
        return nil
    }
}
