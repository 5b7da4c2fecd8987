import BusSchema

/// Turns touch frames into gesture events for every device, each device with its own
/// independent set of recognizers (so one device never delays another).
///
/// Pure: time comes from the frames (their `t_ns`, as source time) and from
/// ``Event/timeElapsed(_:)``; the owner carries out the effects, calling back at each
/// ``Effect/wake(at:)`` time (a frame at or after that time
/// fires the due timers too, so offline replay needs no timer calls until the end).
public struct GestureEngine: Sendable {
    public enum Event: Sendable, Hashable {
        /// A touch frame arrived.
        case frameArrived(TouchFrame)
        /// Time passed with no frame; fires the recognizer timers due by then.
        case timeElapsed(SourceInstant)
    }

    public enum Effect: Sendable, Hashable {
        case publish(GestureEvent)
        /// Send ``Event/timeElapsed(_:)`` at this time.
        case wake(at: SourceInstant)
    }

    private var plan: ScenePlan
    private var arenas: [GestureArena] = []
    private var arenaIndex: [String: Int] = [:]
    /// The last device seen: consecutive frames usually come from the same one.
    private var lastDevice: (name: String, index: Int)?

    public init(scene: GestureScene) {
        self.plan = ScenePlan(scene)
    }

    /// Takes `scene`, the same scene as before with other recognizer settings or receive regions
    /// (``GestureScene/configured(_:)``), keeping the touches in flight.
    public mutating func reconfigure(_ scene: GestureScene) {
        self.plan = ScenePlan(scene)
        for index in self.arenas.indices { self.arenas[index].replacePlan(self.plan) }
    }

    public mutating func handle(_ event: Event) -> [Effect] {
        // Allocated only when something is published.
        var effects: [Effect] = []
        var wake: SourceInstant?
        switch event {
        case .frameArrived(let frame):
            let index = self.arena(for: frame.device)
            self.arenas[index].frameArrived(frame, into: &effects)
            wake = self.arenas[index].nextDeadline
        case .timeElapsed(let now):
            // Devices in the order they first appeared, so the output is deterministic.
            for index in self.arenas.indices {
                guard let deadline = self.arenas[index].nextDeadline, deadline <= now else { continue }
                self.arenas[index].timeElapsed(now, into: &effects)
            }
            wake = self.nextDeadline
        }
        if let wake { effects.append(.wake(at: wake)) }
        return effects
    }

    /// The earliest recognizer timer over all devices.
    public var nextDeadline: SourceInstant? {
        self.arenas.lazy.compactMap(\.nextDeadline).min()
    }

    private mutating func arena(for device: String) -> Int {
        if let last = self.lastDevice, last.name == device { return last.index }
        let index: Int
        if let known = self.arenaIndex[device] {
            index = known
        } else {
            index = self.arenas.count
            self.arenas.append(GestureArena(device: device, plan: self.plan))
            self.arenaIndex[device] = index
        }
        self.lastDevice = (device, index)
        return index
    }

    /// Gesture events for a whole recording, with time from the frames; timers still pending at
    /// the end fire at their own times.
    public static func replay(_ frames: [TouchFrame], scene: GestureScene) -> [GestureEvent] {
        var engine = GestureEngine(scene: scene)
        var events: [GestureEvent] = []
        func collect(_ effects: [Effect]) {
            for case .publish(let event) in effects { events.append(event) }
        }
        for frame in frames { collect(engine.handle(.frameArrived(frame))) }
        while let deadline = engine.nextDeadline { collect(engine.handle(.timeElapsed(deadline))) }
        return events
    }
}
