/// A component's full state message (`state.<kind>`): what the states of every kind carry, so
/// ``ComponentState`` sets them once for all kinds.
public protocol ComponentStateMessage: ValueMessage {
    /// The instance id: the `<instance>` topic segment.
    var instance: String { get }
    /// The touch frame whose effect the state shows, if a touch caused it.
    var input: TouchInput? { get set }
}

extension ComponentStateMessage {
    /// The state carrying `input`.
    func with(input: TouchInput?) -> Self {
        var state = self
        state.input = input
        return state
    }
}
