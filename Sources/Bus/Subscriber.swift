import BusSchema
import CZeroMQ
import Glibc

/// One message that passed the subscriber's checks.
public struct Delivery: Sendable {
    public var topic: String
    public var envelope: Envelope
    /// The payload frame: MessagePack as described by `envelope.schema`.
    public var payload: [UInt8]
    /// What this message meant for its (publisher, epoch, topic) stream.
    public var sequence: SequenceTracker.Outcome
    /// The route whose prefix matched the topic (``Subscriber/addRoute(_:filter:)``); 0 is the first.
    public var route: Int = 0
}

/// Receives bus messages, checks every frame and keeps the loss counters.
///
/// A bad frame never escapes as a crash or an exception: it is counted as rejected under a
/// reason (`frame_count`, `bad_topic`, `oversized`, `bad_envelope`, `unknown_envelope_version`,
/// `unknown_schema`), or as dead-lettered (`unknown_major`), described to ``onProblem`` and
/// skipped. A state topic's message seen again (the proxy replays the newest state to late
/// joiners, and so to everyone subscribed: ``LastValueCache``) is skipped and counted under
/// `state_repeated`, not as a duplicate. What it holds unread stays within a byte budget while
/// its owner falls behind; a message past it is dropped and counted under `receive_over_budget`
/// (``ReceiveBudget``, whose warden shares the socket under a lock). Use it from one
/// thread only.
public final class Subscriber {
    /// The largest message (all frames) accepted by default.
    public static let defaultMaximumMessageSize = 1 << 20
    /// Messages libzmq queues before it stops reading the connection, by default.
    public static let defaultReceiveHighWaterMark: Int32 = 10_000
    /// The bytes held unread by default while the owner falls behind (``ReceiveBudget``).
    public static let defaultReceiveBudgetBytes = 64 << 20

    public let socket: ZMQSocket
    public let statistics: BusStatistics
    /// Messages larger than this are counted as `oversized` and skipped.
    public let maximumMessageSize: Int
    // Unchecked (the receive path's state below): a subscriber is used from one thread, and the
    // dynamic exclusivity checks on these cost ~1 000 of ~11 100 instructions a message in the
    // hop benchmark (callgrind).
    /// The topic prefixes subscribed, in groups that each accept their own schemas.
    @exclusivity(unchecked) private var routes: [Route] = []
    /// Called with a one-line description of each rejected or dead-lettered message.
    public var onProblem: ((String) -> Void)?
    @exclusivity(unchecked) public private(set) var tracker = SequenceTracker()
    @exclusivity(unchecked) private var envelopes = EnvelopeDecoder()
    /// What the frames of the message being read said; filled while libzmq holds them.
    @exclusivity(unchecked) private var incoming = Incoming()
    /// The payload of the message being read, in a buffer reused while nobody keeps a delivery.
    @exclusivity(unchecked) private var payload: [UInt8] = []
    /// Good topics heard lately (their bytes), with their strings and routes: a message on one of
    /// them skips the checks, the route lookup and the string (an allocation past 15 bytes). A
    /// service hears a handful of topics interleaved (the flood: a frame's echo, its gestures and
    /// its states).
    @exclusivity(unchecked) private var recentTopics = RecentlyUsed<[UInt8], (topic: String, route: Int)>(
        capacity: Subscriber.topicsKept)
    /// Where in ``tracker`` the last message on each kept topic went, by the topic's slot.
    @exclusivity(unchecked) private var streamPositions = [Int](repeating: -1, count: Subscriber.topicsKept)
    private static let topicsKept = 8
    /// What ``receive(timeoutMs:)`` waits with (see ``wait(timeoutMs:)``).
    private var poller: Poller?
    /// Keeps what the subscriber holds unread within a byte budget; every read goes through it.
    let budget: ReceiveBudget

    private struct Incoming {
        var size = 0
        var topic: Result<String, CodecError> = .failure(CodecError(.truncated, offset: 0))
        var shownTopic = ""
        var envelope: Result<Envelope, CodecError> = .failure(CodecError(.truncated, offset: 0))
        var route = 0
        /// The topic's slot in ``recentTopics`` (none for a bad topic, which is never tracked).
        var topicSlot = 0
    }

    private struct Route {
        var prefixes: [[UInt8]]
        /// The schemas read on these prefixes; nil reads every schema (a tap).
        var filter: SchemaFilter?
    }

    /// Connects to `endpoint` (the proxy's subscribe side) and subscribes to `prefixes`.
    ///
    /// No `ZMQ_MAXMSGSIZE` here on purpose: libzmq drops a SUB's connection on an over-limit
    /// message and never reconnects it, so one bad publisher would silence the subscriber for
    /// good. The proxy enforces the transport limit on its input instead; here an oversized
    /// message is counted and skipped. What the subscriber holds unread is bounded in bytes by
    /// `receiveBudgetBytes` (``ReceiveBudget``), since the high-water mark counts messages.
    ///
    /// - Parameters:
    ///   - receiveHighWaterMark: messages queued before ZeroMQ drops (seen here as gaps).
    ///   - receiveBudgetBytes: bytes held unread while the owner falls behind; past them messages
    ///     are dropped, counted as `receive_over_budget` and seen as gaps.
    ///   - bind: bind `endpoint` instead of connecting to it (a collector that publishers find).
    ///   - curve: join as a CURVE client with these keys (``BusConfig/curveClient()``).
    /// - Throws: ``BusError`` if the socket cannot be set up.
    public init(
        context: ZMQContext, endpoint: String, prefixes: [String], filter: SchemaFilter? = nil,
        statistics: BusStatistics = BusStatistics(), maximumMessageSize: Int = Subscriber.defaultMaximumMessageSize,
        receiveHighWaterMark: Int32 = Subscriber.defaultReceiveHighWaterMark,
        receiveBudgetBytes: Int = Subscriber.defaultReceiveBudgetBytes, bind: Bool = false,
        curve: CurveClientKeys? = nil
    ) throws {
        let socket = try ZMQSocket(context, .sub)
        try socket.setOption(ZMQ_RCVHWM, receiveHighWaterMark)
        if let curve { try socket.makeCurveClient(curve) }
        for prefix in prefixes { try socket.setOption(ZMQ_SUBSCRIBE, bytes: prefix) }
        if bind { try socket.bind(endpoint) } else { try socket.connect(endpoint) }
        let budget = try ReceiveBudget(
            socket: socket, bytes: receiveBudgetBytes, highWaterMark: Int(receiveHighWaterMark), statistics: statistics)
        socket.wakeDescriptor = budget.wakeup
        socket.willClose = { [weak budget] in budget?.stop() }
        self.socket = socket
        self.budget = budget
        self.statistics = statistics
        self.maximumMessageSize = maximumMessageSize
        self.routes = [Route(prefixes: prefixes.map { Array($0.utf8) }, filter: filter)]
    }

    deinit {
        self.budget.stop()
        // The budget's descriptor closes with it; a poller built on the socket from now on
        // watches the socket alone.
        self.socket.wakeDescriptor = nil
    }

    /// Messages the byte budget's warden has taken off the socket while the owner fell behind
    /// (held for the owner, or dropped past the budget); 0 for an owner that keeps up.
    public var messagesTakenByBudget: Int { self.budget.taken }

    /// Subscribes to `prefixes` as a route of its own, whose messages must have a schema of
    /// `filter` (nil: any). A message takes the route with the longest prefix of its topic:
    /// one socket serves every route, so a message matching several routes arrives once.
    ///
    /// - Returns: the route's number, which deliveries on it carry (``Delivery/route``).
    /// - Throws: ``BusError`` if the socket refuses a subscription.
    @discardableResult
    public func addRoute(_ prefixes: [String], filter: SchemaFilter?) throws -> Int {
        try self.budget.withSocket { socket in
            for prefix in prefixes { try socket.setOption(ZMQ_SUBSCRIBE, bytes: prefix) }
        }
        self.routes.append(Route(prefixes: prefixes.map { Array($0.utf8) }, filter: filter))
        self.recentTopics.removeAll()
        return self.routes.count - 1
    }

    /// Returns the next good message, skipping and counting bad ones.
    ///
    /// - Parameter timeoutMs: how long to wait for a message; 0 only takes what is queued.
    /// - Returns: nil if no good message arrived in time.
    public func receive(timeoutMs: Int) throws -> Delivery? {
        while let count = try self.readFrames() {
            if let delivery = self.check(frameCount: count) { return delivery }
        }
        let deadline = Clock.monotonicNs() + UInt64(max(timeoutMs, 0)) * 1_000_000
        while true {
            let now = Clock.monotonicNs()
            if now >= deadline { return nil }
            try self.wait(timeoutMs: Int((deadline - now + 999_999) / 1_000_000))
            while let count = try self.readFrames() {
                if let delivery = self.check(frameCount: count) { return delivery }
            }
        }
    }

    /// Waits up to `timeoutMs` for the socket, with a poller built at the first wait and kept: a
    /// reader that keeps up waits after nearly every message, and building one costs an
    /// allocation and a `zmq_getsockopt`.
    private func wait(timeoutMs: Int) throws {
        if self.poller == nil {
            var poller = Poller()
            try poller.add(self.socket)
            self.poller = poller
        }
        try self.poller?.poll(timeoutMs: timeoutMs)
    }

    /// Reads one queued message without waiting: a delivery, nil for a skipped bad frame,
    /// or false in `received` when nothing was queued.
    public func receiveQueued() throws -> (received: Bool, delivery: Delivery?) {
        guard let count = try self.readFrames() else { return (false, nil) }
        return (true, self.check(frameCount: count))
    }

    /// Decodes a delivery's payload as `M`, counting a failure as a rejected `bad_payload`.
    public func decode<M: BusMessage>(_ delivery: Delivery, as _: M.Type) -> M? {
        do {
            return try M(messagePack: delivery.payload)
        } catch {
            self.rejectPayload(of: delivery, error)
            return nil
        }
    }

    /// Decodes a delivery's payload over `message`, reusing its storage (a handler that keeps one
    /// value for a stream), counting a failure as ``decode(_:as:)`` does.
    ///
    /// - Returns: whether `message` now holds the delivery's message.
    @inlinable
    public func decode<M: ReusableBusMessage>(_ delivery: Delivery, into message: inout M) -> Bool {
        do {
            try message.decode(messagePack: delivery.payload)
            return true
        } catch {
            self.rejectPayload(of: delivery, error)
            return false
        }
    }

    @usableFromInline
    func rejectPayload(of delivery: Delivery, _ error: any Error) {
        self.problem(.reject, "bad_payload", "\(delivery.envelope.schema) on \(delivery.topic): \(error)")
    }

    private enum Disposition {
        case reject, deadLetter
    }

    private func problem(_ disposition: Disposition, _ reason: String, _ detail: String) {
        switch disposition {
        case .reject: self.statistics.reject(reason)
        case .deadLetter: self.statistics.deadLetter(reason)
        }
        self.onProblem?("\(reason): \(detail)")
    }

    /// Reads one queued message, checking topic and header and copying the payload as they
    /// come off the socket (only the payload outlives the read). Nil when nothing was queued.
    private func readFrames() throws -> Int? {
        self.incoming.size = 0
        return try self.budget.read { index, bytes in
            self.incoming.size += bytes.count
            switch index {
            case 0:
                if let slot = self.knownTopic(bytes) {
                    let known = self.recentTopics.value(inSlot: slot)
                    (self.incoming.topic, self.incoming.route) = (.success(known.topic), known.route)
                    self.incoming.topicSlot = slot
                    return
                }
                self.incoming.route = self.route(of: bytes)
                if let problem = Topic.problem(inUTF8: bytes) {
                    self.incoming.topic = .failure(CodecError(.invalidValue, offset: 0, context: problem))
                    self.incoming.shownTopic = String(decoding: bytes.prefix(64), as: UTF8.self)
                } else if let topic = String(validatedUTF8: bytes) {
                    self.incoming.topic = .success(topic)
                    self.incoming.topicSlot = self.recentTopics.remember(Array(bytes), (topic, self.incoming.route))
                } else {
                    self.incoming.topic = .failure(CodecError(.invalidUTF8, offset: 0, context: "invalid UTF-8"))
                    self.incoming.shownTopic = String(decoding: bytes.prefix(64), as: UTF8.self)
                }
            case 1:
                do {
                    self.incoming.envelope = .success(try self.envelopes.decode(bytes))
                } catch let error as CodecError {
                    self.incoming.envelope = .failure(error)
                } catch {
                    self.incoming.envelope = .failure(CodecError(.invalidValue, offset: 0, context: "\(error)"))
                }
            case 2 where bytes.count <= self.maximumMessageSize:
                self.payload.removeAll(keepingCapacity: true)
                self.payload.append(contentsOf: bytes)
            default:
                break
            }
        }
    }

    private func check(frameCount: Int) -> Delivery? {
        self.statistics.add(.received)
        guard frameCount == 3 else {
            self.problem(.reject, "frame_count", "\(frameCount) frames, expected 3")
            return nil
        }
        let size = self.incoming.size
        guard size <= self.maximumMessageSize else {
            self.problem(.reject, "oversized", "\(size) bytes, limit \(self.maximumMessageSize)")
            return nil
        }
        guard
            let topic = self.accepted(
                self.incoming.topic, "bad_topic", { "'\(self.incoming.shownTopic)': \($0.context)" }),
            let envelope = self.accepted(self.incoming.envelope, "bad_envelope", { "on \(topic): \($0)" })
        else { return nil }
        guard envelope.version == Envelope.currentVersion else {
            self.problem(
                .reject, "unknown_envelope_version", "v\(envelope.version) on \(topic) from \(envelope.publisher)")
            return nil
        }
        let outcome = self.track(envelope, topic)
        if outcome == .duplicate, LastValueCache.isState(topic) {
            self.statistics.countReason("state_repeated")
            return nil
        }
        if let filter = self.routes[self.incoming.route].filter {
            switch filter.verdict(id: envelope.schema, major: envelope.major) {
            case .accept: break
            case .unknownSchema:
                self.problem(.reject, "unknown_schema", "\(envelope.schema) on \(topic) from \(envelope.publisher)")
                return nil
            case .unknownMajor:
                self.problem(
                    .deadLetter, "unknown_major",
                    "\(envelope.schema) v\(envelope.major) on \(topic) from \(envelope.publisher)")
                return nil
            }
        }
        return Delivery(
            topic: topic, envelope: envelope, payload: self.payload, sequence: outcome, route: self.incoming.route)
    }

    /// What `result` holds, or nil when it failed: the message is then rejected for `reason`.
    private func accepted<T>(_ result: Result<T, CodecError>, _ reason: String, _ detail: (CodecError) -> String)
        -> T?
    {
        switch result {
        case .success(let value): return value
        case .failure(let error):
            self.problem(.reject, reason, detail(error))
            return nil
        }
    }

    /// The slot of the kept topic spelled `bytes`, if it is kept (only good topics are, and an
    /// empty topic never is good).
    private func knownTopic(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        return self.recentTopics.slot { kept in
            kept.count == bytes.count && kept.withUnsafeBytes { memcmp($0.baseAddress!, base, bytes.count) == 0 }
        }
    }

    /// The route with the longest prefix of `topic`; the first if none matches (ZeroMQ only
    /// delivers subscribed topics, so that happens only to a topic unsubscribed since).
    private func route(of topic: UnsafeRawBufferPointer) -> Int {
        var best = 0
        var bestLength = -1
        for (index, route) in self.routes.enumerated() {
            for prefix in route.prefixes where prefix.count > bestLength && topic.starts(with: prefix) {
                best = index
                bestLength = prefix.count
            }
        }
        return best
    }

    private func track(_ envelope: Envelope, _ topic: String) -> SequenceTracker.Outcome {
        let slot = self.incoming.topicSlot
        var position = self.streamPositions[slot]
        let outcome = self.tracker.observe(
            publisher: envelope.publisher, epoch: envelope.epoch, topic: topic, seq: envelope.seq, position: &position)
        self.streamPositions[slot] = position
        switch outcome {
        case .first, .inOrder: break
        case .gap(let missing), .newEpoch(let missing): self.statistics.add(.gaps, missing)
        case .duplicate where !LastValueCache.isState(topic): self.statistics.add(.duplicates)
        case .duplicate: break
        case .resync: self.statistics.countReason("seq_resync")
        case .reorder:
            self.statistics.add(.reorders)
            self.statistics.subtract(.gaps)
        }
        return outcome
    }
}
