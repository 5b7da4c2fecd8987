import BusSchema
import Foundation
import MemoStore

/// A memo database in a fresh temporary directory, removed when the fixture goes away.
final class StoreFixture {
    let directory: String
    let path: String
    private var sequence = 0

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("memo-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        self.directory = base.path
        self.path = base.appendingPathComponent("memo.sqlite").path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: self.directory)
    }

    func open(_ configuration: MemoStoreConfiguration = MemoStoreConfiguration()) throws -> MemoStore {
        try MemoStore(path: self.path, configuration: configuration)
    }

    /// Opens the store with one memo created in it (at 10, 20, time 1000) and returns the memo's id.
    func openWithMemo(_ text: String) throws -> (MemoStore, String) {
        let store = try self.open()
        return (store, store.create(self, text: text))
    }

    /// Opens the store, creates a memo for each of `texts` (at 10, 20, time 1000) and closes it.
    func seed(_ texts: [String]) throws {
        let store = try self.open()
        for text in texts { _ = store.create(self, text: text) }
    }

    /// A command with a fresh `cmd_id` from client `t`.
    func command(_ op: MemoOp, _ fill: (inout MemoCommand) -> Void = { _ in }) -> MemoCommand {
        self.sequence += 1
        var command = MemoCommand {
            $0.cmdId = "t:\(self.sequence)"
            $0.client = "t"
            $0.op = op
        }
        fill(&command)
        return command
    }
}

extension MemoStore {
    /// Applies one command at time `now` and returns its ack and changes.
    func run(_ command: MemoCommand, now: Int64 = 1_000) -> (ack: MemoAck, changes: [MemoChanged]) {
        let result = self.apply(batch: [command], now: now)
        return (result.acks[0].message, result.changes)
    }

    /// Applies a fresh `op` command on memo `id` at time `now`, with the other fields `fill` sets.
    func run(
        _ fixture: StoreFixture, _ op: MemoOp, memo id: String, now: Int64 = 1_000,
        _ fill: (inout MemoCommand) -> Void = { _ in }
    ) -> (ack: MemoAck, changes: [MemoChanged]) {
        self.run(
            fixture.command(op) {
                $0.memoId = id
                fill(&$0)
            }, now: now)
    }

    /// Moves memo `id` to `x`, `y` at time `now`.
    func move(
        _ fixture: StoreFixture, _ id: String, x: Double, y: Double, now: Int64 = 1_000
    ) -> (ack: MemoAck, changes: [MemoChanged]) {
        self.run(fixture, .move, memo: id, now: now) {
            $0.x = x
            $0.y = y
        }
    }

    /// Creates a memo and returns its id.
    func create(_ fixture: StoreFixture, text: String, now: Int64 = 1_000, color: String? = nil) -> String {
        let ack = self.run(
            fixture.command(.create) {
                $0.text = text
                $0.x = 10
                $0.y = 20
                $0.color = color
            }, now: now
        ).ack
        return ack.memoId ?? ""
    }

    func memo(id: String) throws -> MemoRecord? {
        try self.allMemos().first { $0.id == id }
    }
}
