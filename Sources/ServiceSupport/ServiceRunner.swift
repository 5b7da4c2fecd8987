import Bus
import BusSchema
import Glibc

/// Runs one service: its publisher, its subscriptions, timers, health and clean shutdown.
///
/// The loop is single-threaded: every socket lives on the thread that calls ``run()``. Besides
/// subscriptions it serves repeating timers (``every(ms:_:)``), one-shot timers at absolute
/// monotonic deadlines (``at(deadlineNs:_:)``, ``cancel(timer:)``) and raw file descriptors
/// (``watch(fileDescriptor:_:)``, e.g. an evdev device), all from the same `poll`. All
/// subscriptions share one socket, so a wait costs one system call however many there are.
/// A handler that throws is logged and counted (`handler_error`), never fatal; SIGTERM or
/// SIGINT ends the loop, after which the service says `stopping`/`stopped` on the bus.
public final class ServiceRunner {
    public let name: String
    public let context: ZMQContext
    public let config: BusConfig
    public let statistics = BusStatistics()
    public let publisher: Publisher
    /// Where the loop reads the time: timers, health and whatever the service times itself.
    public let clock: ServiceClock
    /// The CURVE keys every socket of the service joins with (nil: the bus has no CURVE).
    public let curve: CurveClientKeys?
    /// Numbers of the service's own to add to each health report.
    public var healthExtra: () -> ValueMap? = { nil }
    /// The state the next health report gives.
    public var state: Health.State = .starting
    /// Called once the loop has ended, after `stopping` is announced and before `stopped` (or
    /// before an error that ended the loop is thrown): the service finishes the work it has in
    /// flight there (joins its threads) and may still publish.
    public var onStop: () throws -> Void = {}
    private let signals: SignalWatcher
    private var health: HealthReporter
    /// Messages handled before timers, watches and signals get their turn again (at least 1).
    public var messagesPerTurn = 1024
    private var subscriber: Subscriber?
    /// The handler of each route of ``subscriber``, by route number.
    // Unchecked: only the service loop touches these, and a dynamic exclusivity check on every
    // delivery and every turn of the loop cost a few hundred instructions a message.
    @exclusivity(unchecked) private var handlers: [(Delivery, Subscriber) throws -> Void] = []
    @exclusivity(unchecked) private var timers: [Timer] = []
    private var watches: [Watch] = []
    private var watchesChanged = false
    private var nextID = 0
    private var problemsLogged = 0
    private var stopRequested = false
    /// Beats to the supervisor from a thread of its own (nil when not supervised).
    private var heartbeat: Heartbeat?
    /// What the loop polls, set up by ``start(subscriberWaitMs:)``.
    private var loop: Loop?

    /// Connects the service's publisher to the bus in `config`.
    ///
    /// - Parameter signals: created by `main` before anything else (see ``SignalWatcher``); a test
    ///   running a service in-process passes one that watches no signal.
    /// - Parameter context: the ZeroMQ context to share (an in-process bus's `inproc://`
    ///   endpoints need their proxy's); nil makes the service its own.
    /// - Parameter clock: the loop's time; a test passes a clock it moves.
    /// - Throws: ``ConfigurationError`` if the bus uses CURVE and this host's keys are missing
    ///   or bad, ``BusError`` if the bus cannot be reached.
    public init(
        name: String, config: BusConfig, signals: SignalWatcher, context: ZMQContext? = nil,
        clock: ServiceClock = SystemClock()
    ) throws {
        self.name = name
        self.config = config
        self.signals = signals
        self.clock = clock
        do {
            self.curve = try config.curveClient()
        } catch {
            throw ConfigurationError("\(error)")
        }
        self.context = try context ?? ZMQContext()
        self.publisher = try Publisher(
            context: self.context, endpoint: config.publish, name: name, statistics: self.statistics,
            curve: self.curve)
        self.health = HealthReporter(service: name, statistics: self.statistics, epoch: self.publisher.epoch)
    }

    /// The largest payload the subscription takes (``Subscriber/maximumMessageSize``); set it
    /// before the first ``subscribe(_:filter:handler:)``.
    public var maximumMessageSize = Subscriber.defaultMaximumMessageSize

    /// Subscribes to `prefixes`; `handler` gets every good message in arrival order.
    ///
    /// A message whose topic several subscriptions' prefixes match goes to the one with the
    /// longest matching prefix (``Subscriber/addRoute(_:filter:)``).
    ///
    /// - Throws: ``BusError`` if the subscription socket cannot be set up.
    public func subscribe(
        _ prefixes: [String], filter: SchemaFilter?, handler: @escaping (Delivery, Subscriber) throws -> Void
    ) throws {
        if let subscriber = self.subscriber {
            try subscriber.addRoute(prefixes, filter: filter)
        } else {
            let subscriber = try Subscriber(
                context: self.context, endpoint: self.config.subscribe, prefixes: prefixes, filter: filter,
                statistics: self.statistics, maximumMessageSize: self.maximumMessageSize, curve: self.curve)
            subscriber.onProblem = { [unowned self] problem in self.logProblem(problem) }
            self.subscriber = subscriber
        }
        self.handlers.append(handler)
    }

    /// Calls `action` every `intervalMs` while the service runs.
    ///
    /// - Returns: the timer's id, for ``cancel(timer:)``.
    @discardableResult
    public func every(ms intervalMs: Int, _ action: @escaping () throws -> Void) -> Int {
        let interval = UInt64(max(intervalMs, 1)) * 1_000_000
        return self.addTimer(
            Timer(id: 0, intervalNs: interval, next: self.clock.monotonicNs() + interval, action: action))
    }

    /// Calls `action` once, as soon as the loop runs at or after `deadlineNs` (``clock``'s
    /// monotonic nanoseconds). Deadlines are absolute, so a chain of them never drifts; the
    /// loop wakes at most about a millisecond late (`poll` counts in milliseconds), never early.
    /// A deadline already past fires on the next turn of the loop, after pending messages.
    ///
    /// - Returns: the timer's id, for ``cancel(timer:)``.
    @discardableResult
    public func at(deadlineNs: UInt64, _ action: @escaping () throws -> Void) -> Int {
        self.addTimer(Timer(id: 0, intervalNs: nil, next: deadlineNs, action: action))
    }

    /// Cancels a timer from ``every(ms:_:)`` or ``at(deadlineNs:_:)``; an id that already fired
    /// (one-shot) or was cancelled is ignored.
    public func cancel(timer id: Int) {
        self.timers.removeAll { $0.id == id }
    }

    /// Calls `handler` whenever `descriptor` (a device, a pipe) is readable, has hung up or reports
    /// an error. The handler must read what is there (or ``unwatch(_:)`` the descriptor at end of
    /// file), else the loop spins. It throws like a subscription handler: logged and counted.
    ///
    /// - Returns: the watch's id, for ``unwatch(_:)``.
    @discardableResult
    public func watch(fileDescriptor descriptor: Int32, _ handler: @escaping () throws -> Void) -> Int {
        self.nextID += 1
        self.watches.append(Watch(id: self.nextID, descriptor: descriptor, handler: handler))
        self.watchesChanged = true
        return self.nextID
    }

    /// Stops watching a descriptor (the caller still owns and closes it).
    public func unwatch(_ id: Int) {
        self.watches.removeAll { $0.id == id }
        self.watchesChanged = true
    }

    /// Asks the loop to end after the current message.
    public func stop() {
        self.stopRequested = true
    }

    /// Announces readiness and runs until a stop signal or ``stop()``: ``start(subscriberWaitMs:)``,
    /// ``turn(timeoutMs:)`` until it says to stop, then ``finish()``.
    ///
    /// - Parameter subscriberWaitMs: how long to wait for the bus to deliver subscriptions
    ///   before announcing `ready`, so the first messages are not dropped by an XPUB that knows no
    ///   subscriber yet. What the service published before this (its initial states) was held by
    ///   the publisher and goes out here, in order, once the subscriptions are in.
    public func run(subscriberWaitMs: Int = 2000) throws {
        try self.start(subscriberWaitMs: subscriberWaitMs)
        do {
            while try self.turn() {}
        } catch {
            // The owner still finishes what it has in flight (a frame, a write) before the error ends the run.
            self.finishInFlightWork()
            throw error
        }
        try self.finish()
    }

    /// Announces `started` and `ready` (after waiting for the bus's subscriptions, see
    /// ``run(subscriberWaitMs:)``), starts the health timer and sets up the loop. A test that runs
    /// a service in-process calls this, then ``turn(timeoutMs:)`` as it moves its clock.
    public func start(subscriberWaitMs: Int = 2000) throws {
        self.heartbeat = Heartbeat.start(epoch: self.publisher.epoch)
        Log.info(
            self.name,
            "starting: pid \(getpid()), epoch \(self.publisher.epoch), bus \(self.config.publish) → "
                + "\(self.config.subscribe), arguments: \(CommandLine.arguments.count > 1 ? CommandLine.arguments.dropFirst().joined(separator: " ") : "none")"
        )
        _ = try self.publisher.waitForSubscriber(timeoutMs: subscriberWaitMs)
        try self.announce(.started)
        self.state = .ready
        try self.publishHealth()
        try self.announce(.ready)
        Log.out("ready")
        self.every(ms: 1000) { [unowned self] in try self.publishHealth() }
        var poller = Poller()
        let socketIndex = try self.subscriber.map { try poller.add($0.socket) }
        let signalIndex = poller.add(fileDescriptor: self.signals.descriptor)
        self.loop = Loop(poller: poller, fixedItems: poller, socketIndex: socketIndex, signalIndex: signalIndex)
    }

    /// Announces `stopping`, lets the owner finish its work in flight (``onStop``), announces
    /// `stopped` and closes the sockets.
    public func finish() throws {
        self.state = .stopping
        Log.info(self.name, "stopping")
        try self.publishHealth()
        try self.announce(.stopping)
        self.finishInFlightWork()
        try self.announce(.stopped)
        Log.info(self.name, "stopped")
        self.subscriber?.socket.close()
        self.publisher.socket.close()
    }

    /// One turn of the loop: waits until a message, a watched descriptor, a signal or the next
    /// timer (by ``clock``), at most `timeoutMs` when given, then handles a bounded batch of
    /// messages, the watched descriptors and the timers due.
    ///
    /// - Returns: false once a stop was requested (by ``stop()`` or a signal).
    public func turn(timeoutMs: Int? = nil) throws -> Bool {
        guard !self.stopRequested, var loop = self.loop else { return false }
        // Taken out for the turn, so the poller's storage stays unshared and is polled in place.
        self.loop = nil
        defer { self.loop = loop }
        self.heartbeat?.loopTurns.wrappingAdd(1, ordering: .relaxed)
        if self.watchesChanged {
            loop.poller = loop.fixedItems
            loop.watched = self.watches
            for watch in loop.watched { loop.poller.add(fileDescriptor: watch.descriptor) }
            self.watchesChanged = false
        }
        let now = self.clock.monotonicNs()
        let next = self.timers.lazy.map(\.next).min() ?? now + 1_000_000_000
        // Round up, so a timer never fires early; a due timer polls without waiting.
        let untilTimerMs = next <= now || loop.socketPending ? 0 : Int((next - now + 999_999) / 1_000_000)
        try loop.poller.poll(timeoutMs: min(untilTimerMs, timeoutMs ?? untilTimerMs))
        if loop.poller.isReadable(loop.signalIndex), self.signals.pending() != nil { return false }
        if let subscriber = self.subscriber, let socketIndex = loop.socketIndex,
            loop.socketPending || loop.poller.isReadable(socketIndex)
        {
            loop.socketPending = try self.drain(subscriber)
        }
        for (position, watch) in loop.watched.enumerated() {
            let index = loop.signalIndex + 1 + position
            guard loop.poller.isReadable(index) || loop.poller.hasError(index) else { continue }
            // An earlier handler in this turn may have unwatched it.
            guard self.watches.contains(where: { $0.id == watch.id }) else { continue }
            do {
                try watch.handler()
            } catch {
                self.statistics.countReason("handler_error")
                self.logProblem("handler_error: descriptor \(watch.descriptor): \(error)")
            }
        }
        try self.fireTimers()
        return !self.stopRequested
    }

    /// Runs ``onStop``; a failure there is counted and logged, not thrown.
    private func finishInFlightWork() {
        do {
            try self.onStop()
        } catch {
            self.statistics.countReason("handler_error")
            self.logProblem("handler_error: stopping: \(error)")
        }
    }

    /// Publishes a lifecycle event for this service.
    public func announce(_ event: Lifecycle.Event, reason: String? = nil) throws {
        let message = Lifecycle {
            $0.service = self.name
            $0.event = event
            $0.epoch = self.publisher.epoch
            $0.pid = Int(getpid())
            $0.reason = reason
        }
        try self.publisher.publish(message, on: try Topic.lifecycle(self.name))
    }

    /// Hands a bounded batch of messages to their routes' handlers, so a flood cannot starve
    /// timers or signals.
    ///
    /// - Returns: whether messages may be left (the batch ended before the socket would block).
    private func drain(_ subscriber: Subscriber) throws -> Bool {
        for _ in 0..<max(self.messagesPerTurn, 1) {
            let (received, delivery) = try subscriber.receiveQueued()
            guard received else { return false }
            guard let delivery else { continue }
            do {
                try self.handlers[delivery.route](delivery, subscriber)
            } catch {
                self.statistics.countReason("handler_error")
                self.logProblem("handler_error: \(delivery.envelope.schema) on \(delivery.topic): \(error)")
            }
        }
        return true
    }

    private func addTimer(_ timer: Timer) -> Int {
        self.nextID += 1
        var timer = timer
        timer.id = self.nextID
        self.timers.append(timer)
        return timer.id
    }

    /// Fires the timers due now; actions may add or cancel timers as they run.
    private func fireTimers() throws {
        let now = self.clock.monotonicNs()
        guard self.timers.contains(where: { $0.next <= now }) else { return }
        let due = self.timers.filter { $0.next <= now }.sorted { $0.next < $1.next }.map(\.id)
        for id in due where !self.stopRequested {
            guard let index = self.timers.firstIndex(where: { $0.id == id }) else { continue }
            let timer = self.timers[index]
            if let interval = timer.intervalNs {
                self.timers[index].next = now + interval
            } else {
                self.timers.remove(at: index)
            }
            try timer.action()
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

    private struct Timer {
        var id: Int
        /// Nil for a one-shot timer.
        var intervalNs: UInt64?
        var next: UInt64
        var action: () throws -> Void
    }

    /// The poll set of the loop and what it knows between turns.
    private struct Loop {
        var poller: Poller
        /// The subscription socket and the signal descriptor, before any watch.
        let fixedItems: Poller
        let socketIndex: Int?
        let signalIndex: Int
        var watched: [Watch] = []
        // The socket is read until it would block before the first wait, and whenever a batch
        // ended before that (see Poller).
        var socketPending = true
    }

    private struct Watch {
        var id: Int
        var descriptor: Int32
        var handler: () throws -> Void
    }
}
