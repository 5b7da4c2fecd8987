import Bus
import BusSchema
import GestureCore
import ServiceSupport

/// `gesture-recognizer` on the bus: touch frames in, gesture events out.
///
/// Subscribes `touch/` (``TouchFrame``), `ui/scene/` (a whole `scene` document replaces the
/// scene) and `ui/recognizer/` (``RecognizerConfig``: a component sets a recognizer's directions
/// or receive region, as the edge drawer does after each toggle), feeds ``DeviceLanes`` (one
/// engine per device), carries out its wake-ups with one-shot timers of the loop, and publishes
/// every ``GestureEvent`` on `gesture/<device>/<view>/<recognizer>/` (the recognizer's name in the
/// scene, else its kind), with the touch frame that caused it as its `input`.
/// A frame that does not decode is counted (`bad_payload`) and skipped. A device whose clock
/// jumps back (its lane re-based, see ``DeviceLanes``) is counted in `source_clock_jumps`.
///
/// Sharding: with device prefixes it subscribes only `touch/<prefix>` for each, so several
/// recognizers (on one host or several) split the devices between them; each device's frames
/// still reach exactly one engine, in order. A prefix ending in `/` names one device exactly.
public final class GestureService {
    /// The `scene` schema, published whole on `ui/scene/`.
    public static let sceneSchema = SchemaID("scene", major: 2, minor: 1)

    private let runner: ServiceRunner
    // Unchecked (these four): only the service loop touches them, and the dynamic exclusivity
    // checks cost ~560 instructions a frame.
    @exclusivity(unchecked) private var lanes: DeviceLanes
    @exclusivity(unchecked) private var timers: [String: Int] = [:]
    /// Each event topic made once; the ones met lately are found without hashing three strings.
    @exclusivity(unchecked) private var topics = RecentlyUsedDictionary<TopicKey, Topic>()
    /// The frame being handled, decoded over the one before.
    @exclusivity(unchecked) private var frame = TouchFrame.empty
    private var framesHandled: UInt64 = 0
    private var eventsPublished: UInt64 = 0
    private var scenesLoaded: UInt64 = 0
    private var configurationsApplied: UInt64 = 0
    private var sourceClockJumps: UInt64 = 0
    private let devicePrefixes: [String]

    /// - Parameter devicePrefixes: the device names (prefixes) this recognizer handles; `[""]` is every device.
    public init(runner: ServiceRunner, scene: GestureScene, devicePrefixes: [String] = [""]) {
        self.runner = runner
        self.lanes = DeviceLanes(scene: scene)
        self.devicePrefixes = devicePrefixes
    }

    /// Runs until a stop signal.
    public func run() throws {
        self.runner.healthExtra = { [unowned self] in
            [
                "frames_handled": Value(self.framesHandled), "events_published": Value(self.eventsPublished),
                "devices": Value(UInt64(self.lanes.devices.count)), "scenes_loaded": Value(self.scenesLoaded),
                "configurations_applied": Value(self.configurationsApplied),
                "source_clock_jumps": Value(self.sourceClockJumps),
            ]
        }
        try self.runner.subscribe(self.devicePrefixes.map { "touch/" + $0 }, filter: SchemaFilter([TouchFrame.self])) {
            [unowned self] in try self.frameReceived($0, $1)
        }
        try self.runner.subscribe(["ui/scene/"], filter: SchemaFilter([Self.sceneSchema])) {
            [unowned self] delivery, _ in
            let scene = GestureScene(try Scene(value: try Value(messagePack: delivery.payload), file: "ui/scene/"))
            self.scenesLoaded += 1
            try self.apply(self.lanes.handle(.sceneChanged(scene)))
        }
        try self.runner.subscribe(["ui/recognizer/"], filter: SchemaFilter([RecognizerConfig.self])) {
            [unowned self] delivery, subscriber in
            guard let configuration = subscriber.decode(delivery, as: RecognizerConfig.self) else { return }
            let effects = self.lanes.handle(.recognizerConfigured(configuration))
            if effects.isEmpty { self.configurationsApplied += 1 }
            try self.apply(effects)
        }
        try self.runner.run()
    }

    /// Hands a touch frame to its device's lane, decoded over the one before (its device name and
    /// contact array kept), and carries out what comes back.
    private func frameReceived(_ delivery: Delivery, _ subscriber: Subscriber) throws {
        guard subscriber.decode(delivery, into: &self.frame) else { return }
        self.framesHandled += 1
        try self.apply(self.lanes.handle(.frameArrived(self.frame, at: self.now())))
    }

    /// The loop's monotonic clock, as the lanes take it.
    private func now() -> MonotonicInstant {
        MonotonicInstant(nanoseconds: Int64(clamping: self.runner.clock.monotonicNs()))
    }

    private func apply(_ effects: [DeviceLanes.Effect]) throws {
        for effect in effects {
            switch effect {
            case .publish(var event):
                // The frame being handled caused it; a timer's event gets its device's newest frame,
                // which is the last one handled unless another device's came since.
                if event.device == self.frame.device { event.input = TouchInput(self.frame) }
                try self.runner.publisher.publish(event, on: try self.topic(for: event))
                self.eventsPublished += 1
            case .wake(let device, let due):
                if let timer = self.timers[device] { self.runner.cancel(timer: timer) }
                self.timers[device] = self.runner.at(deadlineNs: UInt64(clamping: due.nanoseconds)) { [unowned self] in
                    self.timers[device] = nil
                    try self.apply(self.lanes.handle(.wakeDue(device: device, at: self.now())))
                }
            case .cancelWake(let device):
                if let timer = self.timers.removeValue(forKey: device) { self.runner.cancel(timer: timer) }
            case .configurationRejected(let error):
                // Counted and skipped: a configuration for another scene must not stop the recognizer.
                self.runner.statistics.reject("bad_recognizer_config")
                Log.error(self.runner.name, "recognizer configuration ignored: \(error)")
            case .sourceClockJumped:
                // Counted, not logged: a source can jump back on every other frame.
                self.sourceClockJumps += 1
            }
        }
    }

    private struct TopicKey: Hashable {
        var device: String
        var view: String
        var recognizer: String
    }

    private func topic(for event: GestureEvent) throws -> Topic {
        let key = TopicKey(device: event.device, view: event.view, recognizer: event.name ?? event.recognizer.rawValue)
        return try self.topics.value(for: key) {
            try Topic(segments: "gesture", key.device, key.view, key.recognizer)
        }
    }
}
