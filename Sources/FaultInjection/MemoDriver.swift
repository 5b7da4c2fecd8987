import Bus
import BusSchema
import MemoStore

/// A memo client that is never killed: it sends `create` commands at a steady rate, keeps each
/// one until the store acknowledges it and resends it with the same `cmd_id` until then, so a
/// store that dies mid-batch loses nothing that was acknowledged and applies nothing twice.
///
/// Each memo's text carries a marker `#<cmd_id>#`; ``check(_:)`` counts the markers in the
/// database afterwards. Commands go out on absolute deadlines (no drift from late turns).
public final class MemoDriver {
    /// What the database says about the acknowledged commands.
    public struct Check: Sendable, Equatable {
        /// Acknowledged creates whose memo is not in the database (must be 0).
        public var lost: Int
        /// Markers found in more than one memo (must be 0).
        public var appliedTwice: Int
        /// Memos in the database that carry this driver's markers.
        public var stored: Int
    }

    public let client: String
    public private(set) var sent = 0
    public private(set) var resent = 0
    /// Acks whose status was neither `ok` nor `duplicate`.
    public private(set) var refused = 0
    /// First good ack of each command, by `cmd_id`.
    public private(set) var acknowledged: [String: MemoAck] = [:]
    private let publisher: Publisher
    public let acks: Subscriber
    private let topic: Topic
    private let intervalNs: UInt64
    private let retryNs: UInt64
    private let window: Int
    private var nextNumber = 1
    private var nextSendNs: UInt64?
    private var pending: [String: (command: MemoCommand, dueNs: UInt64)] = [:]

    /// - Parameters:
    ///   - ratePerSecond: new commands a second (resends come on top).
    ///   - retryMs: how long an unacknowledged command waits before it is sent again.
    ///   - window: at most this many commands unacknowledged; new ones wait.
    public init(
        context: ZMQContext, bus: BusConfig, client: String, ratePerSecond: Double, retryMs: Int = 300,
        window: Int = 64
    ) throws {
        self.client = client
        self.publisher = try Publisher(context: context, endpoint: bus.publish, name: client)
        self.acks = try Subscriber(
            context: context, endpoint: bus.subscribe, prefixes: ["memo/ack/\(client)/"],
            filter: SchemaFilter([MemoAck.self]))
        self.topic = try Topic("memo/cmd/")
        self.intervalNs = UInt64(1e9 / max(ratePerSecond, 0.001))
        self.retryNs = UInt64(retryMs) * 1_000_000
        self.window = window
    }

    /// Commands sent and not yet acknowledged.
    public var unacknowledged: Int { self.pending.count }

    /// Sends the commands that are due at `now`: new ones (unless `sending` is off) and resends.
    public func tick(nowNs now: UInt64, sending: Bool) throws {
        if sending {
            var due = self.nextSendNs ?? now
            while due <= now && self.pending.count < self.window {
                let cmdID = "\(self.client):\(self.nextNumber)"
                self.nextNumber += 1
                let command = MemoCommand(
                    cmdId: cmdID, client: self.client, op: .create, text: "障害試験 fault drill #\(cmdID)#",
                    x: Double(self.nextNumber % 300), y: Double(self.nextNumber % 500))
                try self.send(command)
                self.pending[cmdID] = (command, now + self.retryNs)
                self.sent += 1
                due += self.intervalNs
            }
            // A full window skips the slots it missed rather than bursting later.
            self.nextSendNs = max(due, now)
        }
        for (cmdID, entry) in self.pending where entry.dueNs <= now {
            try self.send(entry.command)
            self.pending[cmdID]?.dueNs = now + self.retryNs
            self.resent += 1
        }
    }

    /// Reads every queued ack.
    public func receiveAcks() throws {
        while true {
            let (received, delivery) = try self.acks.receiveQueued()
            guard received else { return }
            guard let delivery, let ack = self.acks.decode(delivery, as: MemoAck.self),
                self.pending[ack.cmdId] != nil
            else { continue }
            self.pending[ack.cmdId] = nil
            if ack.status == .ok || ack.status == .duplicate {
                self.acknowledged[ack.cmdId] = ack
            } else {
                self.refused += 1
            }
        }
    }

    /// Counts this driver's markers in the store's memos.
    public func check(_ store: MemoStore) throws -> Check {
        var counts: [String: Int] = [:]
        let prefix = "#\(self.client):"
        for memo in try store.allMemos() {
            guard let start = memo.text.range(of: prefix),
                let end = memo.text[start.upperBound...].firstIndex(of: "#")
            else { continue }
            counts[String(memo.text[memo.text.index(after: start.lowerBound)..<end]), default: 0] += 1
        }
        return Check(
            lost: self.acknowledged.keys.filter { counts[$0] == nil }.count,
            appliedTwice: counts.values.filter { $0 > 1 }.count, stored: counts.count)
    }

    private func send(_ command: MemoCommand) throws {
        try self.publisher.publish(command, on: self.topic)
    }
}
