import Bus
import BusSchema
import BusTestSupport
import Foundation
import MessageFixtures
import Testing

/// The live `component-host` against a real `bus-proxy`, with the test playing the memo store.
@Suite(.serialized) struct ComponentHostServiceTests {
    /// The path of a scene with one memo board, `board1`, resending after 100 ms, backing off to 400 ms.
    static let scene = ChildProcess.repositoryRoot + "/Tests/data/scenes/memo-board.json"

    /// A bus proxy and a component host on ipc endpoints in a fresh directory.
    struct Harness {
        let proxy: ProxyProcess
        let config: BusConfig
        let host: ChildProcess
        let context: ZMQContext
        let store: Publisher

        init() throws {
            self.proxy = try ProxyProcess()
            self.config = self.proxy.config
            self.context = try ZMQContext()
            self.store = try Publisher(context: self.context, endpoint: self.config.publish, name: "memo-store")
            self.host = try ChildProcess(
                "component-host", ["--scene", ComponentHostServiceTests.scene], bus: self.proxy.busFile)
            try self.host.waitForLine("ready")
        }

        func stop() throws {
            self.host.signal(SIGTERM)
            #expect(try self.host.wait() == 0)
            self.store.socket.close()
            try self.proxy.stop()
        }
    }

    @Test func malformedGesture_isCountedAndSkippedAndTheHostKeepsWorking() throws {
        let harness = try Harness()
        defer { try? harness.stop() }
        let health = try Subscriber.health(
            of: "component-host", context: harness.context, endpoint: harness.config.subscribe)
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
        let tap = GestureEvent.gesture(.tap, .recognized, view: "memos", x: 10, y: 10, tMs: 5) { $0.name = "memoTap" }
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
            "component-host", ["--scene", ComponentHostServiceTests.scene], bus: harness.proxy.busFile)
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

    /// Late joiners get the board as it is: after several changes (deltas) the board, once quiet,
    /// restates itself in full, and the proxy replays that state, never a delta.
    @Test func aSubscriberJoiningAnIdleBoardAfterSeveralChangesGetsTheCurrentBoardAndNoDelta() throws {
        let harness = try Harness()
        defer { try? harness.stop() }
        let watcher = try Subscriber(
            context: harness.context, endpoint: harness.config.subscribe, prefixes: ["ui/memoBoard/"])
        defer { watcher.socket.close() }
        let command = try Topic("cmd/ui/board1/")
        #expect(try harness.store.waitForSubscriber(matching: command, timeoutMs: 5000))
        let texts: Set = ["一", "二", "三"]
        for (index, text) in texts.sorted().enumerated() {
            let create: Value = .map([
                "instance": .string("board1"), "command": .string("create"),
                "args": .map(["text": .string(text), "x": .int(Int64(10 + 200 * index)), "y": .int(20)]),
            ])
            try harness.store.publish(create, schema: ComponentCommand.schema, on: command)
        }
        // The creates go out as deltas; once the board is quiet it restates itself in full.
        var restated: MemoBoardState?
        try waitUntil("a full state holding the three memos", seconds: 20) {
            guard let delivery = try watcher.receive(timeoutMs: 100), !delivery.topic.hasSuffix("/delta/"),
                let board = watcher.decode(delivery, as: MemoBoardState.self)
            else { return false }
            restated = board
            return Set(board.memos.map(\.text)) == texts
        }
        let revision = try #require(restated?.revision)

        // A subscriber joining now gets that board from the proxy, and no delta it cannot build on.
        let late = try Subscriber(
            context: harness.context, endpoint: harness.config.subscribe, prefixes: ["ui/memoBoard/"])
        defer { late.socket.close() }
        var board: MemoBoardState?
        var staleDeltas = 0
        func take(_ delivery: Delivery) {
            if delivery.topic.hasSuffix("/delta/") {
                if let delta = late.decode(delivery, as: MemoBoardDelta.self), delta.revision <= revision {
                    staleDeltas += 1
                }
            } else if let state = late.decode(delivery, as: MemoBoardState.self) {
                board = state
            }
        }
        try waitUntil("the board from the cache", seconds: 10) {
            if let delivery = try late.receive(timeoutMs: 100) { take(delivery) }
            return board != nil
        }
        // A replayed delta could come after the state: wait for the replay's tail too.
        while let delivery = try late.receive(timeoutMs: 300) { take(delivery) }
        #expect(Set(board?.memos.map(\.text) ?? []) == texts)
        #expect((board?.revision ?? 0) >= revision)
        #expect(staleDeltas == 0)
    }
}
