import BusSchema
import MemoStore
import Testing

@Suite struct IdempotencyTests {
    @Test func repeatedCommandIdGetsTheStoredAckAsDuplicateAndIsNotAppliedAgain() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let create = fixture.command(.create) { $0.text = "once" }
        let first = store.run(create).ack
        let (second, changes) = store.run(create, now: 99)
        #expect(second.status == .duplicate)
        #expect(second.memoId == first.memoId && second.seq == first.seq && second.version == first.version)
        #expect(changes.isEmpty)
        #expect(try store.allMemos().count == 1)
    }

    @Test func reusedCmdIdWithAnotherPayloadIsRejectedAndNeverGetsTheFirstCommandsAck() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let one = store.create(fixture, text: "one")
        let create = fixture.command(.create) { $0.text = "two" }
        let two = store.run(create).ack
        var front = create
        front.op = .front
        front.text = nil
        front.memoId = one
        let (reused, changes) = store.run(front)
        #expect(reused.status == .rejected)
        #expect(reused.reason == "cmd_id_reused: \(create.cmdId) of t was applied with another payload")
        #expect(reused.memoId == one && reused.op == .front)
        #expect(changes.isEmpty)
        // The first command's resend still gets its own ack, in the same batch too.
        let batch = store.apply(batch: [front, create], now: 2).acks.map(\.message)
        #expect(batch.map(\.status) == [.rejected, .duplicate])
        #expect(batch[1].memoId == two.memoId && batch[1].seq == two.seq)
    }

    @Test func sameCmdIdFromTwoClientsIsTwoCommands() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let mine = fixture.command(.create) { $0.text = "mine" }
        var theirs = mine
        theirs.client = "other"
        let acks = store.apply(batch: [mine, theirs], now: 1).acks
        #expect(acks.map(\.message.status) == [.ok, .ok])
        #expect(acks.map(\.client) == ["t", "other"])
        #expect(Set(acks.compactMap(\.message.memoId)).count == 2)
    }

    @Test func aResendWhoseMapKeysCameInAnotherOrderIsStillADuplicate() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let forward: Value = .map([
            "cmd_id": .string("k:1"), "client": .string("k"), "op": .string("create"), "text": .string("a"),
            "x": .int(1), "y": .int(2),
        ])
        let backward: Value = .map([
            "y": .int(2), "x": .int(1), "text": .string("a"), "op": .string("create"), "client": .string("k"),
            "cmd_id": .string("k:1"),
        ])
        let first = try MemoCommand(messagePack: forward.messagePack)
        let second = try MemoCommand(messagePack: backward.messagePack)
        #expect(store.apply(batch: [first, second], now: 1).acks.map(\.message.status) == [.ok, .duplicate])
    }

    @Test func duplicateInsideOneBatchIsAppliedOnce() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let create = fixture.command(.create) { $0.text = "once" }
        let result = store.apply(batch: [create, create], now: 1)
        #expect(result.acks.map(\.message.status) == [.ok, .duplicate])
        #expect(result.changes.count == 1)
    }

    @Test func duplicateSurvivesReopeningTheFile() throws {
        let fixture = try StoreFixture()
        let create = fixture.command(.create) { $0.text = "once" }
        do { _ = try fixture.open().run(create) }
        let store = try fixture.open()
        #expect(store.run(create).ack.status == .duplicate)
        #expect(try store.allMemos().count == 1)
    }

    @Test func badCommandInsideABatchDoesNotUndoTheOthers() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let batch = [
            fixture.command(.create) { $0.text = "a" },
            fixture.command(.move) {
                $0.memoId = "m404"
                $0.x = 1
                $0.y = 1
            },
            fixture.command(.create) { $0.x = .nan },
            fixture.command(.create) { $0.color = "chartreuse" },
            fixture.command(.create) { $0.text = "b" },
        ]
        let result = store.apply(batch: batch, now: 1)
        #expect(result.acks.map(\.message.status) == [.ok, .rejected, .rejected, .rejected, .ok])
        #expect(result.acks[1].message.reason == "unknown memo m404")
        #expect(result.acks[1].message.memoId == "m404")
        #expect(result.acks[2].message.reason == "x is not a finite number")
        #expect(result.changes.map(\.seq) == [1, 2])
        #expect(try store.allMemos().map(\.text) == ["a", "b"])
    }

    @Test func rejectedCommandIsNotRecordedSoALaterRetryCanSucceed() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let move = fixture.command(.move) {
            $0.memoId = "early"
            $0.x = 5
            $0.y = 5
        }
        #expect(store.run(move).ack.status == .rejected)
        _ = store.run(fixture.command(.create) { $0.memoId = "early" })
        #expect(store.run(move).ack.status == .ok)
    }

    @Test func oversizedTextIsRejectedWithTheLimit() throws {
        let fixture = try StoreFixture()
        var configuration = MemoStoreConfiguration()
        configuration.maximumTextBytes = 10
        let store = try fixture.open(configuration)
        let ack = store.run(fixture.command(.create) { $0.text = "東京タワー" }).ack
        #expect(ack.status == .rejected)
        #expect(ack.reason == "text is 15 bytes, more than the limit of 10")
        #expect(try store.allMemos().isEmpty)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e12])
    func nonFiniteOrHugeGeometryIsRejected(value: Double) throws {
        let fixture = try StoreFixture()
        let (store, id) = try fixture.openWithMemo("a")
        let ack = store.run(fixture, .transform, memo: id) { $0.rotation = value }.ack
        #expect(ack.status == .rejected)
        #expect(try store.memo(id: id)?.rotation == 0)
    }

    @Test func malformedPayloadWithIdAndClientGetsARejectedAck() throws {
        let value = Value.map(["cmd_id": .string("c:1"), "client": .string("c"), "op": .string("frobnicate")])
        let error: CodecError
        do {
            _ = try MemoCommand(messagePack: value.messagePack)
            Issue.record("decoded an unknown op")
            return
        } catch let codecError as CodecError {
            error = codecError
        }
        let rejection = try #require(MemoAck.rejecting(payload: value.messagePack, error: error, seq: 7))
        #expect(rejection.client == "c")
        #expect(rejection.ack.status == .rejected && rejection.ack.seq == 7 && rejection.ack.cmdId == "c:1")
    }

    @Test func payloadWithoutClientCannotBeAnswered() {
        let value = Value.map(["cmd_id": .string("c:1"), "op": .string("create")])
        #expect(
            MemoAck.rejecting(payload: value.messagePack, error: CodecError(.missingField, offset: 0), seq: 0) == nil)
    }

    @Test func changesCarryGapFreeSeqAcrossBatchesAndReopen() throws {
        let fixture = try StoreFixture()
        var seqs: [UInt64] = []
        do {
            let store = try fixture.open()
            seqs += store.apply(batch: [fixture.command(.create), fixture.command(.create)], now: 1).changes.map(\.seq)
        }
        let store = try fixture.open()
        seqs += store.apply(batch: [fixture.command(.create)], now: 2).changes.map(\.seq)
        #expect(seqs == [1, 2, 3])
        #expect(try store.currentSeq() == 3)
    }

    @Test func pruningForgetsOldCommandIds() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let old = fixture.command(.create)
        _ = store.run(old, now: 100)
        _ = store.run(fixture.command(.create), now: 900)
        #expect(try store.pruneAppliedCommands(before: 500) == 1)
    }
}
