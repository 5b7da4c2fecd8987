import Bus
import BusSchema
import DemoReport
import Glibc
import ServiceSupport

/// What `bus-flood memo` is asked to do.
public struct MemoFloodPlan: Sendable {
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
        let command = MemoCommand(
            cmdId: "flood-\(self.epoch)-\(index)-\(Clock.monotonicNs())", client: client, op: .create,
            text: "flood \(index)", x: Double(index % 40) * 10, y: Double(index % 30) * 10, width: 160, height: 120)
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
public final class MemoFlood {
    public static let store = "memo-store"

    private let context: ZMQContext
    private let config: BusConfig
    private let progress: ProgressLine

    public init(context: ZMQContext, config: BusConfig, progress: ProgressLine) {
        self.context = context
        self.config = config
        self.progress = progress
    }

    /// Floods once at `plan.rate`.
    ///
    /// - Throws: ``FloodError`` if the store never reports health or never subscribes.
    public func run(_ plan: MemoFloodPlan) throws -> FloodResult {
        let prefixes = (0..<plan.clients).map { "memo/ack/\(MemoFloodCommands.client($0))/" }
        let subscriber = try Subscriber(
            context: self.context, endpoint: self.config.subscribe, prefixes: prefixes + ["sys/health/\(Self.store)/"])
        defer { subscriber.socket.close() }
        let commands = try MemoFloodCommands(clients: plan.clients, epoch: EnvelopeStamper.newEpoch())
        var acks = HopTally()
        var created: [String] = []
        var reports = ServiceReports()
        let baselineDeadline = Clock.monotonicNs() + 3_500_000_000
        func handle(_ delivery: Delivery) {
            let now = Clock.monotonicNs()
            if delivery.topic.hasPrefix("memo/ack/") {
                guard let ack = subscriber.decode(delivery, as: MemoAck.self), let sent = commands.sentNs(of: ack.cmdId)
                else { return }
                if let memo = ack.memoId { created.append(memo) }
                acks.record(
                    delivery.sequence, size: delivery.payload.count,
                    latencyNs: Int64(now) - Int64(sent))
            } else if let health = subscriber.decode(delivery, as: Health.self) {
                reports.record(.init(health: health, receivedNs: now, seenReceived: acks.received, seenLost: acks.lost))
            }
        }
        while !reports.has(Self.store) {
            guard Clock.monotonicNs() < baselineDeadline else {
                throw FloodError("no health report from memo-store on sys/health/ within 3.5 s; start memo-store first")
            }
            if let delivery = try subscriber.receive(timeoutMs: 50) { handle(delivery) }
        }
        let count = max(1, Int((plan.rate * plan.seconds).rounded()))
        let sender = FloodSender(
            context: self.context, endpoint: self.config.publish, name: TouchFlood.name, epoch: commands.epoch,
            rate: plan.rate, count: count, messages: commands)
        func hops(sent: UInt64) -> [HopResult] {
            let received = HopResult(
                hop: "bus-flood → memo-store (memo/cmd/)", countedBy: "health of memo-store", sent: sent,
                delivered: reports.growth(Self.store) { $0.extra("commands") },
                lost: reports.growth(Self.store) { $0.health.counters.gaps })
            var answered = HopResult(
                hop: "memo-store → bus-flood (memo/ack/)", countedBy: "bus-flood",
                sent: reports.growth(Self.store) { $0.extra("commands") - $0.extra("unanswerable") },
                delivered: reports.growth(Self.store) { $0.seenReceived },
                lost: reports.growth(Self.store) { $0.seenLost })
            answered.meanBytes = acks.meanBytes
            return [received, answered]
        }
        while true {
            if let delivery = try subscriber.receive(timeoutMs: 20) { handle(delivery) }
            self.progress.update("memo: sent \(sender.sent)/\(count)  acked \(acks.received)  lost \(acks.lost)")
            let end = sender.endNs
            if sender.hasFailed { break }
            guard end != 0, reports.reported(Self.store, after: end) else {
                if end != 0, Clock.monotonicNs() > end + UInt64(plan.settleSeconds * 1e9) { break }
                continue
            }
            let sent = UInt64(sender.sent)
            if acks.received == sent && hops(sent: sent).allSatisfy({ $0.unaccounted == 0 }) { break }
            let still = reports.isStill(Self.store, since: end) { $0.extra("commands") + $0.health.counters.gaps }
            if still || Clock.monotonicNs() > end + UInt64(plan.settleSeconds * 1e9) { break }
        }
        self.progress.finish()
        try sender.wait()
        let sent = UInt64(sender.sent)
        let hops = hops(sent: sent)
        var main = HopResult(
            hop: "bus-flood → memo-store → bus-flood (command → ack)", countedBy: "bus-flood", sent: sent,
            delivered: acks.received, lost: hops[0].lost + acks.lost)
        let latency = LatencyHistogram(latenciesUs: acks.latenciesUs)
        main.latency = latency
        var result = FloodResult(
            mode: "memo", main: main, latency: latency, latencyPath: "command sent → its ack received",
            hops: hops, seconds: Double(sender.endNs - sender.startNs) / 1e9, targetRate: plan.rate)
        result.details = [
            "clients": Value(UInt64(plan.clients)), "acked": Value(acks.received),
            "unacked": .int(Int64(sent) - Int64(acks.received)),
        ]
        if !plan.keep {
            result.details["removed"] = Value(
                UInt64(try self.remove(created, subscriber: subscriber, epoch: commands.epoch)))
        }
        return result
    }

    /// Removes the memos the flood created, from a client of its own: each is trashed, then taken
    /// out of the trash alone (`empty_trash` with its `memo_id`, so nobody else's trash is
    /// emptied). Waits for the acks (10 s at most): the board is left as the flood found it.
    ///
    /// - Returns: how many the store confirmed removed.
    private func remove(_ memos: [String], subscriber: Subscriber, epoch: UInt64) throws -> Int {
        guard !memos.isEmpty else { return 0 }
        let client = MemoFloodCommands.client(0)
        let publisher = try Publisher(context: self.context, endpoint: self.config.publish, name: TouchFlood.name)
        defer { publisher.socket.close() }
        let topic = try Topic("memo/cmd/")
        _ = try publisher.waitForSubscriber(matching: topic, timeoutMs: 2000)
        var pending = Set<String>()
        for (index, memo) in memos.enumerated() {
            // One publisher on one topic: the store applies the trash before the removal.
            try publisher.publish(
                MemoCommand(cmdId: "flood-trash-\(epoch)-\(index)", client: client, op: .trash, memoId: memo),
                on: topic)
            let removal = "flood-remove-\(epoch)-\(index)"
            pending.insert(removal)
            try publisher.publish(MemoCommand(cmdId: removal, client: client, op: .emptyTrash, memoId: memo), on: topic)
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
