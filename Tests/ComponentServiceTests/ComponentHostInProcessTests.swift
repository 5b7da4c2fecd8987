import Bus
import BusSchema
import BusTestSupport
import ComponentCore
import ComponentService
import Foundation
import MessageFixtures
import ServiceSupport
import Testing

/// The component host's service logic in-process: a loopback bus and a clock the test moves, so
/// resend timing is checked exactly, in milliseconds, whatever the machine's load.
@Suite struct ComponentHostInProcessTests {
    /// The path of a scene with one memo board, `board1`, resending after 100 ms, backing off to 400 ms.
    static let scene = ChildProcess.repositoryRoot + "/Tests/data/scenes/memo-board.json"

    /// A component host on a loopback bus, with the test as its memo store.
    final class Harness {
        let bus: LoopbackBus
        let clock = ManualClock()
        let runner: ServiceRunner
        let service: ComponentHostService
        let commands: Subscriber
        let store: Publisher

        init() throws {
            self.bus = try LoopbackBus()
            self.commands = try self.bus.subscriber(["memo/cmd/"])
            self.store = try self.bus.publisher("memo-store")
            self.runner = try ServiceRunner(
                name: "component-host", config: self.bus.config, signals: SignalWatcher(signals: []),
                context: self.bus.context, clock: self.clock)
            self.service = try ComponentHostService(
                runner: self.runner,
                scene: ComponentScene(
                    try Scene(
                        json: String(contentsOfFile: ComponentHostInProcessTests.scene, encoding: .utf8),
                        file: ComponentHostInProcessTests.scene)))
            try self.service.prepare()
            try self.runner.start()
        }

        /// Turns the host's loop until a memo command `wanted` accepts arrives (nil when none does
        /// within `seconds` of real time; the host's own time stands still meanwhile).
        func nextCommand(seconds: Double = 5, _ wanted: (Value) -> Bool = { _ in true }) throws -> Value? {
            var command: Value?
            try? waitUntil("a memo command", seconds: seconds) {
                _ = try self.runner.turn(timeoutMs: 1)
                guard let delivery = try self.commands.receive(timeoutMs: 1) else { return false }
                let value = try Value(messagePack: delivery.payload)
                guard wanted(value) else { return false }
                command = value
                return true
            }
            return command
        }

        /// Moves the host's clock to `ms` (milliseconds of ``ManualClock/nowNs``).
        func clock(to ms: Double) {
            self.clock.advance(ms: ms - Double(self.clock.nowNs) / 1e6)
        }

        func ack(_ cmdID: String, seq: Int) throws {
            let ack: Value = .map(["cmd_id": .string(cmdID), "status": .string("ok"), "seq": .int(Int64(seq))])
            try self.store.publish(ack, schema: SchemaID("memo.ack", major: 1), on: try Topic("memo/ack/board1/"))
        }

        func stop() throws {
            self.runner.stop()
            try self.runner.finish()
            self.commands.socket.close()
            self.store.socket.close()
            try self.bus.stop()
        }
    }

    @Test func anUnackedCommandIsResentExactlyWhenItsDelayHasPassed_doublingToTheCap_andNeverAfterItsAck() throws {
        let harness = try Harness()
        defer { try? harness.stop() }
        let snapshot = try #require(try harness.nextCommand())
        #expect(snapshot["op"] == .string("snapshot"))
        let snapshotID = try #require(snapshot["cmd_id"]?.stringValue)
        try harness.ack(snapshotID, seq: 0)
        // An empty board, in one chunk, so the board waits for nothing else.
        let empty = MemoSnapshot.chunk(snapshotID, seq: 0)
        try harness.store.publish(empty, on: try Topic("memo/snapshot/board1/"))
        let command = try Topic("cmd/ui/board1/")
        #expect(try harness.store.waitForSubscriber(matching: command, timeoutMs: 5000))
        let create: Value = .map([
            "instance": .string("board1"), "command": .string("create"),
            "args": .map(["text": .string("牛乳"), "x": .int(10), "y": .int(20)]),
        ])
        try harness.store.publish(create, schema: ComponentCommand.schema, on: command)
        let first = try #require(try harness.nextCommand())
        #expect(first["op"] == .string("create"))

        let cmdID = try #require(first["cmd_id"]?.stringValue)
        func isCopy(_ command: Value) -> Bool { command["cmd_id"] == .string(cmdID) }

        // The delays double from 100 ms to the 400 ms cap, each counted from the last copy's due
        // time (the host fires a machine's timer at its own time): a copy goes out once the host's
        // clock reaches it, never a millisecond before, however slow this machine is.
        let startMs = Double(harness.clock.nowNs) / 1e6
        var dueMs = startMs
        for delayMs in [100.0, 200, 400, 400] {
            dueMs += delayMs
            harness.clock(to: dueMs - 1)
            #expect(try harness.nextCommand(seconds: 0.3, isCopy) == nil, "resent before \(dueMs - startMs) ms")
            harness.clock(to: dueMs + Double(ComponentHostService.tickMs))
            #expect(try harness.nextCommand(isCopy) == first, "not resent at \(dueMs - startMs) ms")
        }
        try harness.ack(cmdID, seq: 1)
        // Once the ack is in (turns at a standing clock), ten more capped delays send no copy.
        _ = try harness.nextCommand(seconds: 0.3, isCopy)
        for _ in 0..<10 {
            dueMs += 400
            harness.clock(to: dueMs + Double(ComponentHostService.tickMs))
            #expect(try harness.nextCommand(seconds: 0.1, isCopy) == nil)
        }
    }
}
