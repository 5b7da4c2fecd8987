import Bus
import BusSchema
import DemoReport
import Glibc
import ServiceSupport

/// What `bus-flood memo` is asked to do.
public struct MemoFloodPlan: FloodPlan, Sendable {
    public var clients: Int
    /// Commands per second over all clients.
    public var rate: Double
    public var seconds: Double
    /// How long to wait after the last command for its ack.
    public var settleSeconds = 5.0
    /// Whether the memos created stay on the board (else they are trashed at the end).
    public var keep = false

    public init(clients: Int, rate: Double, seconds: Double) {
        self.clients = clients
        self.rate = rate
        self.seconds = seconds
    }
}

/// The commands of a memo flood: `create`s from clients `flood-<pid>-0`, `flood-<pid>-1`, … in turn, each
/// `cmd_id` carrying the flood's epoch and the command's send time, so its ack needs no table.
struct MemoFloodCommands: FloodMessages {
    let clients: Int
    let epoch: UInt64
    let firstTopic: Topic

    init(clients: Int, epoch: UInt64) throws {
        self.clients = clients
        self.epoch = epoch
        self.firstTopic = try Topic("memo/cmd/")
    }

    /// A client of the flood's own, so that acks to anyone else's are never counted.
    static func client(_ index: Int) -> String { "flood-\(getpid())-\(index)" }

    mutating func publish(_ index: Int, with publisher: Publisher) throws {
        let client = Self.client(index % self.clients)
        let command = MemoCommand {
            $0.cmdId = "flood-\(self.epoch)-\(index)-\(Clock.monotonicNs())"
            $0.client = client
            $0.op = .create
            $0.text = "flood \(index)"
            $0.x = Double(index % 40) * 10
            $0.y = Double(index % 30) * 10
            $0.width = 160
            $0.height = 120
        }
        try publisher.publish(command, on: self.firstTopic)
    }

    /// The send time in a `cmd_id` of this flood, or nil for another flood's.
    func sentNs(of cmdId: String) -> UInt64? {
        let parts = cmdId.split(separator: "-")
        guard parts.count == 4, parts[0] == "flood", parts[1] == "\(self.epoch)" else { return nil }
        return UInt64(parts[3])
    }
}

/// `bus-flood memo`: `memo.command`s to a running `memo-store`, acks measured.
///
/// Every command is a `create` (so each is applied and acknowledged on its own). Latency is from
/// the command's send time, carried in its `cmd_id`, to its ack's arrival. Loss is counted from
/// sequence gaps: commands the store never saw (its health), acks the flood never saw (the ack
/// streams' sequence numbers).
public enum MemoFlood {
    public static let store = "memo-store"

    /// Floods once at `plan.rate`.
    ///
    /// - Throws: ``FloodError`` if the store never reports health or never subscribes.
    static func run(_ plan: MemoFloodPlan, in environment: FloodEnvironment) throws -> FloodResult {
        let prefixes = (0..<plan.clients).map { "memo/ack/\(MemoFloodCommands.client($0))/" }
        let subscriber = try Subscriber(
            context: environment.context, endpoint: environment.config.subscribe,
            prefixes: prefixes + ["sys/health/\(Self.store)/"])
        defer { subscriber.socket.close() }
        var trial = Trial(commands: try MemoFloodCommands(clients: plan.clients, epoch: EnvelopeStamper.newEpoch()))
        try environment.awaitFirstReports(of: [Self.store], into: &trial, subscriber: subscriber, hint: Self.store)
        let epoch = trial.commands.epoch
        let (sent, seconds) = try environment.measure(
            &trial, subscriber: subscriber, plan: plan, messages: trial.commands, epoch: epoch)
        let hops = trial.hops(sent: sent)
        var main = HopResult(
            hop: "bus-flood → memo-store → bus-flood (command → ack)", countedBy: "bus-flood", sent: sent,
            delivered: trial.acks.received, lost: hops[0].lost + trial.acks.lost)
        let latency = LatencyHistogram(latenciesUs: trial.acks.latenciesUs)
        main.latency = latency
        var result = FloodResult(
            mode: "memo", main: main, latency: latency, latencyPath: "command sent → its ack received",
            hops: hops, seconds: seconds, targetRate: plan.rate)
        result.details = [
            "clients": Value(UInt64(plan.clients)), "acked": Value(trial.acks.received),
            "unacked": .int(Int64(sent) - Int64(trial.acks.received)),
        ]
        if !plan.keep {
            let removed = try Self.remove(trial.created, in: environment, subscriber: subscriber, epoch: epoch)
            result.details["removed"] = Value(UInt64(removed))
        }
        return result
    }

    /// The counts of one memo flood as they come in.
    private struct Trial: FloodTrial {
        let commands: MemoFloodCommands
        var acks = HopTally()
        /// The memos the flood created, removed at the end unless kept.
        var created: [String] = []
        var reports = ServiceReports()

        mutating func handle(_ delivery: Delivery, subscriber: Subscriber, startNs: UInt64) {
            let now = Clock.monotonicNs()
            if delivery.topic.hasPrefix("memo/ack/") {
                guard let ack = subscriber.decode(delivery, as: MemoAck.self),
                    let sent = self.commands.sentNs(of: ack.cmdId)
                else { return }
                if let memo = ack.memoId { self.created.append(memo) }
                self.acks.record(delivery.sequence, size: delivery.payload.count, latencyNs: Int64(now) - Int64(sent))
            } else if let health = subscriber.decode(delivery, as: Health.self) {
                self.reports.record(
                    .init(health: health, receivedNs: now, seenReceived: self.acks.received, seenLost: self.acks.lost))
            }
        }

        func progress(sent: Int, of count: Int) -> String {
            "memo: sent \(sent)/\(count)  acked \(self.acks.received)  lost \(self.acks.lost)"
        }

        /// Whether the store reported since the flood ended at `endNs` and every command is
        /// acknowledged and every hop balances, or its counts did not move between its last two reports.
        func isSettled(sent: UInt64, since endNs: UInt64) -> Bool {
            guard self.reports.reported(MemoFlood.store, after: endNs) else { return false }
            if self.acks.received == sent && self.hops(sent: sent).allSatisfy({ $0.unaccounted == 0 }) { return true }
            return self.reports.isStill(MemoFlood.store, since: endNs) {
                $0.extra("commands") + $0.health.counters.gaps
            }
        }

        func hops(sent: UInt64) -> [HopResult] {
            let reports = self.reports
            let store = MemoFlood.store
            let received = HopResult(
                hop: "bus-flood → memo-store (memo/cmd/)", countedBy: "health of memo-store", sent: sent,
                delivered: reports.growth(store) { $0.extra("commands") },
                lost: reports.growth(store) { $0.health.counters.gaps })
            var answered = HopResult(
                hop: "memo-store → bus-flood (memo/ack/)", countedBy: "bus-flood",
                sent: reports.growth(store) { $0.extra("commands") - $0.extra("unanswerable") },
                delivered: reports.growth(store) { $0.seenReceived },
                lost: reports.growth(store) { $0.seenLost })
            answered.meanBytes = self.acks.meanBytes
            return [received, answered]
        }
    }

    /// Removes the memos the flood created, from a client of its own: each is trashed, then taken
    /// out of the trash alone (`empty_trash` with its `memo_id`, so nobody else's trash is
    /// emptied). Waits for the acks (10 s at most): the board is left as the flood found it.
    ///
    /// - Returns: how many the store confirmed removed.
    private static func remove(
        _ memos: [String], in environment: FloodEnvironment, subscriber: Subscriber, epoch: UInt64
    ) throws -> Int {
        guard !memos.isEmpty else { return 0 }
        let client = MemoFloodCommands.client(0)
        let publisher = try Publisher(
            context: environment.context, endpoint: environment.config.publish, name: FloodEnvironment.publisherName)
        defer { publisher.socket.close() }
        let topic = try Topic("memo/cmd/")
        _ = try publisher.waitForSubscriber(matching: topic, timeoutMs: 2000)
        var pending = Set<String>()
        for (index, memo) in memos.enumerated() {
            // One publisher on one topic: the store applies the trash before the removal.
            try publisher.publish(
                MemoCommand {
                    $0.cmdId = "flood-trash-\(epoch)-\(index)"
                    $0.client = client
                    $0.op = .trash
                    $0.memoId = memo
                },
                on: topic)
            let removal = "flood-remove-\(epoch)-\(index)"
            pending.insert(removal)
            try publisher.publish(
                MemoCommand {
                    $0.cmdId = removal
                    $0.client = client
                    $0.op = .emptyTrash
                    $0.memoId = memo
                }, on: topic)
        }
        let deadline = Clock.monotonicNs() + 10_000_000_000
        var confirmed = 0
        while !pending.isEmpty, Clock.monotonicNs() < deadline {
            guard let delivery = try subscriber.receive(timeoutMs: 100), delivery.topic.hasPrefix("memo/ack/"),
                let ack = subscriber.decode(delivery, as: MemoAck.self), pending.remove(ack.cmdId) != nil
            else { continue }
            if ack.status == .ok { confirmed += 1 }
        }
        if confirmed < memos.count {
            Log.error("bus-flood", "removed \(confirmed) of the \(memos.count) memos it created (the rest: no ack)")
        }
        return confirmed
    }
}
