import BusSchema

/// Messages a new publisher was asked to send before it learned what the bus subscribes to.
///
/// An XPUB drops a message that no subscription covers, and right after connecting it knows
/// none: the proxy's XSUB sends its whole cached subscription set when the connection is made,
/// but that takes a moment to arrive. Without this buffer, whatever a process publishes in that
/// moment (a service's initial states, published before its loop runs) is lost to subscribers
/// that were there all along, and they see a restarted service's new epoch begin with a gap.
/// The messages wait here, in order, for the first subscription notices, or for the grace
/// period to end on a bus nobody subscribes to, and are sent then.
struct JoinBuffer {
    /// After this (``Clock/monotonicNs()``) the publisher stops waiting for subscriptions.
    let deadlineNs: UInt64
    /// At most this many messages are held; more end the wait early.
    let limit: Int
    private(set) var messages: [(topic: Topic, header: [UInt8], payload: [UInt8])] = []

    init(graceMs: Int, limit: Int) {
        self.deadlineNs = Clock.monotonicNs() + UInt64(max(graceMs, 0)) * 1_000_000
        self.limit = limit
    }

    var isFull: Bool { self.messages.count >= self.limit }

    /// Keeps copies of one message's frames.
    mutating func hold(_ topic: Topic, header: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer) {
        self.messages.append((topic, Array(header), Array(payload)))
    }
}
