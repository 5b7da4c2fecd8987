import BusSchema
import GestureCore

/// One ``GestureEngine`` per touch device, each with its own mapping from the monotonic clock onto
/// the device's source time, so the live service can run the engines' timers.
///
/// Pure: the monotonic time is an input, like everything else.
///
/// ## Time
/// The cores run on *source time*: the `t_ns` of the frames (device or recording time). Timers
/// (a long press at 500 ms, a double-tap timeout) are deadlines in source time, and they must
/// fire even when no further frame arrives, so the service has to know what source time it is
/// *now*. Each device lane keeps an anchor, `(t_ns, mono)` of its last frame, and reads the
/// source clock as `source(mono) = anchor.t_ns + (mono − anchor.mono)`:
/// - a deadline `D` is due on the monotonic clock at `anchor.mono + (D − anchor.t_ns)`; with touch
///   down at `t` arriving at `m`, a long press fires at `m + 500 ms` with no further frame;
/// - the anchor moves at every frame, so transport latency never accumulates into the mapping and
///   devices on different clocks (evdev stamps CLOCK_REALTIME, scripts start at 0) do not mix;
/// - the source clock is assumed to tick at the monotonic rate between frames (true for device
///   clocks and for sources paced as recorded; a source sent faster than recorded only makes the
///   next frame arrive before the timer, and a frame at or after a deadline fires it anyway);
/// - within a lane, time never goes backwards: a frame stamped earlier than the time the engine
///   has already reached (it was in flight while a timer fired, or its device's clock jumped) is
///   fed at that time instead, so its touches still count; other devices are not affected.
public struct DeviceLanes {
    public enum Event {
        /// A touch frame arrived at monotonic time `monoNs`.
        case frameArrived(TouchFrame, monoNs: UInt64)
        /// The wake-up asked for `device` came due; the loop ran at `monoNs`.
        case wakeDue(device: String, monoNs: UInt64)
        /// A new scene replaces the old one: every device starts afresh (touches in flight are dropped).
        case sceneChanged(GestureScene)
    }

    public enum Effect: Equatable {
        case publish(GestureEvent)
        /// Deliver ``Event/wakeDue(device:monoNs:)`` for `device` at this monotonic time,
        /// replacing any wake-up asked for it before.
        case wake(device: String, atMonoNs: UInt64)
        /// `device` needs no wake-up any more.
        case cancelWake(device: String)
    }

    private struct Lane {
        var engine: GestureEngine
        var anchor: (sourceNs: Int64, monoNs: UInt64)
        /// The latest source time given to the engine.
        var fedNs: Int64
        /// The source-time deadline of the wake-up asked for, if any.
        var wakeNs: Int64?
    }

    private var scene: GestureScene
    private var lanes: [String: Lane] = [:]

    public init(scene: GestureScene) {
        self.scene = scene
    }

    /// The devices seen so far.
    public var devices: [String] { self.lanes.keys.sorted() }

    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .frameArrived(var frame, let monoNs):
            var lane =
                self.lanes[frame.device]
                ?? Lane(engine: GestureEngine(scene: self.scene), anchor: (frame.tNs, monoNs), fedNs: .min)
            frame.tNs = max(frame.tNs, lane.fedNs)
            lane.anchor = (frame.tNs, monoNs)
            lane.fedNs = frame.tNs
            let effects = lane.engine.handle(.frameArrived(frame))
            return self.finish(frame.device, &lane, effects)
        case .wakeDue(let device, let monoNs):
            guard var lane = self.lanes[device] else { return [] }
            lane.wakeNs = nil
            let now = max(lane.fedNs, lane.anchor.sourceNs + Int64(monoNs &- min(monoNs, lane.anchor.monoNs)))
            lane.fedNs = now
            let effects = lane.engine.handle(.timeElapsed(tNs: now))
            return self.finish(device, &lane, effects)
        case .sceneChanged(let scene):
            self.scene = scene
            let cancels = self.lanes.filter { $0.value.wakeNs != nil }.keys.sorted().map {
                Effect.cancelWake(device: $0)
            }
            self.lanes = [:]
            return cancels
        }
    }

    /// Turns the engine's effects into the lane's: events as they are, its wake-up mapped onto the
    /// monotonic clock and asked for only when it changed.
    private mutating func finish(_ device: String, _ lane: inout Lane, _ effects: [GestureEngine.Effect]) -> [Effect] {
        var result: [Effect] = []
        var deadline: Int64?
        for effect in effects {
            switch effect {
            case .publish(let event): result.append(.publish(event))
            case .wake(let atNs): deadline = atNs
            }
        }
        if deadline != lane.wakeNs {
            if let deadline {
                let mono = lane.anchor.monoNs &+ UInt64(max(0, deadline - lane.anchor.sourceNs))
                result.append(.wake(device: device, atMonoNs: mono))
            } else {
                result.append(.cancelWake(device: device))
            }
            lane.wakeNs = deadline
        }
        self.lanes[device] = lane
        return result
    }
}
