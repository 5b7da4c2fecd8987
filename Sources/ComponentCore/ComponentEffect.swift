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
/// offset, the drawer's progress): the value goes from `from` to `to` between `start` and `end`
/// (kept rather than a duration, since timers ask for the end every frame). What is published is
/// the state's `animation` (``StateAnimation``).
struct ComponentAnimation: Sendable, Hashable {
    var from: Double
    var to: Double
    var start: SourceInstant
    var end: SourceInstant

    /// Whether it takes any time (a finished one is replaced by one that does not).
    var isRunning: Bool { self.end > self.start }

    /// The value at `instant`, linear, held at the ends. In nanoseconds as doubles: no `Duration`
    /// (each costs a 128-bit division to read) on a path that runs every frame.
    func value(at instant: SourceInstant) -> Double {
        guard self.isRunning else { return self.to }
        let start = Double(self.start.nanoseconds)
        let elapsed = (Double(instant.nanoseconds) - start) / (Double(self.end.nanoseconds) - start)
        return self.from + (self.to - self.from) * min(max(elapsed, 0), 1)
    }
}
