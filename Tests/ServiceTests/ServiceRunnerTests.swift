import Bus
import BusSchema
import BusTestSupport
import Glibc
import MessageFixtures
import ServiceSupport
import Testing

/// The loop's subscriptions, one-shot timers and descriptor watches, run in-process against a real proxy.
@Suite struct ServiceRunnerTests {
    @Test func eachSubscriptionGetsItsOwnMessagesAndABacklogBeyondOneTurnIsHandledWhole() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let runner = try ServiceRunner(name: "route-test", config: proxy.config, signals: SignalWatcher())
        // One message per turn: the backlog behind it must be read on later turns without a new
        // arrival, since ZeroMQ signals only a queue that was found empty.
        runner.messagesPerTurn = 1
        let frames = 500
        var touches: [UInt64] = []
        var lifecycles: [String] = []
        let done = { touches.count == frames && lifecycles == ["sender"] }
        try runner.subscribe(["touch/"], filter: SchemaFilter([TouchFrame.self])) { delivery, subscriber in
            touches.append(try #require(subscriber.decode(delivery, as: TouchFrame.self)).frame)
            if done() { runner.stop() }
        }
        try runner.subscribe(["sys/lifecycle/sender/"], filter: SchemaFilter([Lifecycle.self])) {
            delivery, subscriber in
            lifecycles.append(try #require(subscriber.decode(delivery, as: Lifecycle.self)).service)
            if done() { runner.stop() }
        }
        let context = try ZMQContext()
        let publisher = try Publisher(context: context, endpoint: proxy.config.publish, name: "sender")
        let topic = try Topic.touch("d0")
        let lifecycleTopic = try Topic.lifecycle("sender")
        // Each subscription is a socket of its own: wait until both have reached the publisher,
        // or a loaded machine drops the lifecycle before its subscription arrives.
        #expect(try publisher.waitForSubscriber(matching: topic, timeoutMs: 5000))
        #expect(try publisher.waitForSubscriber(matching: lifecycleTopic, timeoutMs: 5000))
        for index in 1...frames {
            try publisher.publish(
                TouchFrame.frame("d0", UInt64(index), tNs: 0, contacts: []), on: topic)
        }
        try publisher.publish(
            Lifecycle {
                $0.service = "sender"
                $0.event = .ready
                $0.epoch = publisher.epoch
                $0.pid = 1
                $0.reason = nil
            },
            on: lifecycleTopic)
        // A failing test ends here rather than hanging.
        runner.at(deadlineNs: Clock.monotonicNs() + 20_000_000_000) { runner.stop() }
        try runner.run(subscriberWaitMs: 0)
        #expect(touches == (1...UInt64(frames)).map { $0 })
        #expect(lifecycles == ["sender"])
        #expect(runner.statistics.counters.gaps == 0)
    }

    @Test func oneShotTimersFireInDeadlineOrderNeverEarlyAndACancelledOneNever() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let runner = try ServiceRunner(name: "timer-test", config: proxy.config, signals: SignalWatcher())
        var fired: [(name: String, late: Bool)] = []
        let start = Clock.monotonicNs()
        let deadlines: [(String, UInt64)] = [("c", 30_000_000), ("a", 10_000_000), ("b", 20_000_000)]
        for (name, offset) in deadlines {
            runner.at(deadlineNs: start + offset) { fired.append((name, Clock.monotonicNs() >= start + offset)) }
        }
        let cancelled = runner.at(deadlineNs: start + 15_000_000) { fired.append(("x", true)) }
        runner.cancel(timer: cancelled)
        // A timer set from inside a timer, already due: it fires on the next turn.
        runner.at(deadlineNs: start + 40_000_000) {
            runner.at(deadlineNs: 0) {
                fired.append(("d", true))
                runner.stop()
            }
        }
        try runner.run(subscriberWaitMs: 0)
        #expect(fired.map(\.name) == ["a", "b", "c", "d"])
        #expect(fired.filter { !$0.late }.isEmpty)
    }

    @Test func onStopRunsOnceAfterTheLoopEndsAndAFailureThereIsCountedNotThrown() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let runner = try ServiceRunner(name: "stop-test", config: proxy.config, signals: SignalWatcher())
        var events: [String] = []
        runner.onStop = {
            events.append("onStop \(runner.state)")
            struct Failed: Error {}
            throw Failed()
        }
        runner.at(deadlineNs: 0) {
            events.append("timer")
            runner.stop()
        }
        try runner.run(subscriberWaitMs: 0)
        #expect(events == ["timer", "onStop stopping"])
        #expect(runner.statistics.reasons.contains { $0 == ("handler_error", 1) })
    }

    @Test func onStopAlsoRunsWhenAnErrorEndsTheLoopAndTheErrorStillReachesTheCaller() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let runner = try ServiceRunner(name: "error-test", config: proxy.config, signals: SignalWatcher())
        struct TimerFailed: Error {}
        var stopped = 0
        runner.onStop = { stopped += 1 }
        runner.at(deadlineNs: 0) { throw TimerFailed() }
        #expect(throws: TimerFailed.self) { try runner.run(subscriberWaitMs: 0) }
        #expect(stopped == 1, "the owner finished its in-flight work before the error ended the run")
    }

    @Test func aWatchedPipeCallsItsHandlerForDataAndForTheHangUp() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let runner = try ServiceRunner(name: "watch-test", config: proxy.config, signals: SignalWatcher())
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (reader, writer) = (ends[0], ends[1])
        defer { close(reader) }
        _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK)
        var received: [UInt8] = []
        var watch = 0
        watch = runner.watch(fileDescriptor: reader) {
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(reader, &buffer, buffer.count)
            if count > 0 {
                received += buffer[..<count]
                // The writer hangs up once its bytes arrived; the hang-up must still reach us.
                close(writer)
            } else if count == 0 {
                runner.unwatch(watch)
                runner.stop()
            }
        }
        let bytes: [UInt8] = [1, 2, 3]
        runner.at(deadlineNs: 0) { _ = write(writer, bytes, bytes.count) }
        try runner.run(subscriberWaitMs: 0)
        #expect(received == [1, 2, 3])
    }
}
