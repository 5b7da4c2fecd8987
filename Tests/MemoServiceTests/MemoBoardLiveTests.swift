import Bus
import BusSchema
import BusTestSupport
import Foundation
import MemoStore
import Testing

/// `component-host` and `memo-store` together on a real `bus-proxy`: the board's commands are
/// stored and its state follows the store.
@Suite(.serialized) struct MemoBoardLiveTests {
    /// The path of a scene with one memo board, `board1`, resending after 100 ms, backing off to 400 ms.
    static let scene = ChildProcess.repositoryRoot + "/Tests/data/scenes/memo-board.json"

    /// The board as a subscriber sees it: full states and the deltas after them.
    final class BoardWatch {
        let states: Subscriber
        var replica: MemoBoardReplica?

        init(context: ZMQContext, proxy: ProxyProcess) throws {
            self.states = try Subscriber(
                context: context, endpoint: proxy.config.subscribe, prefixes: ["ui/memoBoard/board1/"],
                filter: SchemaFilter([MemoBoardState.self, MemoBoardDelta.self]))
        }

        /// Takes what arrives until the board satisfies `condition`.
        func wait(_ what: String, _ condition: (MemoBoardState) -> Bool) throws -> MemoBoardState {
            var board: MemoBoardState?
            try waitUntil(what, seconds: 15) {
                guard let delivery = try self.states.receive(timeoutMs: 100) else { return false }
                if delivery.envelope.schema == MemoBoardDelta.schema.id {
                    let delta = try MemoBoardDelta(messagePack: delivery.payload)
                    guard self.replica?.apply(delta) == true else { return false }
                } else {
                    self.replica = MemoBoardReplica(try MemoBoardState(messagePack: delivery.payload))
                }
                board = self.replica?.state
                return board.map(condition) ?? false
            }
            return board!
        }
    }

    static func create(_ text: String, x: Int, with commands: Publisher) throws {
        let topic = try Topic("cmd/ui/board1/")
        #expect(try commands.waitForSubscriber(matching: topic, timeoutMs: 5000))
        let create: Value = .map([
            "instance": .string("board1"), "command": .string("create"),
            "args": .map(["text": .string(text), "x": .int(Int64(x)), "y": .int(20)]),
        ])
        try commands.publish(create, schema: ComponentCommand.schema, on: topic)
    }

    static func acknowledged(_ text: String) -> (MemoBoardState) -> Bool {
        { board in
            let memo = board.memos.first { $0.text == text }
            return memo?.pending == false && board.pendingCommands == 0 && (board.storeSeq ?? 0) >= 1
        }
    }

    /// A proxy, a memo store on a fresh database, a board watch and a commanding client.
    final class Stack {
        let proxy: ProxyProcess
        let database: String
        let context: ZMQContext
        let watch: BoardWatch
        let commands: Publisher
        let store: ChildProcess

        init() throws {
            self.proxy = try ProxyProcess()
            self.database = "\(self.proxy.directory)/memo.sqlite"
            self.context = try ZMQContext()
            self.watch = try BoardWatch(context: self.context, proxy: self.proxy)
            self.commands = try Publisher(context: self.context, endpoint: self.proxy.config.publish, name: "test-ui")
            self.store = try ChildProcess("memo-store", ["--db", self.database], bus: self.proxy.busFile)
            try self.store.waitForLine("ready")
        }

        /// Starts a host on `scene` and waits until its board has synced with the store.
        func startHost() throws -> ChildProcess {
            let host = try ChildProcess(
                "component-host", ["--scene", MemoBoardLiveTests.scene], bus: self.proxy.busFile)
            try host.waitForLine("ready")
            self.watch.replica = nil
            _ = try self.watch.wait("the board synced with the store") { $0.syncing == false }
            return host
        }

        func stop(host: ChildProcess) throws {
            for child in [host, self.store] {
                child.signal(SIGTERM)
                #expect(try child.wait() == 0)
            }
            self.watch.states.socket.close()
            self.commands.socket.close()
            try self.proxy.stop()
        }
    }

    @Test func aCreateFromTheBoard_isStoredAndTheBoardShowsItAcknowledged() throws {
        let stack = try Stack()
        let host = try stack.startHost()
        defer { try? stack.stop(host: host) }
        try Self.create("牛乳を買う", x: 10, with: stack.commands)
        let board = try stack.watch.wait(
            "the board showing the memo acknowledged and stored", Self.acknowledged("牛乳を買う"))
        let id = try #require(board.memos.first { $0.text == "牛乳を買う" }?.id)
        let stored = try MemoStore(path: stack.database).allMemos()
        #expect(stored.map(\.id) == [id])
        #expect(stored.first?.text == "牛乳を買う")
        #expect(stored.first?.x == 10 && stored.first?.y == 20)
    }

    /// The board numbered its commands from 1 after every start, so after a restart the store
    /// took its new commands for resends of old ones: acked, never applied.
    @Test func afterAHostRestart_theBoardsNewCommandsAreAppliedNotTakenForOldOnes() throws {
        let stack = try Stack()
        var host = try stack.startHost()
        // Stops whichever host runs when the test ends.
        defer { try? stack.stop(host: host) }
        try Self.create("before", x: 10, with: stack.commands)
        _ = try stack.watch.wait("the first memo acknowledged", Self.acknowledged("before"))
        host.signal(SIGKILL)
        _ = try host.wait()

        host = try stack.startHost()
        try Self.create("after", x: 300, with: stack.commands)
        let board = try stack.watch.wait("the second memo acknowledged", Self.acknowledged("after"))
        #expect(Set(board.memos.map(\.text)) == ["before", "after"])
        let stored = try MemoStore(path: stack.database).allMemos()
        #expect(stored.map(\.text) == ["before", "after"])
        #expect(Set(stored.map(\.id)).count == 2)
    }
}
