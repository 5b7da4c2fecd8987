import Bus
import BusSchema
import BusTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

/// The wake-up of a subscriber whose byte budget's warden shares its socket: whatever the warden
/// reads off the socket consumes libzmq's signal on `ZMQ_FD`, so an owner waiting in `poll` must
/// wake for the warden's queue as it would for the socket, or it waits for a message it holds.
@Suite struct ReceiveBudgetWakeupTests {
    /// Rounds of publish-N / receive-N, N and sizes random, with random pauses on both sides and
    /// the process's resident memory swinging by 2 MiB (the warden's trigger with a 1 MiB budget)
    /// while two threads keep both cores busy. The owner waits in `poll` with a deadline; a wait
    /// that ends with nothing signalled while a message is there is a lost wake-up.
    @Test func anOwnerWaitingOnItsSubscriberWakesForEveryMessageWhileTheWardenTakesSomeUnderLoad() throws {
        let directory = try ScratchDirectory.make("uibus-budget-wakeup")
        defer { ScratchDirectory.remove(directory) }
        let context = try ZMQContext()
        let endpoint = "ipc://\(directory)/sub"
        let subscriber = try Subscriber(
            context: context, endpoint: endpoint, prefixes: ["w/"], receiveBudgetBytes: 1 << 20, bind: true)
        defer { subscriber.socket.close() }
        let publisher = Box(try Publisher(context: context, endpoint: endpoint, name: "w", joinGraceMs: 0))
        defer { publisher.value.socket.close() }
        let topic = try Topic("w/x/")
        try waitUntil("the subscription") {
            _ = try subscriber.receive(timeoutMs: 0)
            return try publisher.value.waitForSubscriber(matching: topic, timeoutMs: 10)
        }

        let load = Load()
        defer { load.finish() }
        let rounds = 200
        let go = DispatchSemaphore(value: 0)
        let counts = (0..<rounds).map { _ in Int.random(in: 1...8) }
        let sending = Thread {
            // At most 8 × 64 KiB in flight: within the budget, so nothing may be dropped.
            for count in counts {
                go.wait()
                for _ in 0..<count {
                    for _ in 0..<Int.random(in: 0..<4) { sched_yield() }
                    let payload = [UInt8](repeating: 1, count: Int.random(in: 1...(64 << 10)))
                    try? publisher.value.publish(payload: payload, schema: TouchFrame.schema, on: topic)
                }
            }
        }
        sending.start()

        var poller = Poller()
        let index = try poller.add(subscriber.socket)
        var sequence: [UInt64] = []
        var pausedRounds = 0
        for count in counts {
            let expected = sequence.count + count
            go.signal()
            if Bool.random() {
                // The owner is busy elsewhere after reading to the end: the warden may take the
                // messages meanwhile, consuming libzmq's signal the owner is entitled to wait for.
                pausedRounds += 1
                let taken = subscriber.messagesTakenByBudget
                let until = Clock.monotonicNs() + 40_000_000
                while subscriber.messagesTakenByBudget == taken, Clock.monotonicNs() < until { sched_yield() }
            }
            // The owner read until it would block at the end of the last round, so it waits first.
            while sequence.count < expected {
                // A deadline, not a pace: the message is on its way and wakes the owner at once.
                let signalled = try poller.poll(timeoutMs: 10_000) > 0 && poller.isReadable(index)
                let before = sequence.count
                while case (true, let delivery) = try subscriber.receiveQueued() {
                    if let delivery { sequence.append(delivery.envelope.seq) }
                }
                guard signalled || sequence.count == before else {
                    Issue.record("a lost wake-up: 10 s of waiting with \(sequence.count - before) held")
                    return
                }
                guard signalled else {
                    Issue.record("nothing arrived within 10 s after \(sequence.count) messages")
                    return
                }
            }
        }

        #expect(sequence.count == counts.reduce(0, +))
        #expect(zip(sequence, sequence.dropFirst()).allSatisfy { $1 == $0 + 1 }, "in order, none missing")
        #expect(subscriber.statistics.value(.gaps) == 0)
        #expect(subscriber.statistics.reasons.allSatisfy { $0.0 != "receive_over_budget" })
        #expect(pausedRounds > 0)
        #expect(subscriber.messagesTakenByBudget > 0, "the warden took messages, so its wake-up was exercised")
    }
}

/// A value handed to another thread that alone uses it from then on.
private final class Box<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Two threads that keep both cores busy, and one that maps 2 MiB, touches it and unmaps it over
/// and over, so the process's resident memory swings past a 1 MiB budget's threshold.
private final class Load: @unchecked Sendable {
    private let stop = Atomic<Bool>(false)
    private let done = DispatchGroup()

    init() {
        for _ in 0..<2 { self.run { _ = (0..<1000).reduce(0, &+) } }
        self.run {
            let size = 2 << 20
            guard let region = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                region != MAP_FAILED
            else { return }
            memset(region, 1, size)
            for _ in 0..<Int.random(in: 0..<8) { sched_yield() }
            munmap(region, size)
        }
    }

    private func run(_ step: @escaping @Sendable () -> Void) {
        self.done.enter()
        Thread { [self] in
            while !self.stop.load(ordering: .relaxed) { step() }
            self.done.leave()
        }.start()
    }

    func finish() {
        self.stop.store(true, ordering: .relaxed)
        self.done.wait()
    }
}
