import BusSchema

/// What a component machine asks its owner to do; the machines themselves do no I/O.
public enum ComponentEffect: Sendable, Equatable {
    /// Publish the component's full state on `ui/<kind>/<instance>/`.
    case publishState(ComponentState)
    /// Call the machine with `timeElapsed` at this instant (the input source's clock); replaces
    /// any earlier timer of the same machine.
    case scheduleTimer(at: SourceInstant)
    /// Drop the machine's pending timer.
    case cancelTimer
    /// Send (or resend) a memo store command on `memo/cmd/`.
    case sendMemoCommand(MemoCommand)
}

/// One property animation a machine runs to know where it stands between timers (a slide's
/// offset, the drawer's progress, the arrow's angle): `property` of `target` goes from `from` to
/// `to` over `durationMs`. What is published is the state's `animation` (``StateAnimation``).
public struct ComponentAnimation: Sendable, Hashable {
    public var property: String
    /// What moves, e.g. a row index or the arrow.
    public var target: String
    public var from: Double
    public var to: Double
    public var startMs: Double
    public var durationMs: Double

    public init(property: String, target: String, from: Double, to: Double, startMs: Double, durationMs: Double) {
        self.property = property
        self.target = target
        self.from = from
        self.to = to
        self.startMs = startMs
        self.durationMs = durationMs
    }

    /// The value at `tMs`, linear, held at the ends.
    public func value(at tMs: Double) -> Double {
        guard self.durationMs > 0 else { return self.to }
        let progress = min(max((tMs - self.startMs) / self.durationMs, 0), 1)
        return self.from + (self.to - self.from) * progress
    }

    /// When it ends.
    public var endMs: Double { self.startMs + self.durationMs }
}
