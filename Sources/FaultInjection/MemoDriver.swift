import Bus
import BusSchema
import MemoStore

/// A memo client that is never killed: it sends commands at a steady rate, keeps each one until
/// the store acknowledges it and resends it with the same `cmd_id` until then, so a store that
/// dies mid-batch loses nothing that was acknowledged and applies nothing twice.
///
/// By default every command creates a memo. With `editing` memos, the first that many create
/// them and every later one edits one of them (the one edited longest ago that has no command
/// of its own in flight), so the board keeps its size however long the run.
///
/// Every command's text carries a marker `#<cmd_id>#`; ``check(_:)`` compares the database with
/// the acknowledgements afterwards. Commands go out on absolute deadlines (no drift from late turns).
public final class MemoDriver {
    /// What the database says about the acknowledged commands.
    public struct Check: Sendable, Equatable {
        /// Acknowledged commands whose change is not in the database (must be 0): a created
        /// memo missing, or a memo whose text is not that of its last acknowledged command (or of
        /// the one still in flight, which may have been applied).
        public var lost: Int
        /// Markers found in more than one memo (a create applied twice makes a second memo), and
        /// commands the store announced as two changes (`memo/changed/` under two `seq`s: an
        /// edit applied twice leaves the same text behind) (must be 0).
        public var appliedTwice: Int
        /// Memos in the database that carry this driver's markers.
        public var stored: Int
    }

    public let client: String
    public private(set) var sent = 0
    public private(set) var resent = 0
    /// Acks whose status was neither `ok` nor `duplicate` (an edit's `conflict` among them).
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
    /// How many memos the run creates before it edits them; nil creates all along.
    private let editing: Int?
    /// The memos created, by id: the last command applied to each (whose marker its text must
    /// carry) and its version as last heard, which the next edit names as its `base_version`.
    private var memos: [String: (applied: String, version: Int64)] = [:]
    /// The order memos are edited in: the least recently edited first.
    private var editQueue: [String] = []
    /// The command in flight for each memo being edited.
    private var inFlight: [String: String] = [:]
    /// Good acks that named no memo or version: nothing to find them by, so counted as lost.
    private var acknowledgedNowhere = 0
    /// The store's change announcements, for this driver's commands.
    private let changes: Subscriber
    /// The `seq`s under which the store announced each of this driver's commands.
    private var changeSeqs: [String: Set<UInt64>] = [:]

    /// - Parameters:
    ///   - ratePerSecond: new commands a second (resends come on top).
    ///   - retryMs: how long an unacknowledged command waits before it is sent again.
    ///   - window: at most this many commands unacknowledged; new ones wait.
    ///   - editing: create this many memos, then edit them (nil: create all along).
    public init(
        context: ZMQContext, bus: BusConfig, client: String, ratePerSecond: Double, retryMs: Int = 300,
        window: Int = 64, editing: Int? = nil
    ) throws {
        self.client = client
        self.editing = editing.map { max($0, 1) }
        self.publisher = try Publisher(context: context, endpoint: bus.publish, name: client)
        self.acks = try Subscriber(
            context: context, endpoint: bus.subscribe, prefixes: ["memo/ack/\(client)/"],
            filter: SchemaFilter([MemoAck.self]))
        self.changes = try Subscriber(
            context: context, endpoint: bus.subscribe, prefixes: ["memo/changed/"],
            filter: SchemaFilter([MemoChanged.self]))
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
            while due <= now && self.pending.count < self.window, let command = self.nextCommand() {
                let cmdID = command.cmdId
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

    /// The next new command, or nil while the memos to edit are all busy or not yet created.
    private func nextCommand() -> MemoCommand? {
        let cmdID = "\(self.client):\(self.nextNumber)"
        var command = MemoCommand {
            $0.cmdId = cmdID
            $0.client = self.client
            $0.text = "障害試験 fault drill #\(cmdID)#"
        }
        if let editing = self.editing, self.nextNumber > editing {
            guard let index = self.editQueue.firstIndex(where: { self.inFlight[$0] == nil }) else { return nil }
            let memoID = self.editQueue.remove(at: index)
            self.editQueue.append(memoID)
            self.inFlight[memoID] = cmdID
            command.op = .edit
            command.memoId = memoID
            command.baseVersion = self.memos[memoID]?.version
        }
        self.nextNumber += 1
        if command.op == .create {
            command.x = Double(self.nextNumber % 300)
            command.y = Double(self.nextNumber % 500)
        }
        return command
    }

    /// Reads every queued ack.
    public func receiveAcks() throws {
        while true {
            let (received, delivery) = try self.acks.receiveQueued()
            guard received else { return }
            guard let delivery, let ack = self.acks.decode(delivery, as: MemoAck.self),
                let command = self.pending[ack.cmdId]?.command
            else { continue }
            self.pending[ack.cmdId] = nil
            if let memoID = command.memoId { self.inFlight[memoID] = nil }
            guard ack.status == .ok || ack.status == .duplicate else {
                // A conflict (the memo changed since: a touch on the board moved it) says its version.
                if let memoID = ack.memoId, let version = ack.version { self.memos[memoID]?.version = version }
                self.refused += 1
                continue
            }
            self.acknowledged[ack.cmdId] = ack
            guard let memoID = ack.memoId, let version = ack.version else {
                self.acknowledgedNowhere += 1
                continue
            }
            if command.op == .create { self.editQueue.append(memoID) }
            self.memos[memoID] = (ack.cmdId, version)
        }
        let prefix = self.client + ":"
        while true {
            let (received, delivery) = try self.changes.receiveQueued()
            guard received else { return }
            guard let delivery, let change = self.changes.decode(delivery, as: MemoChanged.self),
                let cmdID = change.cmdId, cmdID.hasPrefix(prefix)
            else { continue }
            self.changeSeqs[cmdID, default: []].insert(change.seq)
        }
    }

    /// Compares the store's memos with what was acknowledged.
    public func check(_ store: MemoStore) throws -> Check {
        var counts: [String: Int] = [:]
        var stored: [String: String] = [:]
        let prefix = "#\(self.client):"
        for memo in try store.allMemos() {
            guard let start = memo.text.range(of: prefix),
                let end = memo.text[start.upperBound...].firstIndex(of: "#")
            else { continue }
            let marker = String(memo.text[memo.text.index(after: start.lowerBound)..<end])
            counts[marker, default: 0] += 1
            stored[memo.id] = marker
        }
        // The command in flight when the run ended may have been applied, unacknowledged.
        let lost = self.memos.filter { memoID, last in
            guard let marker = stored[memoID] else { return true }
            return marker != last.applied && marker != self.inFlight[memoID]
        }.count
        let appliedTwice =
            counts.values.filter { $0 > 1 }.count + self.changeSeqs.values.filter { $0.count > 1 }.count
        return Check(lost: lost + self.acknowledgedNowhere, appliedTwice: appliedTwice, stored: counts.count)
    }

    private func send(_ command: MemoCommand) throws {
        try self.publisher.publish(command, on: self.topic)
    }
}
