import BusSchema
import CZeroMQ

/// Publishes typed messages on the bus: topic, stamped envelope, payload.
///
/// The socket is an XPUB connected to the proxy's input, so the publisher also sees which
/// prefixes are subscribed and can wait for its first subscriber instead of sleeping.
/// Until the proxy's subscription set has arrived, messages are held rather than dropped
/// (``JoinBuffer``), so a restarted publisher's first messages reach the subscribers that
/// were waiting for them; they go out at the first ``publish(_:on:)``, ``drainSubscriptions()``
/// or ``waitForSubscriber(matching:timeoutMs:)`` after the subscriptions came. Use it from one
/// thread only.
public final class Publisher {
    public let socket: ZMQSocket
    // Unchecked (the publishing path's state): only the publishing thread touches it, and a
    // dynamic exclusivity check on each publish cost more than the stamping it guards.
    @exclusivity(unchecked) public private(set) var stamper: EnvelopeStamper
    public let statistics: BusStatistics
    /// Prefixes some subscriber currently wants. The proxy's own subscription for its state
    /// cache (``LastValueCache/proxySubscriptions``) is left out: it makes the socket send state
    /// while nobody listens, but it is no listener.
    public private(set) var subscriptions: Set<String> = []
    @exclusivity(unchecked) private var frames = Frames()
    /// Sends left before the next look at the subscription notices, which queue up on the
    /// XPUB until read. Held at 0 while joining, so that every message takes the slow path that
    /// holds it and the fast path pays no extra test.
    @exclusivity(unchecked) private var sendsBeforeDrain = 0
    private static let drainInterval = 1024
    /// Messages published before the subscriptions arrived; nil once they did.
    private var joining: JoinBuffer?
    /// Told of every subscribe notice, repeats included (see ``reportEverySubscribe(_:)``).
    private var onSubscribe: ((String) -> Void)?
    /// What the send queue may hold of the larger payloads, in bytes.
    private let budget: SendBudget

    /// How long a new publisher holds messages waiting for the bus's subscriptions by default.
    public static let defaultJoinGraceMs = 2000
    /// What a publisher's send queue may hold of the larger payloads by default (``SendBudget``).
    public static let defaultSendBudgetBytes = 64 << 20
    /// How many messages a new publisher holds at most while it waits.
    public static let joinHoldLimit = 1024

    /// Connects a publisher named `name` to `endpoint` (the proxy's publish side).
    ///
    /// - Parameters:
    ///   - sendHighWaterMark: messages queued before ZeroMQ drops (counted as gaps downstream).
    ///   - sendBudgetBytes: payload bytes queued before the publisher drops (``SendBudget``;
    ///     counted as `send_over_budget` here and as gaps downstream).
    ///   - curve: join as a CURVE client with these keys (``BusConfig/curveClient()``).
    ///   - joinGraceMs: how long to hold messages while no subscription has arrived yet (a bus
    ///     nobody subscribes to sends none); 0 sends at once, as a bare XPUB does.
    /// - Throws: ``BusError`` if the socket cannot be created or the endpoint is malformed.
    public init(
        context: ZMQContext, endpoint: String, name: String, statistics: BusStatistics = BusStatistics(),
        sendHighWaterMark: Int32 = 10_000, epoch: UInt64 = EnvelopeStamper.newEpoch(), curve: CurveClientKeys? = nil,
        joinGraceMs: Int = Publisher.defaultJoinGraceMs, sendBudgetBytes: Int = Publisher.defaultSendBudgetBytes
    ) throws {
        self.budget = SendBudget(bytes: sendBudgetBytes)
        self.socket = try ZMQSocket(context, .xpub)
        try self.socket.setOption(ZMQ_SNDHWM, sendHighWaterMark)
        if let curve { try self.socket.makeCurveClient(curve) }
        try self.socket.connect(endpoint)
        self.stamper = EnvelopeStamper(publisher: name, epoch: epoch)
        self.statistics = statistics
        if joinGraceMs > 0 {
            self.joining = JoinBuffer(graceMs: joinGraceMs, limit: Self.joinHoldLimit)
        } else {
            self.sendsBeforeDrain = Self.drainInterval
        }
    }

    public var name: String { self.stamper.publisher }
    public var epoch: UInt64 { self.stamper.epoch }

    /// Publishes `message` on `topic`.
    public func publish<M: BusMessage>(_ message: M, on topic: Topic) throws {
        try self.publish(M.schema, on: topic) { message.encode(to: &$0) }
    }

    /// Publishes a `schema` payload that `encode` writes straight into the publisher's buffer
    /// (for a message whose type is only known at run time, without encoding it elsewhere first).
    public func publish(_ schema: SchemaID, on topic: Topic, encode: (inout MessagePackWriter) -> Void) throws {
        self.stamper.payload.reset()
        encode(&self.stamper.payload)
        try self.send(schema, on: topic)
    }

    /// Publishes an already encoded MessagePack payload under `schema`.
    public func publish(payload: [UInt8], schema: SchemaID, on topic: Topic) throws {
        _ = self.stamper.stamp(schema, on: topic)
        if try self.mustHold() {
            payload.withUnsafeBytes { self.hold(topic, payload: $0) }
            return
        }
        try payload.withUnsafeBytes { payload in
            try self.stamper.header.withUnsafeBytes { try self.transmit(topic, header: $0, payload: payload) }
        }
    }

    /// Publishes a dynamic value as the payload of `schema`.
    public func publish(_ value: Value, schema: SchemaID, on topic: Topic) throws {
        self.stamper.payload.reset()
        self.stamper.payload.write(value)
        try self.send(schema, on: topic)
    }

    /// Waits until some subscriber wants `topic` (or any topic, if nil), up to `timeoutMs`.
    ///
    /// - Returns: whether a matching subscription arrived in time.
    public func waitForSubscriber(matching topic: Topic? = nil, timeoutMs: Int) throws -> Bool {
        let deadline = Clock.monotonicNs() + UInt64(max(timeoutMs, 0)) * 1_000_000
        var poller = Poller()
        try poller.add(self.socket)
        while true {
            try self.drainSubscriptions()
            if self.hasSubscriber(for: topic) { return true }
            let now = Clock.monotonicNs()
            if now >= deadline { return false }
            try poller.poll(timeoutMs: Int((deadline - now) / 1_000_000) + 1)
        }
    }

    /// Whether a current subscription covers `topic` (any subscription, if nil).
    public func hasSubscriber(for topic: Topic?) -> Bool {
        guard let topic else { return !self.subscriptions.isEmpty }
        return self.subscriptions.contains { topic.rawValue.hasPrefix($0) }
    }

    /// Calls `handler` with the prefix of every subscribe notice that reaches the publisher,
    /// including a prefix some subscriber already had: a new subscriber to a topic others watch
    /// too (the proxy's XPUB is verbose, so its subscription is forwarded), which a publisher
    /// keeping a last value wants to answer. Notices are read in ``drainSubscriptions()``.
    /// Sets `ZMQ_XPUB_VERBOSE` on the socket, which otherwise passes on only a prefix's first
    /// subscription.
    ///
    /// - Throws: ``BusError`` if the option cannot be set.
    public func reportEverySubscribe(_ handler: @escaping (String) -> Void) throws {
        try self.socket.setOption(ZMQ_XPUB_VERBOSE, 1)
        self.onSubscribe = handler
    }

    /// Reads the subscribe and unsubscribe notices that reached the socket.
    public func drainSubscriptions() throws {
        while try self.socket.receive(into: &self.frames, dontWait: true) {
            guard self.frames.count == 1 else { continue }
            let frame = self.frames[0]
            guard let kind = frame.first else { continue }
            let prefix = String(decoding: frame.dropFirst(), as: UTF8.self)
            if LastValueCache.proxySubscriptions.contains(prefix) { continue }
            if kind == 1 {
                self.subscriptions.insert(prefix)
                self.onSubscribe?(prefix)
            } else if kind == 0 {
                self.subscriptions.remove(prefix)
            }
        }
        if let joining = self.joining, !self.subscriptions.isEmpty || Clock.monotonicNs() >= joining.deadlineNs {
            try self.finishJoining()
        }
        self.sendsBeforeDrain = self.joining == nil ? Self.drainInterval : 0
    }

    /// Whether messages are still held because the bus's subscriptions have not arrived yet.
    public var isJoining: Bool { self.joining != nil }

    private func send(_ schema: SchemaID, on topic: Topic) throws {
        _ = self.stamper.stamp(schema, on: topic)
        if try self.mustHold() {
            self.stamper.payload.withUnsafeBytes { self.hold(topic, payload: $0) }
            return
        }
        try self.stamper.header.withUnsafeBytes { header in
            try self.stamper.payload.withUnsafeBytes { try self.transmit(topic, header: header, payload: $0) }
        }
    }

    /// Payload bytes sent and not yet written out by libzmq (the larger payloads only).
    public var queuedBytes: Int { self.budget.queuedBytes }

    /// Sends one message, unless its payload would take the send queue past its byte budget.
    @inline(__always)
    private func transmit(_ topic: Topic, header: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer) throws {
        if payload.count < SendBudget.accountedBytes {
            try self.socket.sendMessage(topic: topic, header: header, payload: payload)
        } else {
            guard self.budget.admits(payload.count) else {
                self.statistics.countReason("send_over_budget")
                return
            }
            var topicText = topic.rawValue
            _ = try topicText.withUTF8 { try self.socket.send(UnsafeRawBufferPointer($0), more: true) }
            _ = try self.socket.send(header, more: true)
            try self.budget.send(payload, on: self.socket)
        }
        self.statistics.add(.sent)
    }

    /// Counts a send down to the next look at the subscription notices; true while joining.
    @inline(__always)
    private func mustHold() throws -> Bool {
        self.sendsBeforeDrain -= 1
        return self.sendsBeforeDrain < 0 ? try self.drainAndCheckJoining() : false
    }

    private func drainAndCheckJoining() throws -> Bool {
        try self.drainSubscriptions()
        if self.joining?.isFull == true { try self.finishJoining() }
        return self.joining != nil
    }

    /// Keeps the message just stamped (its header is the stamper's) until the subscriptions come.
    private func hold(_ topic: Topic, payload: UnsafeRawBufferPointer) {
        self.stamper.header.withUnsafeBytes { self.joining?.hold(topic, header: $0, payload: payload) }
    }

    /// Sends the held messages, in order, now that the XPUB knows who wants them.
    private func finishJoining() throws {
        guard let joining = self.joining else { return }
        self.joining = nil
        self.sendsBeforeDrain = Self.drainInterval
        for message in joining.messages {
            try message.header.withUnsafeBytes { header in
                try message.payload.withUnsafeBytes { try self.transmit(message.topic, header: header, payload: $0) }
            }
        }
    }
}
