import BusSchema
import CZeroMQ
import Glibc
import Synchronization

/// The bus's XSUB/XPUB forwarder: publishers connect to its input, subscribers to its output.
///
/// It forwards every message and every subscription and cancel (`ZMQ_XPUB_VERBOSER`, so each new
/// subscriber's subscriptions reach the publishers, and a prefix's last cancel reaches them
/// too), holds a single-instance lock next to its ipc endpoints, removes ipc files a dead proxy
/// left, and publishes its own health (messages and bytes forwarded, the subscriptions held per
/// prefix: ``SubscriptionCounts``) on `sys/health/<name>/`.
///
/// Late joiners: the newest message of every state topic is kept in a ``LastValueCache`` and
/// replayed when a subscription to its prefix arrives (`lvc_*` in health).
///
/// Who may join: ipc endpoints live in a 0700 directory of the user running the proxy
/// (``PrivateDirectory``), the sockets themselves 0600. With a `curve` section in the bus file
/// both endpoints are CURVE servers and a ``ZAPHandler`` polled in the same loop lets in only
/// the client keys on the allow-list (`zap_accepted`, `zap_denied` in health).
public final class BusProxy {
    public let config: BusConfig
    public let name: String
    public let statistics = BusStatistics()
    private let bytesForwarded = Atomic<UInt64>(0)
    /// Times a subscriber's queue was found full. libzmq then sets that queue aside and drops
    /// for it, unseen, until it drains, so this counts overflows, not messages: the subscriber
    /// counts each lost message as a gap.
    private let subscriberOverflows = Atomic<UInt64>(0)
    private let subscriptionsForwarded = Atomic<UInt64>(0)
    private let input: ZMQSocket
    private let output: ZMQSocket
    private let authenticator: ZAPHandler?
    private var lock: InstanceLock?
    private var health: HealthReporter
    private var stamper: EnvelopeStamper
    private let messagesPerTurn: Int
    // Unchecked (the forwarding loop's state): only the proxy's thread touches it, and the
    // dynamic exclusivity checks would run on every state message forwarded.
    @exclusivity(unchecked) private var cache: LastValueCache
    /// The frames of the state message being forwarded, kept once it has gone.
    @exclusivity(unchecked) private var stateFrames = Frames()
    /// Subscriptions read in the current batch, replayed from the cache after it.
    @exclusivity(unchecked) private var subscribedPrefixes: [[UInt8]] = []
    /// Subscriptions held now, per prefix, for health.
    private var subscriptionCounts = SubscriptionCounts()
    /// When the cache may replay again (``Clock/monotonicNs()``), if it has messages waiting.
    private var nextReplayNs: UInt64?
    /// Messages queued per subscriber and per publisher.
    private let highWaterMark: Int32
    /// Caps on the connections of the input and the output.
    private let limiters: [ConnectionLimiter]
    /// What the queues for subscribers may hold, in bytes, kept by cutting off those behind.
    @exclusivity(unchecked) private var budget: QueueBudget

    /// Messages queued per peer before a slow one starts losing them (counted downstream as gaps).
    public static let defaultHighWaterMark: Int32 = 100_000

    /// What the proxy may hold queued for subscribers by default (``QueueBudget``).
    public static let defaultQueueBudgetBytes = 128 << 20

    /// The largest message the proxy accepts from a publisher by default.
    public static let defaultMaximumMessageSize: Int64 = 16 << 20

    /// How long a connection may take to finish its handshake (CURVE's included) before it is
    /// dropped, so connections that never speak cannot hold descriptors for libzmq's 30 s.
    public static let handshakeTimeoutMs: Int32 = 5000

    /// The ZAP domain of the proxy's CURVE sockets.
    public static let authenticationDomain = "uibus"

    /// Creates the proxy's sockets; ``bind()`` makes it reachable.
    ///
    /// - Parameter maximumMessageSize: `ZMQ_MAXMSGSIZE` on the input. libzmq disconnects a
    ///   publisher that sends more; the publisher reconnects at once, and subscribers see what
    ///   it lost as a gap in its sequence.
    /// - Parameter curve: make both endpoints CURVE servers with these keys, letting in only the
    ///   allowed clients (``CurveSettings/serverKeys()`` reads them from the bus file's key files).
    /// - Parameter messagesPerTurn: messages forwarded before subscriptions, health and the stop
    ///   signal get their turn again (at least 1).
    /// - Parameter lastValues: how much state the late joiners' cache keeps and replays.
    /// - Parameter connectionsPerEndpoint: connections each endpoint holds before refusing more;
    ///   nil sets it from the open-file limit, whose soft value is first raised to the hard one.
    /// - Parameter queueBudgetBytes: what the proxy may hold queued for subscribers; past it, those
    ///   that fell behind are cut off (``QueueBudget``).
    /// - Throws: ``BusError`` if a socket cannot be made.
    public init(
        context: ZMQContext, config: BusConfig, name: String = "bus-proxy",
        highWaterMark: Int32 = BusProxy.defaultHighWaterMark,
        maximumMessageSize: Int64 = BusProxy.defaultMaximumMessageSize, curve: CurveServerKeys? = nil,
        messagesPerTurn: Int = 4096, lastValues: LastValueCache.Limits = LastValueCache.Limits(),
        connectionsPerEndpoint: Int? = nil, queueBudgetBytes: Int = BusProxy.defaultQueueBudgetBytes
    ) throws {
        self.budget = QueueBudget(bytes: queueBudgetBytes)
        self.cache = LastValueCache(limits: lastValues, nowNs: Clock.monotonicNs())
        self.highWaterMark = highWaterMark
        self.config = config
        self.name = name
        self.messagesPerTurn = max(messagesPerTurn, 1)
        self.input = try ZMQSocket(context, .xsub)
        self.output = try ZMQSocket(context, .xpub)
        try self.input.setOption(ZMQ_RCVHWM, highWaterMark)
        try self.input.setOption(ZMQ_MAXMSGSIZE, int64: maximumMessageSize)
        try self.output.setOption(ZMQ_SNDHWM, highWaterMark)
        // Every subscribe and every cancel comes through, so that subscribers can be counted per
        // prefix. It also keeps the input's counts right: the XSUB counts each verbose subscribe
        // and passes a cancel on to publishers only when its count reaches zero, which with
        // VERBOSE alone (one cancel for many subscribes) never happened.
        try self.output.setOption(ZMQ_XPUB_VERBOSER, 1)
        // A full subscriber queue refuses the message instead of dropping it unseen, so the
        // proxy counts the drop (``forwardMessages()``) and then lets it drop.
        try self.output.setOption(ZMQ_XPUB_NODROP, 1)
        for socket in [self.input, self.output] { try socket.setOption(ZMQ_HANDSHAKE_IVL, Self.handshakeTimeoutMs) }
        let descriptors = ConnectionLimiter.raiseDescriptorLimit()
        let cap = connectionsPerEndpoint ?? ConnectionLimiter.limit(descriptors: descriptors, endpoints: 2)
        self.limiters = try [self.input, self.output].map {
            try ConnectionLimiter(context: context, watching: $0, limit: cap)
        }
        if let keys = curve {
            self.authenticator = try ZAPHandler(context: context, allowed: keys.allowed)
            try self.input.makeCurveServer(keys.pair, domain: Self.authenticationDomain)
            try self.output.makeCurveServer(keys.pair, domain: Self.authenticationDomain)
        } else {
            self.authenticator = nil
        }
        self.stamper = EnvelopeStamper(publisher: name)
        self.health = HealthReporter(service: name, statistics: self.statistics, epoch: self.stamper.epoch)
    }

    /// Takes the instance lock, clears stale ipc files and binds both endpoints.
    ///
    /// The lock comes before anything is changed: a proxy refused because another one runs
    /// leaves that one's directory, sockets and lock file as they were.
    ///
    /// - Throws: ``BusError`` if another proxy holds the lock, the run directory is a symbolic
    ///   link or belongs to someone else, or an endpoint cannot be bound.
    public func bind() throws {
        if !self.config.ipcPaths.isEmpty {
            let directories = self.config.ipcPaths.map { path in
                let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
                return parent.isEmpty ? "." : parent
            }
            var opened: [(descriptor: Int32, path: String)] = []
            defer { for directory in opened { Glibc.close(directory.descriptor) } }
            for directory in directories { opened.append((try PrivateDirectory.open(directory), directory)) }
            self.lock = try InstanceLock(path: directories[0] + "/\(self.name).lock")
            for directory in opened { try PrivateDirectory.tighten(directory.descriptor, path: directory.path) }
            // We hold the lock, so any socket file here belongs to a proxy that died.
            for path in self.config.ipcPaths { unlink(path) }
        }
        try self.input.bind(self.config.publish)
        try self.output.bind(self.config.subscribe)
        // The XSUB keeps its own subscriptions and sends them to every publisher that connects.
        for prefix in LastValueCache.proxySubscriptions { try self.input.send([1] + Array(prefix.utf8), more: false) }
        for path in self.config.ipcPaths where chmod(path, 0o600) != 0 {
            throw BusError(errno: errno, call: "chmod", context: path)
        }
    }

    /// The endpoints as bound, wildcard tcp ports resolved (`tcp://127.0.0.1:*` binds any free port).
    public func boundEndpoints() throws -> (publish: String, subscribe: String) {
        (try self.input.lastEndpoint(), try self.output.lastEndpoint())
    }

    /// The epoch of the proxy's own messages (its health), for the supervisor's heartbeat.
    public var epoch: UInt64 { self.stamper.epoch }

    public var messagesForwarded: UInt64 { self.statistics.value(.sent) }
    /// What the late joiners' cache has replayed, evicted and refused so far.
    public var lastValueCounters: LastValueCache.Counters { self.cache.counters }
    public var bytes: UInt64 { self.bytesForwarded.load(ordering: .relaxed) }

    /// Forwards until `shouldStop` says so or `wakeDescriptor` becomes readable.
    ///
    /// - Parameters:
    ///   - wakeDescriptor: a file descriptor (a signalfd) that ends the loop when readable.
    ///   - healthIntervalMs: how often to publish health.
    public func run(wakeDescriptor: Int32? = nil, healthIntervalMs: Int = 1000, shouldStop: () -> Bool = { false })
        throws
    {
        var poller = Poller()
        let inputIndex = try poller.add(self.input)
        let outputIndex = try poller.add(self.output)
        let wakeIndex = wakeDescriptor.map { poller.add(fileDescriptor: $0) }
        let authenticatorIndex = try self.authenticator.map { try poller.add($0.socket) }
        let limiterIndices = try self.limiters.map { try poller.add($0.socket) }
        // The monitors' descriptors signal edges like any socket's: read them once before waiting.
        for limiter in self.limiters { try limiter.handleEvents() }
        var nextHealth = Clock.monotonicNs()
        // Both sockets are read until they would block before the first wait (see Poller).
        var inputPending = true
        var outputPending = true
        while !shouldStop() {
            let now = Clock.monotonicNs()
            if now >= nextHealth {
                try self.checkBudget()
                try self.publishHealth(state: .ready)
                nextHealth = now + UInt64(healthIntervalMs) * 1_000_000
                outputPending = true
            }
            if let replayAt = self.nextReplayNs, now >= replayAt {
                try self.replayLastValues()
                outputPending = true
            }
            let wakeAt = min(nextHealth, self.nextReplayNs ?? .max)
            let waitMs = inputPending || outputPending ? 0 : Int((wakeAt - min(wakeAt, now)) / 1_000_000) + 1
            try poller.poll(timeoutMs: waitMs)
            if let wakeIndex, poller.isReadable(wakeIndex) { break }
            if let authenticatorIndex, poller.isReadable(authenticatorIndex) { try self.authenticator?.answerPending() }
            for (limiter, index) in zip(self.limiters, limiterIndices) where poller.isReadable(index) {
                try limiter.handleEvents()
            }
            if inputPending || poller.isReadable(inputIndex) {
                inputPending = try self.forwardMessages()
                // Sending on the output may have taken its signals: its subscriptions are read now.
                outputPending = true
            }
            if outputPending || poller.isReadable(outputIndex) {
                let forwarded: Int
                (forwarded, outputPending) = try self.forwardSubscriptions()
                // Likewise, sending subscriptions on the input may have taken its signals.
                if forwarded > 0 { inputPending = true }
            }
        }
        try self.publishHealth(state: .stopping)
    }

    /// Closes both sockets and, if this proxy held the lock, removes its ipc files and the lock.
    public func close() {
        for limiter in self.limiters { limiter.close() }
        self.input.close()
        self.output.close()
        self.authenticator?.socket.close()
        guard let lock = self.lock else { return }
        for path in self.config.ipcPaths { unlink(path) }
        lock.release()
        self.lock = nil
    }

    /// Drains a bounded batch so one busy side cannot starve the other or the health timer.
    /// Forwards a bounded batch of messages, so a flood cannot starve subscriptions or health.
    ///
    /// - Returns: whether messages may be left (the batch ended before the input would block).
    private func forwardMessages() throws -> Bool {
        for _ in 0..<self.messagesPerTurn {
            var isState = false
            var dropping = false
            let forwarded = try self.input.forward(
                to: self.output,
                inspect: { index, bytes in
                    if index == 0 {
                        isState = LastValueCache.isState(bytes)
                        if isState { self.stateFrames.removeAll() }
                    }
                    if isState { self.stateFrames.append(bytes) }
                },
                whenFull: {
                    try self.letFullQueuesDrop()
                    dropping = true
                })
            if dropping { try self.output.setOption(ZMQ_XPUB_NODROP, 1) }
            guard let moved = forwarded else { return false }
            if isState, moved.frames == 3 {
                self.cache.keep(topic: self.stateFrames[0], header: self.stateFrames[1], payload: self.stateFrames[2])
            }
            self.statistics.add(.received)
            self.statistics.add(.sent)
            self.bytesForwarded.wrappingAdd(UInt64(moved.bytes), ordering: .relaxed)
            if self.budget.forwarded(moved.bytes) { try self.checkBudget() }
        }
        return true
    }

    /// Holds the queues against their byte budget, cutting off the subscribers behind.
    private func checkBudget() throws {
        let output = self.limiters[1]
        // Connections that came and went since the last look are known before any is cut.
        try output.handleEvents()
        output.forget(self.budget.check(cacheBytes: self.cache.bytes, subscribers: output.descriptors))
    }

    /// Forwards a bounded batch of subscriptions.
    ///
    /// - Returns: how many it forwarded, and whether more may be left.
    private func forwardSubscriptions() throws -> (forwarded: Int, more: Bool) {
        var forwarded = 0
        while forwarded < self.messagesPerTurn,
            try self.output.forward(
                to: self.input,
                inspect: { index, bytes in
                    // A notice is one frame: 1 (subscribe) or 0 (cancel), then the prefix.
                    guard index == 0 else { return }
                    self.subscriptionCounts.notice(bytes)
                    if bytes.first == 1 { self.subscribedPrefixes.append(Array(bytes.dropFirst())) }
                }) != nil
        {
            forwarded += 1
        }
        self.subscriptionsForwarded.wrappingAdd(UInt64(forwarded), ordering: .relaxed)
        if !self.subscribedPrefixes.isEmpty {
            for prefix in self.subscribedPrefixes { prefix.withUnsafeBytes { self.cache.subscribed(prefix: $0) } }
            self.subscribedPrefixes.removeAll(keepingCapacity: true)
            try self.replayLastValues()
        }
        return (forwarded, forwarded == self.messagesPerTurn)
    }

    /// Sends the cached state that new subscriptions asked for, as far as the replay budget allows.
    private func replayLastValues() throws {
        let now = Clock.monotonicNs()
        self.nextReplayNs = try self.cache.replay(nowNs: now) { entry in
            try entry.topic.withUnsafeBytes { topic in
                try entry.header.withUnsafeBytes { header in
                    try entry.payload.withUnsafeBytes { try self.send(topic: topic, header: header, payload: $0) }
                }
            }
        }.map { now + $0 }
    }

    /// Sends a message of the proxy's own (health, a replay), dropped like a forwarded one for
    /// subscribers whose queue is full.
    private func send(topic: UnsafeRawBufferPointer, header: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer)
        throws
    {
        var dropping = false
        // Refusing comes back on only after the last frame: the message goes as a whole.
        defer { if dropping { try? self.output.setOption(ZMQ_XPUB_NODROP, 1) } }
        if try !self.output.send(topic, more: true, dontWait: true) {
            try self.letFullQueuesDrop()
            dropping = true
            try self.output.send(topic, more: true)
        }
        try self.output.send(header, more: true)
        try self.output.send(payload, more: false)
    }

    /// Counts a subscriber queue found full and lets the output drop the message for it (the
    /// others still get it); the caller turns refusing back on.
    private func letFullQueuesDrop() throws {
        self.subscriberOverflows.wrappingAdd(1, ordering: .relaxed)
        try self.output.setOption(ZMQ_XPUB_NODROP, 0)
    }

    /// CURVE clients let in and turned away so far (both 0 without CURVE).
    public var authentications: (accepted: UInt64, denied: UInt64) {
        guard let authenticator = self.authenticator else { return (0, 0) }
        return (authenticator.accepted.load(ordering: .relaxed), authenticator.denied.load(ordering: .relaxed))
    }

    private func publishHealth(state: Health.State) throws {
        var extra: ValueMap = [
            "messages_forwarded": Value(self.messagesForwarded), "bytes_forwarded": Value(self.bytes),
            "subscriptions_forwarded": Value(self.subscriptionsForwarded.load(ordering: .relaxed)),
            "lvc_entries": Value(UInt64(self.cache.count)), "lvc_bytes": Value(UInt64(self.cache.bytes)),
            "lvc_hits": Value(self.cache.counters.hits), "lvc_replays": Value(self.cache.counters.replays),
            "lvc_evictions": Value(self.cache.counters.evictions),
            "lvc_too_large": Value(self.cache.counters.tooLarge),
            "subscriber_overflows": Value(self.subscriberOverflows.load(ordering: .relaxed)),
            "high_water_mark": Value(UInt64(self.highWaterMark)),
            "connections_publishers": Value(UInt64(self.limiters[0].count)),
            "connections_subscribers": Value(UInt64(self.limiters[1].count)),
            "connections_limit": Value(UInt64(self.limiters[1].limit)),
            "connections_refused": Value(self.limiters.reduce(0) { $0 + $1.refused }),
            "subscriptions_untracked": Value(self.subscriptionCounts.untracked),
        ]
        for (key, value) in self.budget.health { extra[key] = value }
        if self.authenticator != nil {
            extra["zap_accepted"] = Value(self.authentications.accepted)
            extra["zap_denied"] = Value(self.authentications.denied)
        }
        var report = self.health.report(state: state, extra: extra)
        report.subscribers = self.subscriptionCounts.entries.map { ($0.prefix, $0.count) }
        let topic = try self.health.topic
        self.stamper.payload.reset()
        report.encode(to: &self.stamper.payload)
        _ = self.stamper.stamp(Health.schema, on: topic)
        var topicText = topic.rawValue
        try topicText.withUTF8 { topicBytes in
            try self.stamper.header.withUnsafeBytes { header in
                try self.stamper.payload.withUnsafeBytes {
                    try self.send(topic: UnsafeRawBufferPointer(topicBytes), header: header, payload: $0)
                }
            }
        }
    }
}
