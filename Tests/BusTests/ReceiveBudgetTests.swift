import Bus
import BusSchema
import BusTestSupport
import Foundation
import Testing

@Suite struct ReceiveBudgetTests {
    /// A subscriber whose owner reads nothing while 1 MB messages arrive: the warden holds at
    /// most the budget and counts the rest; once the owner reads, what was held arrives in order,
    /// and what was dropped is what the sequence shows missing.
    @Test func aSubscriberThatDoesNotReadHoldsItsBudgetInOrderAndCountsWhatItDropped() throws {
        let directory = try ScratchDirectory.make("uibus-receive-budget")
        defer { ScratchDirectory.remove(directory) }
        let context = try ZMQContext()
        let endpoint = "ipc://\(directory)/sub"
        let budget = 4 << 20
        let subscriber = try Subscriber(
            context: context, endpoint: endpoint, prefixes: ["big/"], maximumMessageSize: 2 << 20,
            receiveBudgetBytes: budget, bind: true)
        defer { subscriber.socket.close() }
        let publisher = try Publisher(context: context, endpoint: endpoint, name: "big", joinGraceMs: 0)
        defer { publisher.socket.close() }
        let topic = try Topic("big/x/")
        // libzmq attaches a bound socket's new connection when that socket is next used: the
        // owner reads (nothing) until the publisher has the subscription, and then stops.
        try waitUntil("the subscription") {
            _ = try subscriber.receive(timeoutMs: 0)
            return try publisher.waitForSubscriber(matching: topic, timeoutMs: 10)
        }

        let payload = [UInt8](repeating: 7, count: 1 << 20)
        let sent = 40
        for _ in 0..<sent { try publisher.publish(payload: payload, schema: TouchFrame.schema, on: topic) }
        let dropped = { Int(subscriber.statistics.reasons.first { $0.0 == "receive_over_budget" }?.1 ?? 0) }
        // 40 MiB to an owner that reads nothing, 4 MiB held: at least 37 dropped once all arrived.
        try waitUntil("the drops counted", seconds: 30) { dropped() >= sent - budget / (1 << 20) }

        // The last of the 40 may still be on its way (in libzmq's pipe, not yet seen by the warden):
        // the owner reads until every message is either delivered or counted as dropped.
        var sequence: [UInt64] = []
        try waitUntil("every message delivered or counted as dropped", seconds: 30) {
            while let delivery = try subscriber.receive(timeoutMs: 0) { sequence.append(delivery.envelope.seq) }
            return sequence.count + dropped() >= sent
        }
        #expect(!sequence.isEmpty, "what was held arrives")
        #expect(sequence == sequence.sorted(), "in order")
        #expect(sequence.count + dropped() == sent)
        // The owner reads on: a message published now arrives.
        try publisher.publish(payload: [1], schema: TouchFrame.schema, on: topic)
        var late: Delivery?
        try waitUntil("a later message") {
            late = try subscriber.receive(timeoutMs: 10)
            return late != nil
        }
        #expect(late?.payload == [1])
        #expect(subscriber.statistics.value(.gaps) == UInt64(dropped()), "each drop shows as one gap")
    }

    /// A tool or service exits right after its scope ends, and `zmq_ctx_term` there is what waits
    /// (up to the linger) for what it last published to leave: a context kept alive past that
    /// scope is never terminated, and its last message is lost under load. A subscriber's budget
    /// stays with the warden until the warden's next look, so it must not keep the socket (and
    /// through it the context) alive.
    @Test func nothingOfASubscribersBudgetKeepsItsContextAliveOnceTheSubscriberIsGone() throws {
        weak var released: ZMQContext?
        do {
            let context = try ZMQContext()
            released = context
            let subscriber = try Subscriber(
                context: context, endpoint: "inproc://receive-budget-release", prefixes: ["x/"], bind: true)
            #expect(try subscriber.receive(timeoutMs: 0) == nil)
        }
        #expect(released == nil, "the context was terminated when its subscriber went")
    }
}
