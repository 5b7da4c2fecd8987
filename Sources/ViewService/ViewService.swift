import Bus
import BusSchema
import DemoReport
import ServiceSupport

/// `uibus-view` on the bus: frames out to pages, pages' touches and commands in.
///
/// Subscribes `render/tiles/` (the frame's tiles go to every page, see ``WebServer``; when a
/// message was lost it asks the render worker for a key frame on `cmd/render/`, once a second at
/// most) and,
/// for the inspector, `ui/`, `gesture/`, `touch/`, `memo/`, `sys/`, `cmd/` and `render/frame/`;
/// every 100 ms the messages seen (at most ``maximumBatchMessages``, each as JSON, component
/// states and memo board deltas with their lane and phase named as the report's timeline names them) go to the pages as one batch, and every second the message count per topic. As
/// soon as a page's message comes in (the web thread rings a ``Doorbell`` the loop watches) it
/// publishes the page's coalesced touch frame on `touch/web-<session>/` (one per page per 4 ms
/// at most: a frame following another sooner waits until then), the pages' component commands on
/// `cmd/ui/<instance>/`, and `will_resign_active` on
/// `sys/lifecycle/uibus-view/` once no page is open and shown, `did_become_active` when one is
/// again.
public final class ViewService {
    /// How often inspector batches go out.
    public static let batchMs = 100
    /// Messages per inspector batch at most; the rest are counted, not sent.
    public static let maximumBatchMessages = 300
    /// A message payload larger than this is shown by its size only.
    public static let maximumShownPayload = 16 * 1024
    /// Topics counted per second at most (a flood of new topics cannot grow memory).
    public static let maximumRateTopics = 512

    static let inspectorPrefixes = ["ui/", "gesture/", "touch/", "memo/", "sys/", "cmd/", "render/frame/"]

    private let runner: ServiceRunner
    private let server: WebServer
    private var batch: [Value] = []
    private var omitted = 0
    private var rates: [String: Int] = [:]
    private var commandTopics: [String: Topic] = [:]
    private var touchFrames = 0
    private var commands = 0
    private var badFrames = 0
    private var tilesOutOfStep = 0
    private var phases = ComponentPhases()
    private var nextKeyFrameRequestNs: UInt64 = 0
    private let doorbell: Doorbell
    /// When the flush for a touch frame held back by the spacing is due, if one is scheduled.
    private var flushDueNs: UInt64?

    /// - Parameters:
    ///   - token: what pages must present (see ``AccessToken``).
    ///   - pageDirectory: where `index.html`, `app.js` and `style.css` are.
    ///   - scene: the scene document the UI runs (pages get it when they connect).
    /// - Throws: ``ViewError`` when the doorbell's pipe cannot be made.
    public init(runner: ServiceRunner, token: String, pageDirectory: String, scene: Value) throws {
        self.runner = runner
        self.doorbell = try Doorbell()
        self.server = WebServer(
            hub: ViewHub(doorbell: self.doorbell), token: token, pageDirectory: pageDirectory,
            sceneJSON: JSONWriter.string(scene))
    }

    /// Listens on `host`:`port` (0: any free port) and returns the port.
    ///
    /// - Throws: ``ViewError`` if the address cannot be bound.
    public func listen(host: String, port: Int) throws -> Int {
        try self.server.start(host: host, port: port)
        return Int(self.server.port)
    }

    /// Subscribes and runs until SIGTERM; then closes every page.
    public func run() throws {
        let hub = self.server.hub
        try self.runner.subscribe(["render/tiles/"], filter: SchemaFilter([RenderTiles.self])) {
            [unowned self] delivery, subscriber in
            guard let tiles = subscriber.decode(delivery, as: RenderTiles.self) else {
                self.badFrames += 1
                return
            }
            if hub.publishTiles(tiles) {
                self.server.wake()
            } else {
                try self.askForKeyFrame()
            }
        }
        try self.runner.subscribe(Self.inspectorPrefixes, filter: nil) { [unowned self] delivery, _ in
            self.inspect(delivery)
        }
        self.runner.watch(fileDescriptor: self.doorbell.descriptor) { [unowned self] in
            self.doorbell.answer()
            try self.flush()
        }
        self.runner.every(ms: Self.batchMs) { [unowned self] in self.sendBatch() }
        self.runner.every(ms: 1000) { [unowned self] in self.sendRates() }
        self.runner.healthExtra = { [unowned self] in
            var extra: ValueMap = [
                "touch_frames": .int(Int64(self.touchFrames)), "commands": .int(Int64(self.commands)),
                "bad_frames": .int(Int64(self.badFrames)), "tiles_out_of_step": .int(Int64(self.tilesOutOfStep)),
                "inspector_omitted": .int(Int64(self.omitted)),
                "frame_packets_made": .int(Int64(hub.outbound.withLock { $0.packetsMade })),
            ]
            for (name, count) in hub.counters.sorted(by: { $0.key < $1.key }) { extra[name] = .int(Int64(count)) }
            return extra
        }
        self.runner.onStop = { [unowned self] in
            self.server.stop()
            try self.flush()
        }
        try self.runner.run()
    }

    /// Publishes what the pages sent since the last flush; a touch frame held back by the
    /// spacing gets a flush at its due time.
    private func flush() throws {
        let drained = self.server.hub.drain(nowNs: self.runner.clock.monotonicNs())
        if let due = drained.nextDueNs, due < self.flushDueNs ?? .max {
            self.flushDueNs = due
            self.runner.at(deadlineNs: due) { [unowned self] in
                self.flushDueNs = nil
                try self.flush()
            }
        }
        for frame in drained.frames {
            try self.runner.publisher.publish(frame, on: try Topic.touch(frame.device))
            self.touchFrames += 1
        }
        for command in drained.commands {
            try self.runner.publisher.publish(command, on: try self.topic(for: command.instance))
            self.commands += 1
        }
        if drained.pageOpened {
            // The proxy's cache holds a board's last full state and its last delta, which need not
            // follow each other: the host answers a resync with every full state.
            try self.runner.announce(.resync, reason: "a page opened")
        }
        if let active = drained.active {
            try self.runner.announce(active ? .didBecomeActive : .willResignActive, reason: "page visibility")
        }
    }

    /// Asks the render worker for a key frame: tiles were lost on the way (counted), and the
    /// pages keep the frame they have until one comes.
    private func askForKeyFrame() throws {
        self.tilesOutOfStep += 1
        let now = Clock.monotonicNs()
        guard now >= self.nextKeyFrameRequestNs else { return }
        self.nextKeyFrameRequestNs = now + 1_000_000_000
        try self.runner.publisher.publish(
            ComponentCommand {
                $0.instance = "render"
                $0.command = "key_frame"
            }, on: try Topic("cmd/render/"))
    }

    private func topic(for instance: String) throws -> Topic {
        if let topic = self.commandTopics[instance] { return topic }
        let topic = try Topic(segments: "cmd", "ui", instance)
        if self.commandTopics.count < 256 { self.commandTopics[instance] = topic }
        return topic
    }

    /// Notes one message for the inspector.
    private func inspect(_ delivery: Delivery) {
        if self.rates[delivery.topic] != nil || self.rates.count < Self.maximumRateTopics {
            self.rates[delivery.topic, default: 0] += 1
        }
        guard self.batch.count < Self.maximumBatchMessages else {
            self.omitted += 1
            return
        }
        let envelope = delivery.envelope
        var record: ValueMap = [
            "topic": .string(delivery.topic), "schema": .string(envelope.schema),
            "publisher": .string(envelope.publisher), "wall_ms": .double(Double(envelope.wall) / 1e6),
            "bytes": .int(Int64(delivery.payload.count)),
        ]
        if delivery.payload.count <= Self.maximumShownPayload, let data = try? Value(messagePack: delivery.payload) {
            record["data"] = data
            // A component's lane and phase as the report's timeline names them (a memo board's
            // deltas too, applied to its last full state).
            if delivery.topic.hasPrefix("ui/"),
                let named = self.phases.phase(schema: envelope.schema, topic: delivery.topic, data)
            {
                record["lane"] = .string(named.component)
                record["phase"] = .string(named.phase)
            }
        }
        self.batch.append(.map(record))
    }

    private func sendBatch() {
        guard !self.batch.isEmpty else { return }
        var bytes: [UInt8] = []
        JSONWriter.write(.map(["type": .string("bus"), "messages": .array(self.batch)]), into: &bytes)
        self.batch.removeAll(keepingCapacity: true)
        self.server.hub.publishBatch(bytes)
        self.server.wake()
    }

    private func sendRates() {
        var topics = ValueMap()
        for (topic, count) in self.rates.sorted(by: { $0.key < $1.key }) { topics[topic] = .int(Int64(count)) }
        self.rates.removeAll(keepingCapacity: true)
        var bytes: [UInt8] = []
        JSONWriter.write(.map(["type": .string("rates"), "window_s": .int(1), "topics": .map(topics)]), into: &bytes)
        self.server.hub.publishBatch(bytes)
        self.server.wake()
    }
}
