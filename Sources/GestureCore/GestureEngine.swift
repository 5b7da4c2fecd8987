import BusSchema

/// Turns touch frames into gesture events for every device, each device with its own
/// independent set of recognizers (so one device never delays another).
///
/// Pure: time comes from the frames and from ``Event/timeElapsed(tNs:)``; the owner carries out
/// the effects, calling back at each ``Effect/wake(atNs:)`` time (a frame at or after that time
/// fires the due timers too, so offline replay needs no timer calls until the end).
public struct GestureEngine: Sendable {
    public enum Event: Sendable, Hashable {
        /// A touch frame arrived.
        case frameArrived(TouchFrame)
        /// Time passed with no frame; fires the recognizer timers due by then.
        case timeElapsed(tNs: Int64)
    }

    public enum Effect: Sendable, Hashable {
        case publish(GestureEvent)
        /// Send ``Event/timeElapsed(tNs:)`` at this time.
        case wake(atNs: Int64)
    }

    private let plan: ScenePlan
    private var arenas: [String: GestureArena] = [:]
    private var events: [GestureEvent] = []

    public init(scene: GestureScene) {
        self.plan = ScenePlan(scene)
    }

    public mutating func handle(_ event: Event) -> [Effect] {
        self.events.removeAll(keepingCapacity: true)
        var wake: Int64?
        switch event {
        case .frameArrived(let frame):
            // The default-value subscript mutates the stored arena in place (no copy).
            self.arenas[frame.device, default: GestureArena(device: frame.device, plan: self.plan)]
                .frameArrived(frame, into: &self.events)
            wake = self.arenas[frame.device]?.nextDeadline
        case .timeElapsed(let tNs):
            for device in self.arenas.keys.sorted() {
                guard let deadline = self.arenas[device]!.nextDeadline, deadline <= tNs else { continue }
                self.arenas[device]!.timeElapsed(tNs: tNs, into: &self.events)
            }
            wake = self.nextDeadline
        }
        var effects = self.events.map { Effect.publish($0) }
        if let wake { effects.append(.wake(atNs: wake)) }
        return effects
    }

    /// The earliest recognizer timer over all devices.
    public var nextDeadline: Int64? {
        self.arenas.values.compactMap(\.nextDeadline).min()
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
        while let deadline = engine.nextDeadline { collect(engine.handle(.timeElapsed(tNs: deadline))) }
        return events
    }
}
