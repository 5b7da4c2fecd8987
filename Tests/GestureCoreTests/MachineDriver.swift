import BusSchema
import Testing

@testable import GestureCore

/// Drives one recognizer machine directly, frame by frame, as its arena would: the touches it
/// follows change, then it judges the frame.
struct MachineDriver<Machine: RecognizerMachine> {
    static var screen: Rect { Rect(x: 0, y: 0, width: 800, height: 600) }

    let kind: GestureEvent.Kind
    var machine: Machine
    var touches = FollowedTouches()

    init(_ kind: GestureEvent.Kind, configure: (inout RecognizerSettings) -> Void = { _ in }) {
        var settings = RecognizerSettings.defaults(for: kind)
        configure(&settings)
        self.kind = kind
        self.machine = Machine(kind: kind, settings: settings, screen: Self.screen)
    }

    static func at(_ ms: Int64) -> SourceInstant { SourceInstant(nanoseconds: ms * 1_000_000) }

    var status: MachineStatus { self.machine.status }

    /// A frame at `ms` in which `changes` happen to the followed touches.
    mutating func frame(_ ms: Int64, _ changes: (inout FollowedTouches) -> Void) -> Proposal? {
        self.touches.clearFrame()
        changes(&self.touches)
        self.touches.frameJudged()
        return self.machine.handle(.frameEnded(at: Self.at(ms)), touches: &self.touches)
    }

    mutating func land(_ ms: Int64, _ id: Int, _ x: Double, _ y: Double) -> Proposal? {
        self.frame(ms) { $0.land(id: id, x: x, y: y) }
    }

    mutating func move(_ ms: Int64, _ id: Int, _ x: Double, _ y: Double) -> Proposal? {
        self.frame(ms) { _ = $0.move(id: id, x: x, y: y) }
    }

    mutating func lift(_ ms: Int64, _ id: Int, _ x: Double, _ y: Double, cancelled: Bool = false) -> Proposal? {
        self.frame(ms) { _ = $0.lift(id: id, x: x, y: y, cancelled: cancelled) }
    }

    /// The machine's deadline came (it must have one).
    mutating func deadlinePassed() -> Proposal? {
        guard let deadline = self.status.deadline else {
            Issue.record("no deadline")
            return nil
        }
        return self.machine.handle(.deadlinePassed(at: deadline), touches: &self.touches)
    }

    /// The arena decided against it.
    mutating func arenaClosed() -> Proposal? { self.machine.handle(.arenaClosed, touches: &self.touches) }

    /// Every touch lifted after it was done: the arena starts a fresh machine.
    mutating func touchesGone() {
        self.touches.reset()
        self.machine = Machine(kind: self.kind, settings: self.machine.settings, screen: Self.screen)
    }

    /// The event the arena would publish now in `state`, with the kind's own values.
    func described(_ state: GestureEvent.State, kind: GestureEvent.Kind) -> GestureEvent {
        let (x, y) = self.touches.location
        var event = GestureEvent {
            $0.tMs = 0
            $0.device = "d"
            $0.view = "v"
            $0.recognizer = kind
            $0.state = state
            $0.x = x
            $0.y = y
            $0.touches = self.touches.count
        }
        var machine = self.machine  // describe is mutating only to be reached in place in the arena
        machine.describe(into: &event)
        return event
    }
}
