import BusSchema

/// What happened to a recognizer, as its arena tells it.
enum RecognizerEvent: Sendable, Hashable {
    /// A frame's touches were delivered to its ``FollowedTouches``; `at` is the frame's time.
    case frameEnded(at: SourceInstant)
    /// Time reached its ``RecognizerMachine/deadline``.
    case deadlinePassed(at: SourceInstant)
    /// The arena failed or cancelled it (rules 2–4): it ignores input until its touches lift.
    case arenaClosed
    /// It was done and every touch it followed has lifted: a new touch sequence may begin.
    case touchesGone
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
}

/// One recognizer kind's state machine (UIKit semantics), without relationships: the arena feeds
/// it touches and time and decides what its proposals become.
///
/// Each kind keeps its own private `State` enum; a machine in a done state ignores everything but
/// ``RecognizerEvent/arenaClosed`` and ``RecognizerEvent/touchesGone``. Time is source time (the
/// frames' clock).
protocol RecognizerMachine: Sendable {
    init(kind: GestureEvent.Kind, settings: RecognizerSettings, screen: Rect)

    /// Changed only by a run-time configuration; the next frame is judged by the new settings.
    var settings: RecognizerSettings { get set }

    var status: MachineStatus { get }

    /// Judges `event`; `touches` are the ones it follows, as of the frame being handled.
    mutating func handle(_ event: RecognizerEvent, touches: borrowing FollowedTouches) -> Proposal?

    /// Fills in the kind's own values (translation, velocity, scale, rotation, direction, edge, a
    /// tap's place) of an event about to be published.
    func describe(into event: inout GestureEvent)
}
