import Bus
import BusSchema
import Foundation
import Glibc
import Synchronization

/// What a flood publishes: message `index` of the run, through the sender's own publisher.
public protocol FloodMessages: Sendable {
    /// The topic whose subscription the sender waits for before the first message.
    var firstTopic: Topic { get }
    /// Publishes message `index`; called from the sending thread only, in index order.
    mutating func publish(_ index: Int, with publisher: Publisher) throws
}

/// Publishes a flood on its own thread, each message on its absolute deadline (``SendSchedule``),
/// while the caller's thread receives and measures.
///
/// The sender's publisher lives on the sending thread; the caller sees progress through atomics.
/// Between `start` and ``wait()``, only the sending thread touches `messages` and `error`.
public final class FloodSender<Messages: FloodMessages>: @unchecked Sendable {
    private let context: ZMQContext
    private let endpoint: String
    private let name: String
    private let epoch: UInt64
    private let rate: Double
    private let count: Int
    private var messages: Messages
    private var error: (any Error)?
    private let sentCount = Atomic<Int>(0)
    private let startedNs = Atomic<UInt64>(0)
    private let finishedNs = Atomic<UInt64>(0)
    private let stopRequested = Atomic<Bool>(false)
    private let failedFlag = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    /// Starts sending `count` messages at `rate` per second, after the first subscription to
    /// ``FloodMessages/firstTopic`` (at most `subscriberWaitMs`) reached the new publisher, which is
    /// named `name` and stamps `epoch`, so the caller can tell its messages from others'.
    public init(
        context: ZMQContext, endpoint: String, name: String, epoch: UInt64, rate: Double, count: Int,
        messages: Messages, subscriberWaitMs: Int = 3000
    ) {
        self.context = context
        self.endpoint = endpoint
        self.name = name
        self.epoch = epoch
        self.rate = rate
        self.count = count
        self.messages = messages
        let thread = Thread { [self] in
            do {
                try self.send(subscriberWaitMs: subscriberWaitMs)
            } catch {
                self.error = error
                self.failedFlag.store(true, ordering: .releasing)
            }
            self.finishedNs.store(max(Clock.monotonicNs(), 1), ordering: .releasing)
            self.done.signal()
        }
        thread.name = "flood-sender"
        thread.start()
    }

    /// Messages published so far.
    public var sent: Int { self.sentCount.load(ordering: .acquiring) }
    /// When the first message was due (0 until the sender started).
    public var startNs: UInt64 { self.startedNs.load(ordering: .acquiring) }
    /// When the sender ended (0 while it runs).
    public var endNs: UInt64 { self.finishedNs.load(ordering: .acquiring) }
    public var isFinished: Bool { self.endNs != 0 }
    /// Whether the sender stopped on an error (``wait()`` throws it).
    public var hasFailed: Bool { self.failedFlag.load(ordering: .acquiring) }

    /// Asks the sender to stop before its last message.
    public func stop() {
        self.stopRequested.store(true, ordering: .relaxed)
    }

    /// Waits for the sending thread to end.
    ///
    /// - Throws: what the sender threw (a publisher that could not connect or send).
    public func wait() throws {
        self.done.wait()
        self.done.signal()
        if let error = self.error { throw error }
    }

    private func send(subscriberWaitMs: Int) throws {
        let publisher = try Publisher(
            context: self.context, endpoint: self.endpoint, name: self.name, epoch: self.epoch)
        defer { publisher.socket.close() }
        if try !publisher.waitForSubscriber(matching: self.messages.firstTopic, timeoutMs: subscriberWaitMs) {
            throw FloodError("no subscriber for \(self.messages.firstTopic) after \(subscriberWaitMs) ms")
        }
        let schedule = SendSchedule(startNs: Clock.monotonicNs(), ratePerSecond: self.rate, count: self.count)
        self.startedNs.store(schedule.startNs, ordering: .releasing)
        var index = 0
        while index < self.count, !self.stopRequested.load(ordering: .relaxed) {
            let due = schedule.dueCount(at: Clock.monotonicNs())
            while index < due {
                try self.messages.publish(index, with: publisher)
                index += 1
            }
            self.sentCount.store(index, ordering: .releasing)
            if index < self.count { Self.sleep(until: schedule.deadlineNs(of: index)) }
        }
    }

    /// Sleeps until an absolute CLOCK_MONOTONIC time. The corresponding C function is
    /// `clock_nanosleep` with `TIMER_ABSTIME`, so an interrupted or late sleep never shifts later deadlines.
    private static func sleep(until deadlineNs: UInt64) {
        var deadline = timespec(tv_sec: Int(deadlineNs / 1_000_000_000), tv_nsec: Int(deadlineNs % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
    }
}

/// A flood that cannot run or finish: what went wrong, in words a user can act on.
public struct FloodError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
