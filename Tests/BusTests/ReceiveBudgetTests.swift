import Bus
import BusSchema
import BusTestSupport
import Foundation
import Testing

@Suite struct ReceiveBudgetTests {
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
