import Bus
import BusSchema
import ComponentCore
import ServiceSupport

/// The live `component-host`: the scene's component machines on the bus.
///
/// Subscribes `gesture/`, `cmd/ui/`, `sys/lifecycle/`, `sys/network/`, `memo/changed/` and, per
/// memo board, `memo/ack/<client>/` and `memo/snapshot/<client>/`; publishes each component's
/// full state on `ui/<kind>/<instance>/` (with the gesture event's `input` when one changed it; a memo
/// board's changes between full states on `ui/memoBoard/<instance>/delta/`), with each drawer state
/// the configuration of the swipes it drives on `ui/recognizer/<recognizer>/`, memo commands on
/// `memo/cmd/` and the interface-derived connectivity on `sys/network/`. When another service says `ready` or `resync` on
/// `sys/lifecycle/`, every state is published again.
///
/// Time: the machines run on the input source's clock, the one gesture events carry (`t_ms`),
/// never on this process's: a gesture keeps its source time, and a timer a machine sets (a fling's
/// deceleration frames, the number pad's 0.75 s sequence window, a memo command's resend) is due
/// at a source instant. So `component-host replay` and this service give the same states, `t_ms`
/// included, for the same gestures. Inputs without a source time (commands, lifecycle, network,
/// memo store messages) and the 60 Hz timer ticks are placed on the source's clock by
/// ``SourceTimeline``: the latest gesture's source instant plus the monotonic time since it
/// arrived (before the first gesture, the service's start is source instant zero). The states
/// published before any gesture, and again when another service joins, are stamped on that
/// timeline too: they have no counterpart in a replay, which starts at its first line.
public final class ComponentHostService {
    public static let networkSchema = SchemaID("network", major: 1)
    /// How often timers are checked (one frame at 60 Hz).
    public static let tickMs = 16
    /// How often the interfaces are probed.
    public static let probeMs = 2000

    private let runner: ServiceRunner
    // Unchecked (these four): only the service loop touches them, and the dynamic exclusivity
    // checks cost ~280 instructions a gesture.
    @exclusivity(unchecked) private var host: ComponentHost
    private let clients: [String]
    private var connectivity: Connectivity?
    /// The input source's clock read from this process's.
    private var timeline: SourceTimeline
    private var malformed = 0
    /// What the gesture being handled sent out; emptied and reused for the next one.
    @exclusivity(unchecked) private var outputs: [HostOutput] = []
    /// The gesture being handled, decoded over the one before (its strings kept when they repeat).
    @exclusivity(unchecked) private var event = GestureEvent.empty
    /// The topic of each component's states, made once; the ones met lately found without hashing.
    @exclusivity(unchecked) private var topics = RecentlyUsedDictionary<TopicKey, Topic>()

    private struct TopicKey: Hashable {
        let kind: ComponentScene.Kind
        let instance: String
        let delta: Bool
    }

    /// Connects to the bus and builds the machines.
    ///
    /// - Throws: ``BusError`` if the bus cannot be reached.
    public init(runner: ServiceRunner, scene: ComponentScene) throws {
        self.runner = runner
        self.host = ComponentHost(scene: scene)
        self.timeline = SourceTimeline(at: Self.monotonic(runner.clock))
        self.clients = scene.components.compactMap { component in
            guard case .memoBoard(let board) = component.config else { return nil }
            return board.client
        }
    }

    /// This process's monotonic clock now.
    private static func monotonic(_ clock: ServiceClock) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: Int64(clamping: clock.monotonicNs()))
    }

    /// The input source's clock now, for an input that carries none.
    private var now: SourceInstant { self.timeline.source(at: Self.monotonic(self.runner.clock)) }

    /// Subscribes, publishes the initial states and runs until SIGTERM.
    public func run() throws {
        try self.prepare()
        try self.runner.run()
    }

    /// Subscribes, sets the timers and publishes the initial states: everything before the
    /// runner's loop, which a test running the host in-process then turns itself.
    public func prepare() throws {
        let gestureFilter = SchemaFilter([GestureEvent.self])
        try self.runner.subscribe(["gesture/"], filter: gestureFilter) { [unowned self] in
            try self.gestureReceived($0, $1)
        }
        try self.runner.subscribe(["cmd/ui/"], filter: SchemaFilter([ComponentCommand.self])) {
            [unowned self] delivery, subscriber in
            guard let command = subscriber.decode(delivery, as: ComponentCommand.self) else { return }
            // The sender's wall clock: when a refresh_done that names no update time updated.
            let sentMs = Double(delivery.envelope.wall) / 1e6
            try self.publish(self.host.handle(command, at: self.now, wallMs: sentMs))
        }
        try self.runner.subscribe(["sys/lifecycle/"], filter: SchemaFilter([Lifecycle.self])) {
            [unowned self] delivery, subscriber in
            guard let message = subscriber.decode(delivery, as: Lifecycle.self) else { return }
            switch message.event {
            case .willResignActive: try self.publish(self.host.appActiveChanged(false, at: self.now))
            case .didBecomeActive: try self.publish(self.host.appActiveChanged(true, at: self.now))
            case .ready,
                .resync where message.service != self.runner.name:
                // A service joined or lost its place: give it every state at once.
                try self.publish(self.host.allStates(at: self.now))
            default: break
            }
        }
        try self.runner.subscribe(["sys/network/"], filter: SchemaFilter([Self.networkSchema])) {
            [unowned self] delivery, _ in
            let value = try Value(messagePack: delivery.payload)
            guard let name = value["connectivity"]?.stringValue, let connectivity = Connectivity(rawValue: name) else {
                throw CodecError(.invalidValue, offset: 0, context: "connectivity")
            }
            try self.apply(connectivity)
        }
        try self.subscribeMemo()
        self.runner.every(ms: Self.tickMs) { [unowned self] in try self.publish(self.host.advance(to: self.now)) }
        self.runner.every(ms: Self.probeMs) { [unowned self] in try self.probe() }
        self.runner.healthExtra = { [unowned self] in
            let counters = self.host.counters
            return [
                "gestures": .int(Int64(counters.gestures)), "unrouted": .int(Int64(counters.unrouted)),
                "rejected_commands": .int(Int64(counters.rejectedCommands)), "states": .int(Int64(counters.states)),
                "malformed_gestures": .int(Int64(self.malformed)),
            ]
        }
        try self.probe()
        let session = String(self.runner.publisher.epoch, radix: 16)
        try self.publish(self.host.start(at: self.now, session: session))
    }

    /// Hands a gesture event to the host, at its source time, and publishes what comes out.
    private func gestureReceived(_ delivery: Delivery, _ subscriber: Subscriber) throws {
        guard subscriber.decode(delivery, into: &self.event) else {
            self.malformed += 1
            return
        }
        self.timeline.anchor(SourceInstant(milliseconds: self.event.tMs), at: Self.monotonic(self.runner.clock))
        self.outputs.removeAll(keepingCapacity: true)
        self.host.handle(self.event, appendingTo: &self.outputs)
        try self.publish(self.outputs, input: self.event.input)
    }

    private func subscribeMemo() throws {
        let filter = SchemaFilter([MemoAck.self, MemoChanged.self, MemoSnapshot.self])
        var prefixes = ["memo/changed/"]
        for client in self.clients { prefixes += ["memo/ack/\(client)/", "memo/snapshot/\(client)/"] }
        try self.runner.subscribe(prefixes, filter: filter) { [unowned self] delivery, _ in
            let segments = delivery.topic.split(separator: "/").map(String.init)
            let epoch = delivery.envelope.epoch
            switch (delivery.envelope.schema, segments.count) {
            case ("memo.changed", _):
                try self.publish(
                    self.host.memoChangeReceived(
                        try MemoChanged(messagePack: delivery.payload), epoch: epoch, at: self.now))
            case ("memo.ack", 3):
                try self.publish(
                    self.host.memoAckReceived(
                        try MemoAck(messagePack: delivery.payload), client: segments[2], at: self.now))
            case ("memo.snapshot", 3):
                try self.publish(
                    self.host.memoSnapshotReceived(
                        try MemoSnapshot(messagePack: delivery.payload), client: segments[2], epoch: epoch,
                        at: self.now))
            default:
                throw CodecError(
                    .invalidValue, offset: 0, context: "unexpected \(delivery.envelope.schema) on \(delivery.topic)")
            }
        }
    }

    private func probe() throws {
        let interfaces = NetworkProbe.interfaces()
        let connectivity = NetworkProbe.connectivity(interfaces)
        guard connectivity != self.connectivity else { return }
        try self.runner.publisher.publish(
            NetworkProbe.payload(interfaces, tMs: self.runner.clock.nowMs), schema: Self.networkSchema,
            on: try Topic("sys/network/")
        )
        try self.apply(connectivity)
    }

    private func apply(_ connectivity: Connectivity) throws {
        self.connectivity = connectivity
        try self.publish(self.host.connectivityChanged(connectivity, at: self.now))
    }

    /// `ui/<kind>/<instance>/` (`…/delta/` for a memo board's deltas), made once per component.
    private func topic(of state: ComponentState) throws -> Topic {
        let key = TopicKey(kind: state.kind, instance: state.instance, delta: state.isDelta)
        return try self.topics.value(for: key) {
            key.delta
                ? try Topic(segments: "ui", state.kind.rawValue, state.instance, "delta")
                : try Topic(segments: "ui", state.kind.rawValue, state.instance)
        }
    }

    /// Publishes what the host sent out; states a gesture event caused carry its `input`.
    private func publish(_ outputs: [HostOutput], input: TouchInput? = nil) throws {
        for output in outputs {
            switch output {
            case .state(let state):
                let state = input == nil ? state : state.with(input: input)
                try self.runner.publisher.publish(state.schema, on: try self.topic(of: state)) {
                    state.encode(to: &$0)
                }
            case .memoCommand(let request):
                try self.runner.publisher.publish(request, on: try Topic("memo/cmd/"))
            case .recognizerConfig(let configuration):
                try self.runner.publisher.publish(
                    configuration, on: try Topic(segments: "ui", "recognizer", configuration.recognizer))
            }
        }
    }
}
