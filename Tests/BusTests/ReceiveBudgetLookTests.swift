import BusSchema
import BusTestSupport
import CZeroMQ
import Foundation
import Glibc
import Testing

@testable import Bus

/// The warden's reads driven from the test (``ReceiveBudget/look(asIfMemoryGrew:)``): what a look
/// leaves for the owner does not depend on when the warden's thread runs or on how the process's
/// memory moves. Over `inproc` a message is in the subscriber's queue once `publish` returns.
@Suite struct ReceiveBudgetLookTests {
    /// A look's reads consume libzmq's signal on `ZMQ_FD` for the messages still on the socket;
    /// an owner waiting in `poll` wakes for them although the warden holds nothing (it dropped
    /// what it read, each message past the budget, and stopped after the high-water mark's count
    /// of reads). The process's warden may look too (its trigger, half of a 1 MiB budget, is
    /// easily met here): whoever took what, the owner wakes.
    @Test func aLookThatLeavesMessagesOnTheSocketWakesTheOwnerWhileItHoldsNothing() throws {
        let bus = try InprocBus(name: "look-wake", budgetBytes: 1 << 20, highWaterMark: 4)
        defer { bus.close() }
        var poller = Poller()
        let index = try poller.add(bus.subscriber.socket)
        let large = [UInt8](repeating: 7, count: 3 << 19)
        for _ in 0..<6 { try bus.publisher.publish(payload: large, schema: TouchFrame.schema, on: bus.topic) }
        _ = bus.subscriber.budget.look(asIfMemoryGrew: 3 << 18)
        let taken = bus.subscriber.messagesTakenByBudget
        #expect(taken >= 4, "a look reads at most 4 here, the first leaves 2 on the socket")
        #expect(bus.subscriber.statistics.reasons.first { $0.0 == "receive_over_budget" }?.1 == UInt64(taken))
        try poller.poll(timeoutMs: 0)
        #expect(poller.isReadable(index))
        var read = 0
        while try bus.subscriber.receiveQueued().received { read += 1 }
        #expect(read + bus.subscriber.messagesTakenByBudget == 6)
        try poller.poll(timeoutMs: 0)
        #expect(!poller.isReadable(index), "the owner read everything, so its wait waits")
    }

    /// The warden takes whenever the process's memory grew, whatever grew it: small messages it
    /// took past the high-water mark would let a publisher that waits rather than drops
    /// (`ZMQ_XPUB_NODROP`, as the proxy) run on while the owner pauses, and what the warden could
    /// not hold would be dropped. It holds no more than the mark, so the publisher waits and the
    /// owner gets every message in order.
    @Test func aPublisherThatWaitsForAPausedOwnerLosesNoSmallMessageWhileTheWardenTakes() throws {
        // A budget no test process grows by while the owner pauses, so the process's warden too
        // keeps to the count (past the whole budget the bytes decide: the next test).
        let bus = try InprocBus(name: "look-backpressure", budgetBytes: 256 << 20, highWaterMark: 100)
        defer { bus.close() }
        try bus.publisher.socket.setOption(ZMQ_XPUB_NODROP, 1)
        // 10 000 messages against a mark of 100: without the count the warden would take them
        // all and the publisher would never wait.
        let count = 10_000
        let payload = [UInt8](repeating: 1, count: 64)
        let sent = DispatchSemaphore(value: 0)
        // The sending thread alone uses the publisher from here on.
        nonisolated(unsafe) let publisher = bus.publisher
        let topic = bus.topic
        Thread {
            for _ in 0..<count { try? publisher.publish(payload: payload, schema: TouchFrame.schema, on: topic) }
            sent.signal()
        }.start()

        // The owner pauses while the warden takes, until the publisher is done (it is not, while
        // it waits for the owner) or a deadline.
        let pauseEnds = Clock.monotonicNs() + 1_000_000_000
        var finished = false
        while !finished, Clock.monotonicNs() < pauseEnds {
            _ = bus.subscriber.budget.look(asIfMemoryGrew: 150 << 20)
            finished = sent.wait(timeout: .now() + .milliseconds(1)) == .success
        }
        #expect(bus.subscriber.messagesTakenByBudget > 0)

        var sequence: [UInt64] = []
        try waitUntil("the publisher's last message", seconds: 30) {
            // Read to the end after the publisher finished, nothing more is coming.
            finished = finished || sent.wait(timeout: .now()) == .success
            let publisherDone = finished
            while let delivery = try bus.subscriber.receive(timeoutMs: 10) { sequence.append(delivery.envelope.seq) }
            return publisherDone
        }
        #expect(sequence == Array(1...UInt64(count)))
        #expect(bus.subscriber.statistics.value(.gaps) == 0)
        #expect(!bus.subscriber.statistics.reasons.contains { $0.0 == "receive_over_budget" })
    }

    /// Large messages queued behind a mark's worth of small ones grow memory past the whole
    /// budget while the warden's queue is full by count: the bytes decide then, so libzmq's queue
    /// cannot hold a mark's worth of large messages beyond the budget.
    @Test func largeMessagesBehindAFullCountAreTakenOnceMemoryGrewByTheWholeBudget() throws {
        let bus = try InprocBus(name: "look-past-count", budgetBytes: 1 << 20, highWaterMark: 4)
        defer { bus.close() }
        let small = [UInt8](repeating: 1, count: 64)
        let large = [UInt8](repeating: 2, count: 300 << 10)
        for _ in 0..<4 { try bus.publisher.publish(payload: small, schema: TouchFrame.schema, on: bus.topic) }
        _ = bus.subscriber.budget.look(asIfMemoryGrew: 3 << 18)
        #expect(bus.subscriber.messagesTakenByBudget == 4, "the small ones, up to the mark")
        // (The process's warden may look meanwhile, with the memory it sees: it takes no more.)
        for _ in 0..<4 { try bus.publisher.publish(payload: large, schema: TouchFrame.schema, on: bus.topic) }
        _ = bus.subscriber.budget.look(asIfMemoryGrew: 2 << 20)
        #expect(bus.subscriber.messagesTakenByBudget == 8, "the whole budget: the large ones too")
        #expect(bus.subscriber.statistics.reasons.first { $0.0 == "receive_over_budget" }?.1 == 1)
        var sizes: [Int] = []
        while let delivery = try bus.subscriber.receive(timeoutMs: 0) { sizes.append(delivery.payload.count) }
        #expect(sizes == Array(repeating: 64, count: 4) + Array(repeating: 300 << 10, count: 3))
    }
}

/// A subscriber bound on `inproc` with its budget and high-water mark, and a publisher joined to it.
private struct InprocBus {
    let context: ZMQContext
    let subscriber: Subscriber
    let publisher: Publisher
    let topic: Topic

    init(name: String, budgetBytes: Int, highWaterMark: Int32) throws {
        self.context = try ZMQContext()
        let endpoint = "inproc://\(name)"
        self.subscriber = try Subscriber(
            context: self.context, endpoint: endpoint, prefixes: ["b/"], receiveHighWaterMark: highWaterMark,
            receiveBudgetBytes: budgetBytes, bind: true)
        self.publisher = try Publisher(
            context: self.context, endpoint: endpoint, name: "b", sendHighWaterMark: highWaterMark, joinGraceMs: 0)
        self.topic = try Topic("b/x/")
        try waitUntil("the subscription") { [self] in
            _ = try self.subscriber.receive(timeoutMs: 0)
            return try self.publisher.waitForSubscriber(matching: self.topic, timeoutMs: 10)
        }
        // Read until it would block: the owner's wait is armed.
        while try self.subscriber.receiveQueued().received {}
    }

    func close() {
        self.subscriber.socket.close()
        self.publisher.socket.close()
    }
}
