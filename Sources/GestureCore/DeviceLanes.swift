import BusSchema

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
        /// Run-time configurations that still name a recognizer of it carry over.
        case sceneChanged(GestureScene)
        /// A component set a recognizer's directions or receive region (schema `recognizer.config`):
        /// it replaces that recognizer's earlier configuration and applies at once on every device,
        /// touches in flight kept.
        case recognizerConfigured(RecognizerConfig)
    }

    public enum Effect: Equatable {
        case publish(GestureEvent)
        /// Deliver ``Event/wakeDue(device:monoNs:)`` for `device` at this monotonic time,
        /// replacing any wake-up asked for it before.
        case wake(device: String, atMonoNs: UInt64)
        /// `device` needs no wake-up any more.
        case cancelWake(device: String)
        /// A configuration that does not fit the scene was ignored.
        case configurationRejected(SceneError)
    }

    private struct Lane {
        let device: String
        var engine: GestureEngine
        var anchor: (sourceNs: Int64, monoNs: UInt64)
        /// The latest source time given to the engine.
        var fedNs: Int64
        /// The source-time deadline of the wake-up asked for, if any.
        var wakeNs: Int64?
    }

    /// The scene as loaded, and as configured at run time (what the engines run).
    private var loadedScene: GestureScene
    private var scene: GestureScene
    /// The latest configuration of each configured recognizer, by name.
    private var configurations: [String: RecognizerConfig] = [:]
    /// The lanes in the order their devices appeared. An array updated in place by index keeps
    /// each engine's arrays uniquely referenced: a lane copied out of a dictionary and written
    /// back copied every recognizer on every frame (2.2 times slower).
    private var lanes: [Lane] = []
    private var laneIndex: [String: Int] = [:]

    public init(scene: GestureScene) {
        self.loadedScene = scene
        self.scene = scene
    }

    /// The devices seen so far.
    public var devices: [String] { self.lanes.map(\.device).sorted() }

    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .frameArrived(var frame, let monoNs):
            let index = self.lane(for: frame.device, tNs: frame.tNs, monoNs: monoNs)
            frame.tNs = max(frame.tNs, self.lanes[index].fedNs)
            self.lanes[index].anchor = (frame.tNs, monoNs)
            self.lanes[index].fedNs = frame.tNs
            let effects = self.lanes[index].engine.handle(.frameArrived(frame))
            return self.finish(index, effects)
        case .wakeDue(let device, let monoNs):
            guard let index = self.laneIndex[device] else { return [] }
            self.lanes[index].wakeNs = nil
            let anchor = self.lanes[index].anchor
            let now = max(self.lanes[index].fedNs, anchor.sourceNs + Int64(monoNs &- min(monoNs, anchor.monoNs)))
            self.lanes[index].fedNs = now
            let effects = self.lanes[index].engine.handle(.timeElapsed(tNs: now))
            return self.finish(index, effects)
        case .sceneChanged(let scene):
            self.loadedScene = scene
            self.configurations = self.configurations.filter { (try? scene.configured($0.value)) != nil }
            self.scene = self.configuredScene()
            let cancels = self.lanes.filter { $0.wakeNs != nil }.map(\.device).sorted().map {
                Effect.cancelWake(device: $0)
            }
            self.lanes = []
            self.laneIndex = [:]
            return cancels
        case .recognizerConfigured(let configuration):
            do {
                _ = try self.loadedScene.configured(configuration)
            } catch {
                return [.configurationRejected(error)]
            }
            self.configurations[configuration.recognizer] = configuration
            self.scene = self.configuredScene()
            for index in self.lanes.indices { self.lanes[index].engine.reconfigure(self.scene) }
            return []
        }
    }

    /// The loaded scene with every kept configuration applied (each was checked against it).
    private func configuredScene() -> GestureScene {
        self.configurations.sorted { $0.key < $1.key }.reduce(self.loadedScene) { scene, entry in
            (try? scene.configured(entry.value)) ?? scene
        }
    }

    /// The index of `device`'s lane, made for it with its first frame.
    private mutating func lane(for device: String, tNs: Int64, monoNs: UInt64) -> Int {
        if let index = self.laneIndex[device] { return index }
        self.lanes.append(
            Lane(device: device, engine: GestureEngine(scene: self.scene), anchor: (tNs, monoNs), fedNs: .min))
        self.laneIndex[device] = self.lanes.count - 1
        return self.lanes.count - 1
    }

    /// Turns the engine's effects into the lane's: events as they are, its wake-up mapped onto the
    /// monotonic clock and asked for only when it changed.
    private mutating func finish(_ index: Int, _ effects: [GestureEngine.Effect]) -> [Effect] {
        var result: [Effect] = []
        // Sized once (at most one per engine effect, plus a wake-up or cancel); nothing allocated when idle.
        if !effects.isEmpty { result.reserveCapacity(effects.count + 1) }
        var deadline: Int64?
        for effect in effects {
            switch effect {
            case .publish(let event): result.append(.publish(event))
            case .wake(let atNs): deadline = atNs
            }
        }
        if deadline != self.lanes[index].wakeNs {
            let (device, anchor) = (self.lanes[index].device, self.lanes[index].anchor)
            if let deadline {
                let mono = anchor.monoNs &+ UInt64(max(0, deadline - anchor.sourceNs))
                result.append(.wake(device: device, atMonoNs: mono))
            } else {
                result.append(.cancelWake(device: device))
            }
            self.lanes[index].wakeNs = deadline
        }
        return result
    }
}
