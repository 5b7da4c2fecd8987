import Bus
import BusSchema
import BusTestSupport
import Foundation

/// A bus proxy, a `memo-store` service on a fresh database and a test client named `c1`.
final class MemoServiceHarness {
    let proxy: ProxyProcess
    let database: String
    let context: ZMQContext
    let client: Publisher
    let acks: Subscriber
    let changes: Subscriber
    let snapshots: Subscriber
    let health: Subscriber
    private(set) var store: ChildProcess
    private let storeArguments: [String]

    /// - Parameter storeArguments: more `memo-store` options (e.g. `--max-pages`).
    init(storeArguments: [String] = []) throws {
        self.proxy = try ProxyProcess()
        self.database = "\(self.proxy.directory)/memo.sqlite"
        self.context = try ZMQContext()
        let subscribe = self.proxy.config.subscribe
        self.acks = try Subscriber(
            context: self.context, endpoint: subscribe, prefixes: ["memo/ack/c1/"], filter: SchemaFilter([MemoAck.self])
        )
        self.changes = try Subscriber(
            context: self.context, endpoint: subscribe, prefixes: ["memo/changed/"],
            filter: SchemaFilter([MemoChanged.self]))
        self.snapshots = try Subscriber(
            context: self.context, endpoint: subscribe, prefixes: ["memo/snapshot/c1/"],
            filter: SchemaFilter([MemoSnapshot.self]))
        self.health = try Subscriber(
            context: self.context, endpoint: subscribe, prefixes: ["sys/health/memo-store/"],
            filter: SchemaFilter([Health.self]))
        self.client = try Publisher(context: self.context, endpoint: self.proxy.config.publish, name: "memo-client")
        self.storeArguments = storeArguments
        self.store = try Self.startStore(proxy: self.proxy, database: self.database, storeArguments)
        _ = try self.client.waitForSubscriber(matching: try Topic("memo/cmd/"), timeoutMs: 10_000)
    }

    private static func startStore(proxy: ProxyProcess, database: String, _ arguments: [String]) throws
        -> ChildProcess
    {
        let store = try ChildProcess("memo-store", ["--db", database] + arguments, bus: proxy.busFile)
        try store.waitForLine("ready")
        return store
    }

    /// Starts the service again on the same database (after a kill).
    func restartStore() throws {
        self.store = try Self.startStore(proxy: self.proxy, database: self.database, self.storeArguments)
    }

    /// A command from client `c1`.
    static func command(_ cmdId: String, _ op: MemoOp, _ edit: (inout MemoCommand) -> Void = { _ in }) -> MemoCommand {
        var command = MemoCommand {
            $0.cmdId = cmdId
            $0.client = "c1"
            $0.op = op
        }
        edit(&command)
        return command
    }

    /// A command from `c1` that edits the text of memo `memoId`, based on the version `base` acknowledged.
    static func edit(_ cmdId: String, _ memoId: String, text: String, basedOn base: MemoAck) -> MemoCommand {
        Self.command(cmdId, .edit) {
            $0.memoId = memoId
            $0.text = text
            $0.baseVersion = base.version
        }
    }

    func send(_ command: MemoCommand) throws {
        try self.client.publish(command, on: try Topic("memo/cmd/"))
    }

    /// Sends `command` and returns its ack.
    func round(_ command: MemoCommand) throws -> MemoAck {
        try self.send(command)
        return try self.acks(for: [command.cmdId])[command.cmdId]!
    }

    /// Collects acks until every id in `ids` has one; fails if any id is acked twice.
    func acks(for ids: Set<String>, seconds: Double = 20) throws -> [String: MemoAck] {
        var found: [String: MemoAck] = [:]
        try waitUntil("acks for \(ids.count) commands", seconds: seconds) {
            while let ack = try self.nextAck(withinMs: 50) {
                guard ids.contains(ack.cmdId) else { continue }
                guard found.updateValue(ack, forKey: ack.cmdId) == nil else {
                    throw TimedOut(description: "\(ack.cmdId) acked twice")
                }
            }
            return found.count == ids.count
        }
        return found
    }

    func nextAck(withinMs ms: Int) throws -> MemoAck? {
        guard let delivery = try self.acks.receive(timeoutMs: ms) else { return nil }
        return try MemoAck(messagePack: delivery.payload)
    }

    /// Changes received until one with `seq` arrived.
    func changes(through seq: UInt64) throws -> [MemoChanged] {
        var received: [MemoChanged] = []
        try waitUntil("changes through seq \(seq)") {
            guard let delivery = try self.changes.receive(timeoutMs: 50) else { return false }
            received.append(try MemoChanged(messagePack: delivery.payload))
            return received.last!.seq >= seq
        }
        return received
    }

    /// The first health report whose `extra` satisfies `condition`.
    func health(where condition: (ValueMap) -> Bool) throws -> ValueMap {
        var extra: ValueMap = [:]
        try waitUntil("a memo-store health report", seconds: 15) {
            guard let delivery = try self.health.receive(timeoutMs: 100) else { return false }
            extra = try Value(messagePack: delivery.payload)["extra"]?.mapValue ?? [:]
            return condition(extra)
        }
        return extra
    }

    func stop() throws {
        if self.store.isRunning {
            self.store.signal(SIGTERM)
            try self.store.wait()
        }
        for subscriber in [self.acks, self.changes, self.snapshots, self.health] { subscriber.socket.close() }
        self.client.socket.close()
        try self.proxy.stop()
    }
}
