/// A component's full state message (`state.<kind>`): what the states of every kind carry, so
/// ``ComponentState`` sets them once for all kinds.
///
/// The fields every kind declares alike are stored once, in ``common``; the properties below
/// forward to them, so a state reads and builds as `state.instance`, `DrawerState { $0.tMs = 16 }`.
public protocol ComponentStateMessage: ValueMessage {
    /// The instance, time and input every kind's state carries.
    var common: ComponentStateCommon { get set }
}

extension ComponentStateMessage {
    /// The instance id: the `<instance>` topic segment.
    @inlinable public var instance: String {
        get { self.common.instance }
        set { self.common.instance = newValue }
    }

    /// The time of the event that produced the state, in ms (a gesture's `t_ms` or the host's timer time).
    @inlinable public var tMs: Double {
        get { self.common.tMs }
        set { self.common.tMs = newValue }
    }

    /// The touch frame whose effect the state shows, if a touch caused it.
    @inlinable public var input: TouchInput? {
        get { self.common.input }
        set { self.common.input = newValue }
    }

    /// The state carrying `input`.
    func with(input: TouchInput?) -> Self {
        var state = self
        state.input = input
        return state
    }
}
