import Bus
import BusSchema
import BusTestSupport
import Foundation
import Testing

/// The live `component-host` against a real `bus-proxy`, with the test playing the memo store.
@Suite(.serialized) struct ComponentHostServiceTests {
    static let scene = #"""
        {"name": "board", "width": 800, "height": 600, "views": [
          {"id": "memos", "frame": {"x": 0, "y": 0, "width": 800, "height": 600},
           "component": {"kind": "memoBoard", "id": "board1",
                         "config": {"client": "board1", "retry_initial_ms": 100, "retry_max_ms": 400}}}]}
        """#

    /// A bus proxy and a component host on ipc endpoints in a fresh directory.
    struct Harness {
        let proxy: ProxyProcess
        let config: BusConfig
        let host: ChildProcess
        let context: ZMQContext
        let commands: Subscriber
        let store: Publisher

        init() throws {
            self.proxy = try ProxyProcess()
            let scene = "\(self.proxy.directory)/scene.json"
            try ComponentHostServiceTests.scene.write(toFile: scene, atomically: true, encoding: .utf8)
            self.config = self.proxy.config
            self.context = try ZMQContext()
            self.commands = try Subscriber(
                context: self.context, endpoint: self.config.subscribe, prefixes: ["memo/cmd/"],
                filter: SchemaFilter([SchemaID("memo.command", major: 1)]))
            self.store = try Publisher(context: self.context, endpoint: self.config.publish, name: "memo-store")
            self.host = try ChildProcess("component-host", ["--scene", scene], bus: self.proxy.busFile)
            try self.host.waitForLine("ready")
        }

        /// The next memo command within `ms`, as its payload.
        func nextCommand(withinMs ms: Int) throws -> Value? {
            guard let delivery = try self.commands.receive(timeoutMs: ms) else { return nil }
            return try Value(messagePack: delivery.payload)
        }

        func ack(_ cmdID: String, seq: Int) throws {
            let ack: Value = .map(["cmd_id": .string(cmdID), "status": .string("ok"), "seq": .int(Int64(seq))])
            try self.store.publish(ack, schema: SchemaID("memo.ack", major: 1), on: try Topic("memo/ack/board1/"))
        }

        func stop() throws {
            self.host.signal(SIGTERM)
            #expect(try self.host.wait() == 0)
            self.commands.socket.close()
            self.store.socket.close()
            try self.proxy.stop()
        }
    }

    @Test func malformedGesture_isCountedAndSkippedAndTheHostKeepsWorking() throws {
        let harness = try Harness()
        defer { try? harness.stop() }
        let health = try Subscriber(
            context: harness.context, endpoint: harness.config.subscribe, prefixes: ["sys/health/component-host/"],
            filter: SchemaFilter([Health.self]))
        defer { health.socket.close() }
        let topic = try Topic("gesture/d0/memos/memoTap/")
        #expect(try harness.store.waitForSubscriber(matching: topic, timeoutMs: 5000))
        try harness.store.publish(.map(["t_ms": .int(1)]), schema: GestureEvent.schema, on: topic)
        var report: Value?
        try waitUntil("a health report counting the malformed gesture", seconds: 10) {
            guard let delivery = try health.receive(timeoutMs: 100) else { return false }
            report = try Value(messagePack: delivery.payload)
            return report?["extra"]?["malformed_gestures"] == .int(1)
        }
        #expect(report?["reasons"]?["bad_payload"] == .int(1))
        let tap = GestureEvent(
            tMs: 5, device: "d0", view: "memos", recognizer: .tap, state: .recognized, x: 10, y: 10, touches: 1,
            name: "memoTap")
        try harness.store.publish(tap, on: topic)
        try waitUntil("the gesture counted after the bad one", seconds: 10) {
            guard let delivery = try health.receive(timeoutMs: 100) else { return false }
            return try Value(messagePack: delivery.payload)["extra"]?["gestures"] == .int(1)
        }
    }

    @Test func aRestartedHostsFirstStatesAndCommandsReachTheSubscribersThatWereThere() throws {
        let harness = try Harness()
        defer { try? harness.stop() }
        let watcher = try Subscriber(
            context: harness.context, endpoint: harness.config.subscribe, prefixes: ["ui/", "memo/cmd/"])
        defer { watcher.socket.close() }
        // The watcher's subscriptions are in the proxy's set before the restart.
        #expect(try harness.store.waitForSubscriber(matching: try Topic("ui/memoBoard/board1/"), timeoutMs: 5000))
        var oldEpoch: UInt64?
        try waitUntil("a snapshot request of the first host", seconds: 10) {
            oldEpoch = try watcher.receive(timeoutMs: 100)?.envelope.epoch
            return oldEpoch != nil
        }
        harness.host.signal(SIGTERM)
        #expect(try harness.host.wait() == 0)
        // Its initial states and snapshot request are published before it says `ready`.
        let restarted = try ChildProcess(
            "component-host", ["--scene", "\(harness.proxy.directory)/scene.json"], bus: harness.proxy.busFile)
        defer { if restarted.isRunning { restarted.signal(SIGKILL) } }
        var firstSeq: [String: UInt64] = [:]
        try waitUntil("the restarted host's state and snapshot request", seconds: 10) {
            if let delivery = try watcher.receive(timeoutMs: 100), delivery.envelope.epoch != oldEpoch,
                firstSeq[delivery.topic] == nil
            {
                firstSeq[delivery.topic] = delivery.envelope.seq
            }
            return firstSeq.count == 2
        }
        #expect(firstSeq == ["ui/memoBoard/board1/": 1, "memo/cmd/": 1])
        #expect(watcher.statistics.counters.gaps == 0)
        restarted.signal(SIGTERM)
        #expect(try restarted.wait() == 0)
    }

    @Test func droppedAcks_theSameCommandIsResentUntilAcknowledged() throws {
        let harness = try Harness()
        defer { try? harness.stop() }
        // The board asks for a snapshot first; the store acknowledges that one at once.
        var snapshot: Value?
        try waitUntil("the snapshot command", seconds: 10) {
            snapshot = try harness.nextCommand(withinMs: 100)
            return snapshot?["op"] == .string("snapshot")
        }
        try harness.ack(try #require(snapshot?["cmd_id"]?.stringValue), seq: 0)
        let command = try Topic("cmd/ui/board1/")
        #expect(try harness.store.waitForSubscriber(matching: command, timeoutMs: 5000))
        let create: Value = .map([
            "instance": .string("board1"), "command": .string("create"),
            "args": .map(["text": .string("牛乳"), "x": .int(10), "y": .int(20)]),
        ])
        try harness.store.publish(create, schema: ComponentCommand.schema, on: command)
        // Drop the acks of the first three copies: each is resent with the same cmd_id.
        var copies: [Value] = []
        try waitUntil("three copies of the create command", seconds: 10) {
            if let next = try harness.nextCommand(withinMs: 100), next["op"] == .string("create") {
                copies.append(next)
            }
            return copies.count == 3
        }
        let cmdID = try #require(copies[0]["cmd_id"]?.stringValue)
        #expect(copies.allSatisfy { $0["cmd_id"] == .string(cmdID) })
        #expect(copies.allSatisfy { $0 == copies[0] })
        try harness.ack(cmdID, seq: 1)
        // Acknowledged: no more copies during several resend intervals (cap 400 ms).
        var late = 0
        let deadline = Date().addingTimeInterval(1.5)
        while Date() < deadline {
            if let next = try harness.nextCommand(withinMs: 100), next["cmd_id"] == .string(cmdID) { late += 1 }
        }
        // One copy may already have been on its way when the ack was sent.
        #expect(late <= 1)
    }
}
