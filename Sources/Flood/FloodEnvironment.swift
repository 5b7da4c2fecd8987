import Bus

/// What every flood runs in: the bus, the ZeroMQ context its sockets share and the progress line,
/// with the two phases every flood has: a baseline of the services' health, then the measured run.
struct FloodEnvironment {
    /// The publisher name every flood stamps.
    static let publisherName = "bus-flood"

    let context: ZMQContext
    let config: BusConfig
    let progress: ProgressLine

    /// Receives into `trial` until each of `services` has reported health once (3.5 s at most):
    /// the baseline its counts grow from. `meanwhile` runs after each wait, to refuse what would
    /// spoil the counts.
    ///
    /// - Throws: ``FloodError`` naming the silent services and what to start (`hint`).
    func awaitFirstReports<Trial: FloodTrial>(
        of services: [String], into trial: inout Trial, subscriber: Subscriber, hint: String,
        meanwhile: () throws -> Void = {}
    ) throws {
        let deadline = Clock.monotonicNs() + 3_500_000_000
        while !services.allSatisfy(trial.reports.has) {
            guard Clock.monotonicNs() < deadline else {
                let missing = services.filter { !trial.reports.has($0) }
                throw FloodError(
                    "no health report from \(missing.joined(separator: " or ")) on sys/health/ within 3.5 s; "
                        + "start \(hint) first")
            }
            if let delivery = try subscriber.receive(timeoutMs: 50) {
                trial.handle(delivery, subscriber: subscriber, startNs: 0)
            }
            try meanwhile()
        }
    }

    /// Sends `messages` at `plan`'s rate from a publisher of its own stamping `epoch`, receiving
    /// into `trial` until it settles, the sender fails, or `plan.settleSeconds` passed after the end.
    ///
    /// - Returns: how many messages were sent, in how many seconds.
    /// - Throws: what the sender threw.
    func measure<Trial: FloodTrial, Messages: FloodMessages>(
        _ trial: inout Trial, subscriber: Subscriber, plan: some FloodPlan, messages: Messages, epoch: UInt64
    ) throws -> (sent: UInt64, seconds: Double) {
        let count = plan.count
        let sender = FloodSender(
            context: self.context, endpoint: self.config.publish, name: Self.publisherName, epoch: epoch,
            rate: plan.rate, count: count, messages: messages)
        while true {
            if let delivery = try subscriber.receive(timeoutMs: 20) {
                trial.handle(delivery, subscriber: subscriber, startNs: sender.startNs)
            }
            self.progress.update(trial.progress(sent: sender.sent, of: count))
            let end = sender.endNs
            guard end != 0 else { continue }
            if sender.hasFailed || trial.isSettled(sent: UInt64(sender.sent), since: end)
                || Clock.monotonicNs() > end + UInt64(plan.settleSeconds * 1e9)
            {
                break
            }
        }
        self.progress.finish()
        try sender.wait()
        return (UInt64(sender.sent), Double(sender.endNs - sender.startNs) / 1e9)
    }
}
