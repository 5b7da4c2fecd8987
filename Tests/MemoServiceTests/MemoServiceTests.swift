import Bus
import BusSchema
import BusTestSupport
import Foundation
import MemoStore
import Testing

/// The live `memo-store` service against a real `bus-proxy`, the test playing a client.
@Suite(.serialized) struct MemoServiceTests {
    @Test func createEditMove_areAckedOnTheClientTopicAndPublishedWithIncreasingSeq() throws {
        let harness = try MemoServiceHarness()
        defer { try? harness.stop() }
        let created = try harness.round(
            MemoServiceHarness.command("a1", .create) {
                $0.text = "牛乳"
                $0.x = 10
                $0.y = 20
            })
        #expect(created.status == .ok)
        let memoId = try #require(created.memoId)
        let edited = try harness.round(MemoServiceHarness.edit("a2", memoId, text: "牛乳と卵", basedOn: created))
        #expect(edited.status == .ok)
        let moved = try harness.round(
            MemoServiceHarness.command("a3", .move) {
                $0.memoId = memoId
                $0.x = 300
                $0.y = 400
            })
        #expect(moved.status == .ok)
        #expect(created.seq < edited.seq && edited.seq < moved.seq)
        let changes = try harness.changes(through: moved.seq)
        #expect(changes.map(\.seq) == Array(created.seq...moved.seq))
        #expect(changes.map(\.cmdId) == ["a1", "a2", "a3"])
        #expect(changes.last?.memo?.text == "牛乳と卵")
        #expect(changes.last?.memo?.x == 300)
    }

    @Test func theSameCmdIdTwice_isAppliedOnceAndAckedDuplicate() throws {
        let harness = try MemoServiceHarness()
        defer { try? harness.stop() }
        let create = MemoServiceHarness.command("d1", .create) { $0.text = "once" }
        let first = try harness.round(create)
        let second = try harness.round(create)
        #expect(first.status == .ok)
        #expect(second.status == .duplicate)
        #expect(second.memoId == first.memoId)
        #expect(second.seq == first.seq)
        #expect(try MemoStore(path: harness.database).allMemos().count == 1)
    }

    @Test func aStaleEdit_getsConflict() throws {
        let harness = try MemoServiceHarness()
        defer { try? harness.stop() }
        let created = try harness.round(MemoServiceHarness.command("s1", .create) { $0.text = "v1" })
        let memoId = try #require(created.memoId)
        let first = try harness.round(MemoServiceHarness.edit("s2", memoId, text: "v2", basedOn: created))
        let stale = try harness.round(
            MemoServiceHarness.edit("s3", memoId, text: "v2 from elsewhere", basedOn: created))
        #expect(first.status == .ok)
        #expect(stale.status == .conflict)
        #expect(try MemoStore(path: harness.database).allMemos().map(\.text) == ["v2"])
    }

    @Test func aSnapshotRequest_returnsChunksEndingWithLastAndTheSeqTheyReflect() throws {
        let harness = try MemoServiceHarness()
        defer { try? harness.stop() }
        _ = try harness.round(MemoServiceHarness.command("n1", .create) { $0.text = "一" })
        let second = try harness.round(MemoServiceHarness.command("n2", .create) { $0.text = "二" })
        let ack = try harness.round(MemoServiceHarness.command("n3", .snapshot))
        #expect(ack.status == .ok)
        var chunks: [MemoSnapshot] = []
        try waitUntil("the last snapshot chunk") {
            guard let delivery = try harness.snapshots.receive(timeoutMs: 50) else { return false }
            chunks.append(try MemoSnapshot(messagePack: delivery.payload))
            return chunks.last!.last
        }
        #expect(chunks.map(\.chunk) == Array(0..<chunks.count))
        #expect(chunks.allSatisfy { $0.seq == second.seq && $0.requestId == "n3" })
        #expect(chunks.flatMap(\.memos).map(\.text).sorted() == ["一", "二"])
    }

    @Test func aBurstOf500Commands_isAckedCompletelyInFewerBatches() throws {
        let harness = try MemoServiceHarness()
        defer { try? harness.stop() }
        let ids = (0..<500).map { "b\($0)" }
        for id in ids { try harness.send(MemoServiceHarness.command(id, .create) { $0.text = id }) }
        let acks = try harness.acks(for: Set(ids), seconds: 60)
        #expect(acks.values.allSatisfy { $0.status == .ok })
        let extra = try harness.health { $0["commands"]?.intValue == 500 }
        let batches = try #require(extra["batches"]?.intValue)
        #expect(batches < 500)
        #expect(extra["storage_errors"]?.intValue == 0)
        #expect(try MemoStore(path: harness.database).allMemos().count == 500)
    }

    @Test func aMalformedCommand_isRejectedOrCountedAndTheServiceKeepsWorking() throws {
        let harness = try MemoServiceHarness()
        defer { try? harness.stop() }
        let topic = try Topic("memo/cmd/")
        // Names its client: answered with a rejected ack.
        let unknownOp: Value = .map(["cmd_id": .string("x1"), "client": .string("c1"), "op": .string("fly")])
        try harness.client.publish(unknownOp, schema: MemoCommand.schema, on: topic)
        // Names no client: only counted.
        try harness.client.publish(.map(["cmd_id": .string("x2")]), schema: MemoCommand.schema, on: topic)
        let rejected = try #require(try harness.acks(for: ["x1"])["x1"])
        #expect(rejected.status == .rejected)
        #expect(rejected.reason?.contains("malformed command") == true)
        let good = try harness.round(MemoServiceHarness.command("x3", .create) { $0.text = "still here" })
        #expect(good.status == .ok)
        let extra = try harness.health { $0["commands"]?.intValue == 3 }
        #expect(extra["malformed"]?.intValue == 2)
        #expect(extra["unanswerable"]?.intValue == 1)
    }

    @Test func aFullDisk_rejectsTheBatchWithTheReasonAndTheServiceKeepsRunning() throws {
        // The cap cannot go below the file's size: the database is full from the start.
        let harness = try MemoServiceHarness(storeArguments: ["--max-pages", "1"])
        defer { try? harness.stop() }
        let big = String(repeating: "東京タワー", count: 4000)
        let full = try harness.round(MemoServiceHarness.command("f1", .create) { $0.text = big })
        #expect(full.status == .rejected)
        #expect(full.reason?.contains("not stored") == true)
        #expect(full.reason?.contains("full") == true)
        let snapshot = try harness.round(MemoServiceHarness.command("f2", .snapshot))
        #expect(snapshot.status == .ok)
        let extra = try harness.health { $0["commands"]?.intValue == 2 }
        #expect(extra["storage_errors"]?.intValue == 1)
        #expect(harness.store.isRunning)
        #expect(try MemoStore(path: harness.database).allMemos().isEmpty)
    }

    @Test func sigterm_closesTheDatabaseCleanlyAndExitsZero() throws {
        let harness = try MemoServiceHarness()
        defer { try? harness.stop() }
        _ = try harness.round(MemoServiceHarness.command("t1", .create) { $0.text = "kept" })
        harness.store.signal(SIGTERM)
        #expect(try harness.store.wait() == 0)
        // The last connection closed: the WAL was checkpointed into the database and removed.
        #expect(!FileManager.default.fileExists(atPath: harness.database + "-wal"))
        #expect(try MemoStore(path: harness.database).allMemos().map(\.text) == ["kept"])
    }

    @Test func kill9MidBurst_everyAckedCommandIsStoredAndNoneTwiceWhenResent() throws {
        let harness = try MemoServiceHarness()
        defer { try? harness.stop() }
        let ids = (0..<400).map { "k\($0)" }
        let commands = ids.map { id in MemoServiceHarness.command(id, .create) { $0.text = id } }
        for command in commands { try harness.send(command) }
        var ackedBeforeKill: Set<String> = []
        try waitUntil("the first acks") {
            while let ack = try harness.nextAck(withinMs: 5) { ackedBeforeKill.insert(ack.cmdId) }
            return !ackedBeforeKill.isEmpty
        }
        harness.store.signal(SIGKILL)
        try harness.store.wait()
        // Acks already on their way before the kill were sent after COMMIT as well.
        while let ack = try harness.nextAck(withinMs: 100) { ackedBeforeKill.insert(ack.cmdId) }
        let stored = Set(try MemoStore(path: harness.database).allMemos().map(\.text))
        #expect(ackedBeforeKill.isSubset(of: stored))

        try harness.restartStore()
        _ = try harness.client.waitForSubscriber(matching: try Topic("memo/cmd/"), timeoutMs: 10_000)
        for command in commands { try harness.send(command) }
        let acks = try harness.acks(for: Set(ids), seconds: 60)
        #expect(acks.values.allSatisfy { $0.status == .ok || $0.status == .duplicate })
        #expect(ackedBeforeKill.allSatisfy { acks[$0]?.status == .duplicate })
        let memos = try MemoStore(path: harness.database).allMemos()
        #expect(memos.count == ids.count)
        #expect(Set(memos.map(\.text)) == Set(ids))
    }
}
