import Bus
import BusSchema
import Glibc

/// Runs one service: its publisher, its subscriptions, timers, health and clean shutdown.
///
/// The loop is single-threaded: every socket lives on the thread that calls ``run()``.
/// A handler that throws is logged and counted (`handler_error`), never fatal; SIGTERM or
/// SIGINT ends the loop, after which the service says `stopping`/`stopped` on the bus.
public final class ServiceRunner {
    public let name: String
    public let context: ZMQContext
    public let config: BusConfig
    public let statistics = BusStatistics()
    public let publisher: Publisher
    /// Numbers of the service's own to add to each health report.
    public var healthExtra: () -> ValueMap? = { nil }
    /// The state the next health report gives.
    public var state: Health.State = .starting
    private let signals: SignalWatcher
    private var health: HealthReporter
    private var subscriptions: [(subscriber: Subscriber, handler: (Delivery, Subscriber) throws -> Void)] = []
    private var timers: [(intervalNs: UInt64, next: UInt64, action: () throws -> Void)] = []
    private var problemsLogged = 0
    private var stopRequested = false

    /// Connects the service's publisher to the bus in `config`.
    ///
    /// - Parameter signals: created by `main` before anything else (see ``SignalWatcher``).
    /// - Throws: ``BusError`` if the bus cannot be reached.
    public init(name: String, config: BusConfig, signals: SignalWatcher) throws {
        self.name = name
        self.config = config
        self.signals = signals
        self.context = try ZMQContext()
        self.publisher = try Publisher(
            context: self.context, endpoint: config.publish, name: name, statistics: self.statistics)
        self.health = HealthReporter(service: name, statistics: self.statistics)
    }

    /// Subscribes to `prefixes`; `handler` gets every good message in arrival order.
    public func subscribe(
        _ prefixes: [String], filter: SchemaFilter?, handler: @escaping (Delivery, Subscriber) throws -> Void
    ) throws {
        let subscriber = try Subscriber(
            context: self.context, endpoint: self.config.subscribe, prefixes: prefixes, filter: filter,
            statistics: self.statistics)
        subscriber.onProblem = { [unowned self] problem in self.logProblem(problem) }
        self.subscriptions.append((subscriber, handler))
    }

    /// Calls `action` every `intervalMs` while the service runs.
    public func every(ms intervalMs: Int, _ action: @escaping () throws -> Void) {
        let interval = UInt64(max(intervalMs, 1)) * 1_000_000
        self.timers.append((interval, Clock.monotonicNs() + interval, action))
    }

    /// Asks the loop to end after the current message.
    public func stop() {
        self.stopRequested = true
    }

    /// Announces readiness and runs until a stop signal or ``stop()``.
    ///
    /// - Parameter subscriberWaitMs: how long to wait for the bus to deliver subscriptions
    ///   before announcing `ready`, so the first messages are not dropped by a PUB with no peers.
    public func run(subscriberWaitMs: Int = 2000) throws {
        _ = try self.publisher.waitForSubscriber(timeoutMs: subscriberWaitMs)
        try self.announce(.started)
        self.state = .ready
        try self.publishHealth()
        try self.announce(.ready)
        Log.out("ready")
        self.every(ms: 1000) { [unowned self] in try self.publishHealth() }

        var poller = Poller()
        var indices: [Int] = []
        for subscription in self.subscriptions { indices.append(try poller.add(subscription.subscriber.socket)) }
        let signalIndex = poller.add(fileDescriptor: self.signals.descriptor)
        while !self.stopRequested {
            let now = Clock.monotonicNs()
            let next = self.timers.map(\.next).min() ?? now + 1_000_000_000
            try poller.poll(timeoutMs: Int((next - min(next, now)) / 1_000_000) + 1)
            if poller.isReadable(signalIndex), self.signals.pending() != nil { break }
            for (position, index) in indices.enumerated() where poller.isReadable(index) {
                try self.drain(self.subscriptions[position])
            }
            try self.fireTimers()
        }
        self.state = .stopping
        try self.publishHealth()
        try self.announce(.stopping)
        try self.announce(.stopped)
        for subscription in self.subscriptions { subscription.subscriber.socket.close() }
        self.publisher.socket.close()
    }

    /// Publishes a lifecycle event for this service.
    public func announce(_ event: Lifecycle.Event, reason: String? = nil) throws {
        let message = Lifecycle(
            service: self.name, event: event, epoch: self.publisher.epoch, pid: Int(getpid()), reason: reason)
        try self.publisher.publish(message, on: try Topic.lifecycle(self.name))
    }

    private func drain(_ subscription: (subscriber: Subscriber, handler: (Delivery, Subscriber) throws -> Void))
        throws
    {
        // A bounded batch, so a flood on one subscription cannot starve timers or signals.
        for _ in 0..<1024 {
            let (received, delivery) = try subscription.subscriber.receiveQueued()
            guard received else { return }
            guard let delivery else { continue }
            do {
                try subscription.handler(delivery, subscription.subscriber)
            } catch {
                self.statistics.countReason("handler_error")
                self.logProblem("handler_error: \(delivery.envelope.schema) on \(delivery.topic): \(error)")
            }
        }
    }

    private func fireTimers() throws {
        let now = Clock.monotonicNs()
        for index in self.timers.indices where self.timers[index].next <= now {
            self.timers[index].next = now + self.timers[index].intervalNs
            try self.timers[index].action()
        }
    }

    private func publishHealth() throws {
        let report = self.health.report(state: self.state, extra: self.healthExtra())
        try self.publisher.publish(report, on: try self.health.topic)
    }

    /// Logs the first problems in full, then one in a thousand: counters carry the rest.
    private func logProblem(_ problem: String) {
        self.problemsLogged += 1
        if self.problemsLogged <= 20 || self.problemsLogged % 1000 == 0 {
            Log.error(self.name, "\(problem) (problem #\(self.problemsLogged))")
        }
    }
}
