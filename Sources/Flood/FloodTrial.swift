import Bus

/// What a flood is asked to do, whatever it sends: how fast, how long, how long to wait after.
protocol FloodPlan {
    /// Messages per second over all senders.
    var rate: Double { get }
    var seconds: Double { get }
    /// How long to wait after the last message for the services to account for everything.
    var settleSeconds: Double { get }
}

extension FloodPlan {
    /// How many messages the flood sends (one at least).
    var count: Int { max(1, Int((self.rate * self.seconds).rounded())) }
}

/// The counts of one flood as its subscriber receives them, and when they are complete.
protocol FloodTrial {
    var reports: ServiceReports { get }

    /// Counts one delivery; `startNs` is when the sender started (0 before).
    mutating func handle(_ delivery: Delivery, subscriber: Subscriber, startNs: UInt64)

    /// Whether everything sent by the time the sender ended at `endNs` is accounted for, or
    /// nothing moves any more (what is missing by now stays missing).
    func isSettled(sent: UInt64, since endNs: UInt64) -> Bool

    /// The progress line while `sent` of `count` messages are out.
    func progress(sent: Int, of count: Int) -> String
}
