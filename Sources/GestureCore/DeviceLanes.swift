import BusSchema

/// One ``GestureEngine`` per touch device, each with its own mapping from the monotonic clock onto
/// the device's source time, so the live service can run the engines' timers.
///
/// Pure: the monotonic time is an input, like everything else.
///
/// ## Time
/// The cores run on *source time* (``SourceInstant``): the `t_ns` of the frames (device or
/// recording time). Timers (a long press at 500 ms, a double-tap timeout) are deadlines in source
/// time, and they must fire even when no further frame arrives, so the service has to know what
/// source time it is *now*. Each device lane keeps an anchor, the source and monotonic
/// (``MonotonicInstant``) times of its last frame, and reads the source clock as
/// `source(mono) = anchor.source + (mono − anchor.mono)`:
/// - a deadline `D` is due on the monotonic clock at `anchor.mono + (D − anchor.source)`; with touch
///   down at `t` arriving at `m`, a long press fires at `m + 500 ms` with no further frame;
/// - the anchor moves at every frame, so transport latency never accumulates into the mapping and
///   devices on different clocks (evdev stamps CLOCK_REALTIME, scripts start at 0) do not mix;
/// - the source clock is assumed to tick at the monotonic rate between frames (true for device
///   clocks and for sources paced as recorded; a source sent faster than recorded only makes the
///   next frame arrive before the timer, and a frame at or after a deadline fires it anyway);
/// - within a lane, time never goes backwards: a frame stamped a little earlier (at most
///   ``reorderTolerance``) than the time the engine has already reached (it was in flight while a
///   timer fired) is fed at that time instead, so its touches still count;
/// - a frame stamped earlier than that by more is the device's clock jumping back (a recording
///   replayed again from its start, a restarted or hostile source): the lane is re-based, its
///   frames from then on shifted by one offset so that this one is fed at the source time the lane
///   reads now (``Effect/sourceClockJumped(device:back:)``). Later frames keep their own spacing,
///   so a swipe after the jump gets its own velocity instead of one time for all its samples.
///   Touches down at the jump stay down and go on at the shifted times: the engine sees one clock
///   that only runs forward (a touch the source begins again is followed once, as a move);
/// - a clock jumping forward needs nothing: the anchor moves with the frame;
/// - other devices are not affected by any of this.
public struct DeviceLanes: Sendable {
    /// How much earlier than the lane's time a frame may be stamped and still be a frame late,
    /// fed at the lane's time: more than a frame spends in flight while a timer fires (a few ms
    /// on one host, tens across a loaded network), less than anything a person does in one
    /// gesture (a tap is held about 80 ms, a swipe lasts 100 ms or more), so a clock jumping back
    /// by more than this cannot squeeze a whole gesture onto one time.
    public static let reorderTolerance = Duration.milliseconds(50)

    public enum Event {
        /// A touch frame arrived at monotonic time `at`.
        case frameArrived(TouchFrame, at: MonotonicInstant)
        /// The wake-up asked for `device` came due; the loop ran at `at`.
        case wakeDue(device: String, at: MonotonicInstant)
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
        /// Deliver ``Event/wakeDue(device:at:)`` for `device` at this monotonic time,
        /// replacing any wake-up asked for it before.
        case wake(device: String, at: MonotonicInstant)
        /// `device` needs no wake-up any more.
        case cancelWake(device: String)
        /// A configuration that does not fit the scene was ignored.
        case configurationRejected(SceneError)
        /// `device`'s frame was stamped `back` earlier than the time its lane had reached, more
        /// than ``reorderTolerance``: its clock jumped back and its lane was re-based.
        case sourceClockJumped(device: String, back: Duration)
    }

    private struct Lane {
        let device: String
        var engine: GestureEngine
        var anchor: (source: SourceInstant, mono: MonotonicInstant)
        /// Nanoseconds added to every frame's source time: zero until the device's clock jumps
        /// back. Whole nanoseconds, not a `Duration`: adding one costs a 128-bit division a frame.
        var offsetNs: Int64 = 0
        /// The latest source time given to the engine.
        var fed: SourceInstant
        /// The source-time deadline of the wake-up asked for, if any.
        var wake: SourceInstant?

        /// The source time the lane reads at `mono`: its anchor's plus the monotonic time since
        /// the anchor's arrival, never before the time already fed.
        func source(at mono: MonotonicInstant) -> SourceInstant {
            max(self.fed, self.anchor.source + max(.zero, mono - self.anchor.mono))
        }
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
        case .frameArrived(let frame, let mono):
            let index = self.lane(for: frame.device, source: SourceInstant(nanoseconds: frame.tNs), mono: mono)
            let fed = self.lanes[index].fed
            let source = SourceInstant(
                nanoseconds: Int64(clamping: Int128(frame.tNs) + Int128(self.lanes[index].offsetNs)))
            if source < fed, fed - source > Self.reorderTolerance {
                return self.clockJumped(index, frame, back: fed - source, at: mono)
            }
            return self.feed(index, frame, at: max(source, fed), mono)
        case .wakeDue(let device, let mono):
            guard let index = self.laneIndex[device] else { return [] }
            self.lanes[index].wake = nil
            let now = self.lanes[index].source(at: mono)
            self.lanes[index].fed = now
            let effects = self.lanes[index].engine.handle(.timeElapsed(now))
            return self.finish(index, effects)
        case .sceneChanged(let scene):
            self.loadedScene = scene
            self.configurations = self.configurations.filter { (try? scene.configured($0.value)) != nil }
            self.scene = self.configuredScene()
            let cancels = self.lanes.filter { $0.wake != nil }.map(\.device).sorted().map {
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

    /// Feeds `frame` to lane `index`'s engine at source time `fed`; it arrived at `mono`.
    private mutating func feed(_ index: Int, _ frame: TouchFrame, at fed: SourceInstant, _ mono: MonotonicInstant)
        -> [Effect]
    {
        var frame = frame
        frame.tNs = fed.nanoseconds
        self.lanes[index].anchor = (fed, mono)
        self.lanes[index].fed = fed
        let effects = self.lanes[index].engine.handle(.frameArrived(frame))
        return self.finish(index, effects)
    }

    /// Lane `index`'s device stamped `frame` `back` earlier than the lane's time: its clock jumped
    /// back. This frame and the ones after it are shifted onto the lane's time at `mono`.
    /// Out of line, so the frame path stays as short as it was (with it inline: 3 % fewer frames/s).
    @inline(never)
    private mutating func clockJumped(_ index: Int, _ frame: TouchFrame, back: Duration, at mono: MonotonicInstant)
        -> [Effect]
    {
        let now = self.lanes[index].source(at: mono)
        self.lanes[index].offsetNs = (now - SourceInstant(nanoseconds: frame.tNs)).nanoseconds
        return [.sourceClockJumped(device: frame.device, back: back)] + self.feed(index, frame, at: now, mono)
    }

    /// The loaded scene with every kept configuration applied (each was checked against it).
    private func configuredScene() -> GestureScene {
        self.configurations.sorted { $0.key < $1.key }.reduce(self.loadedScene) { scene, entry in
            (try? scene.configured(entry.value)) ?? scene
        }
    }

    /// The index of `device`'s lane, made for it with its first frame.
    private mutating func lane(for device: String, source: SourceInstant, mono: MonotonicInstant) -> Int {
        if let index = self.laneIndex[device] { return index }
        self.lanes.append(
            Lane(
                device: device, engine: GestureEngine(scene: self.scene), anchor: (source, mono),
                fed: SourceInstant(nanoseconds: .min)))
        self.laneIndex[device] = self.lanes.count - 1
        return self.lanes.count - 1
    }

    /// Turns the engine's effects into the lane's: events as they are, its wake-up mapped onto the
    /// monotonic clock and asked for only when it changed.
    private mutating func finish(_ index: Int, _ effects: [GestureEngine.Effect]) -> [Effect] {
        var result: [Effect] = []
        // Sized once (at most one per engine effect, plus a wake-up or cancel); nothing allocated when idle.
        if !effects.isEmpty { result.reserveCapacity(effects.count + 1) }
        var deadline: SourceInstant?
        for effect in effects {
            switch effect {
            case .publish(let event): result.append(.publish(event))
            case .wake(let at): deadline = at
            }
        }
        if deadline != self.lanes[index].wake {
            let (device, anchor) = (self.lanes[index].device, self.lanes[index].anchor)
            if let deadline {
                result.append(.wake(device: device, at: anchor.mono + max(.zero, deadline - anchor.source)))
            } else {
                result.append(.cancelWake(device: device))
            }
            self.lanes[index].wake = deadline
        }
        return result
    }
}
