import Bus
import BusSchema
import BusTestSupport
import Foundation
import MemoStore
import Testing

/// `component-host` and `memo-store` together on a real `bus-proxy`: the board's commands are
/// stored and its state follows the store.
@Suite(.serialized) struct MemoBoardLiveTests {
    static let scene = #"""
        {"name": "board", "width": 800, "height": 600, "views": [
          {"id": "memos", "frame": {"x": 0, "y": 0, "width": 800, "height": 600},
           "component": {"kind": "memoBoard", "id": "board1",
                         "config": {"client": "board1", "retry_initial_ms": 100, "retry_max_ms": 400}}}]}
        """#

    @Test func aCreateFromTheBoard_isStoredAndTheBoardShowsItAcknowledged() throws {
        let proxy = try ProxyProcess()
        let database = "\(proxy.directory)/memo.sqlite"
        let scene = "\(proxy.directory)/scene.json"
        try Self.scene.write(toFile: scene, atomically: true, encoding: .utf8)
        let context = try ZMQContext()
        let states = try Subscriber(
            context: context, endpoint: proxy.config.subscribe, prefixes: ["ui/memoBoard/board1/"],
            filter: SchemaFilter([MemoBoardState.self]))
        let commands = try Publisher(context: context, endpoint: proxy.config.publish, name: "test-ui")
        let store = try ChildProcess("memo-store", ["--db", database], bus: proxy.busFile)
        try store.waitForLine("ready")
        let host = try ChildProcess("component-host", ["--scene", scene], bus: proxy.busFile)
        try host.waitForLine("ready")

        // The board is in sync once the store's snapshot has arrived.
        try waitUntil("the board synced with the store", seconds: 15) {
            guard let delivery = try states.receive(timeoutMs: 100) else { return false }
            return try Value(messagePack: delivery.payload)["syncing"] == .bool(false)
        }
        let topic = try Topic("cmd/ui/board1/")
        #expect(try commands.waitForSubscriber(matching: topic, timeoutMs: 5000))
        let create: Value = .map([
            "instance": .string("board1"), "command": .string("create"),
            "args": .map(["text": .string("牛乳を買う"), "x": .int(10), "y": .int(20)]),
        ])
        try commands.publish(create, schema: ComponentCommand.schema, on: topic)

        var memo: Value?
        try waitUntil("the board showing the memo acknowledged and stored", seconds: 15) {
            guard let delivery = try states.receive(timeoutMs: 100) else { return false }
            let state = try Value(messagePack: delivery.payload)
            memo = state["memos"]?.arrayValue?.first { $0["text"] == .string("牛乳を買う") }
            return memo?["pending"] == .bool(false) && state["pending_commands"] == .int(0)
                && (state["store_seq"]?.intValue ?? 0) >= 1
        }
        let id = try #require(memo?["id"]?.stringValue)
        let stored = try MemoStore(path: database).allMemos()
        #expect(stored.map(\.id) == [id])
        #expect(stored.first?.text == "牛乳を買う")
        #expect(stored.first?.x == 10 && stored.first?.y == 20)

        for child in [host, store] {
            child.signal(SIGTERM)
            #expect(try child.wait() == 0)
        }
        states.socket.close()
        commands.socket.close()
        try proxy.stop()
    }
}
