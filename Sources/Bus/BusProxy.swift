import BusSchema
import CZeroMQ
import Glibc
import Synchronization

/// The bus's XSUB/XPUB forwarder: publishers connect to its input, subscribers to its output.
///
/// It forwards every message and every subscription (`ZMQ_XPUB_VERBOSE`, so each new
/// subscriber's subscriptions reach the publishers), holds a single-instance lock next to
/// its ipc endpoints, removes ipc files a dead proxy left, and publishes its own health
/// (messages and bytes forwarded) on `sys/health/<name>/`.
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
    private let subscriptionsForwarded = Atomic<UInt64>(0)
    private let input: ZMQSocket
    private let output: ZMQSocket
    private let authenticator: ZAPHandler?
    private var lock: InstanceLock?
    private var health: HealthReporter
    private var stamper: EnvelopeStamper
    private let messagesPerTurn: Int

    /// Messages queued per peer before a slow one starts losing them (counted downstream as gaps).
    public static let defaultHighWaterMark: Int32 = 100_000

    /// The largest message the proxy accepts from a publisher by default.
    public static let defaultMaximumMessageSize: Int64 = 16 << 20

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
    /// - Throws: ``BusError`` if a socket cannot be made.
    public init(
        context: ZMQContext, config: BusConfig, name: String = "bus-proxy",
        highWaterMark: Int32 = BusProxy.defaultHighWaterMark,
        maximumMessageSize: Int64 = BusProxy.defaultMaximumMessageSize, curve: CurveServerKeys? = nil,
        messagesPerTurn: Int = 4096
    ) throws {
        self.config = config
        self.name = name
        self.messagesPerTurn = max(messagesPerTurn, 1)
        self.input = try ZMQSocket(context, .xsub)
        self.output = try ZMQSocket(context, .xpub)
        try self.input.setOption(ZMQ_RCVHWM, highWaterMark)
        try self.input.setOption(ZMQ_MAXMSGSIZE, int64: maximumMessageSize)
        try self.output.setOption(ZMQ_SNDHWM, highWaterMark)
        try self.output.setOption(ZMQ_XPUB_VERBOSE, 1)
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
    /// - Throws: ``BusError`` if another proxy holds the lock, the run directory belongs to
    ///   someone else, or an endpoint cannot be bound.
    public func bind() throws {
        if let first = self.config.ipcPaths.first {
            let directory = String(first[..<(first.lastIndex(of: "/") ?? first.startIndex)])
            for path in self.config.ipcPaths {
                let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
                if !parent.isEmpty { try PrivateDirectory.make(parent) }
            }
            self.lock = try InstanceLock(path: (directory.isEmpty ? "." : directory) + "/\(self.name).lock")
            // We hold the lock, so any socket file here belongs to a proxy that died.
            for path in self.config.ipcPaths { unlink(path) }
        }
        try self.input.bind(self.config.publish)
        try self.output.bind(self.config.subscribe)
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
        var nextHealth = Clock.monotonicNs()
        // Both sockets are read until they would block before the first wait (see Poller).
        var inputPending = true
        var outputPending = true
        while !shouldStop() {
            let now = Clock.monotonicNs()
            if now >= nextHealth {
                try self.publishHealth(state: .ready)
                nextHealth = now + UInt64(healthIntervalMs) * 1_000_000
                outputPending = true
            }
            let waitMs = inputPending || outputPending ? 0 : Int((nextHealth - min(nextHealth, now)) / 1_000_000) + 1
            try poller.poll(timeoutMs: waitMs)
            if let wakeIndex, poller.isReadable(wakeIndex) { break }
            if let authenticatorIndex, poller.isReadable(authenticatorIndex) { try self.authenticator?.answerPending() }
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

    /// Closes both sockets and releases the lock (removing the ipc files).
    public func close() {
        self.input.close()
        self.output.close()
        self.authenticator?.socket.close()
        for path in self.config.ipcPaths { unlink(path) }
        self.lock?.release()
        self.lock = nil
    }

    /// Drains a bounded batch so one busy side cannot starve the other or the health timer.
    /// Forwards a bounded batch of messages, so a flood cannot starve subscriptions or health.
    ///
    /// - Returns: whether messages may be left (the batch ended before the input would block).
    private func forwardMessages() throws -> Bool {
        for _ in 0..<self.messagesPerTurn {
            guard let moved = try self.input.forward(to: self.output) else { return false }
            self.statistics.add(.received)
            self.statistics.add(.sent)
            self.bytesForwarded.wrappingAdd(UInt64(moved.bytes), ordering: .relaxed)
        }
        return true
    }

    /// Forwards a bounded batch of subscriptions.
    ///
    /// - Returns: how many it forwarded, and whether more may be left.
    private func forwardSubscriptions() throws -> (forwarded: Int, more: Bool) {
        var forwarded = 0
        while forwarded < self.messagesPerTurn, try self.output.forward(to: self.input) != nil { forwarded += 1 }
        self.subscriptionsForwarded.wrappingAdd(UInt64(forwarded), ordering: .relaxed)
        return (forwarded, forwarded == self.messagesPerTurn)
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
        ]
        if self.authenticator != nil {
            extra["zap_accepted"] = Value(self.authentications.accepted)
            extra["zap_denied"] = Value(self.authentications.denied)
        }
        let report = self.health.report(state: state, extra: extra)
        let topic = try self.health.topic
        self.stamper.payload.reset()
        report.encode(to: &self.stamper.payload)
        _ = self.stamper.stamp(Health.schema, on: topic)
        try self.output.sendMessage(
            topic: topic, header: self.stamper.header, payload: self.stamper.payload)
    }
}
