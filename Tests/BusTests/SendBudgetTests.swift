import Bus
import BusSchema
import BusTestSupport
import CZeroMQ
import Foundation
import Testing

@Suite struct SendBudgetTests {
    @Test func aPublisherWhosePeerStopsReadingQueuesNoMoreThanItsBudgetAndCountsWhatItRefused() throws {
        let directory = try ScratchDirectory.make("uibus-budget")
        defer { ScratchDirectory.remove(directory) }
        let context = try ZMQContext()
        let endpoint = "ipc://\(directory)/in"
        // A proxy's input that reads nothing until told to, with the smallest queue of its own;
        // it subscribes before anyone connects, as the proxy does.
        let input = try ZMQSocket(context, .xsub)
        defer { input.close() }
        try input.setOption(ZMQ_RCVHWM, 1)
        try input.bind(endpoint)
        try input.send([1] + Array("big/".utf8), more: false)
        let budget = 8 << 20
        let publisher = try Publisher(
            context: context, endpoint: endpoint, name: "big", joinGraceMs: 0, sendBudgetBytes: budget)
        let topic = try Topic("big/x/")
        // libzmq attaches a bound socket's new connection when that socket is next used.
        var frames = Frames()
        try waitUntil("the subscription") {
            _ = try input.receive(into: &frames, dontWait: true)
            return try publisher.waitForSubscriber(matching: topic, timeoutMs: 10)
        }

        let payload = [UInt8](repeating: 7, count: 1 << 20)
        let sent = 64
        for _ in 0..<sent {
            try publisher.publish(payload: payload, schema: TouchFrame.schema, on: topic)
            #expect(publisher.queuedBytes <= budget)
        }
        let dropped = Int(publisher.statistics.reasons.first { $0.0 == "send_over_budget" }?.1 ?? 0)
        // 64 MiB offered to a queue of 8 MiB that nobody empties: most of it is refused.
        #expect(dropped >= sent - 2 * (budget >> 20))
        #expect(publisher.statistics.value(.sent) == UInt64(sent - dropped))

        // The input reads again: what was queued arrives, and the budget empties.
        var received = 0
        try waitUntil("the queue drained", seconds: 30) {
            while try input.receive(into: &frames, dontWait: true) { received += 1 }
            return publisher.queuedBytes == 0 && received == sent - dropped
        }
    }
}
