import BusSchema

/// Each component instance's phase as its messages arrive, for a timeline lane (the report's
/// timeline and the live view's inspector both follow it).
///
/// A `state.<kind>` payload names its phase directly (``ComponentPhase``). A memo board sends
/// its full state once and deltas after that (`memoBoard.delta`, on `ui/memoBoard/<id>/delta/`):
/// each delta is applied to the board's last full state (``MemoBoardReplica``) and names the
/// phase of the board it makes, so the board's lane follows its edits, searches and memo count.
/// A delta that does not follow the board's revision names nothing until the next full state.
public struct ComponentPhases {
    /// A lane's name and the phase a message put it in.
    public struct Phase: Equatable, Sendable {
        /// `<kind>/<instance>`, one lane per component instance.
        public let component: String
        public let phase: String
    }

    private var boards: [String: MemoBoardReplica] = [:]

    public init() {}

    /// The phase `payload` (of schema id `schema`, seen on `topic`) puts its component in; nil
    /// for a message of no component, or a delta out of step.
    public mutating func phase(schema: String, topic: String, _ payload: Value) -> Phase? {
        if schema == MemoBoardDelta.schema.id {
            guard let delta = try? MemoBoardDelta(payload: payload), var board = self.boards[delta.instance],
                board.apply(delta)
            else { return nil }
            self.boards[delta.instance] = board
            return Phase(
                component: "memoBoard/\(delta.instance)", phase: ComponentPhase.of(kind: "memoBoard", board.state.value)
            )
        }
        guard schema.hasPrefix("state.") else { return nil }
        let kind = String(schema.dropFirst("state.".count))
        if kind == "memoBoard", let state = try? MemoBoardState(payload: payload) {
            self.boards[state.instance] = MemoBoardReplica(state)
        }
        let instance = payload["instance"]?.stringValue ?? topic
        return Phase(component: "\(kind)/\(instance)", phase: ComponentPhase.of(kind: kind, payload))
    }
}
