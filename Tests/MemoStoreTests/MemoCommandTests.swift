import BusSchema
import MemoStore
import MessageFixtures
import Testing

@Suite struct MemoCommandTests {
    @Test func createStoresEveryFieldAndPublishesAnUpsert() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let (ack, changes) = store.run(
            fixture.command(.create) {
                $0.text = "牛乳と卵を買う"
                $0.x = 24
                $0.y = 40
                $0.width = 160
                $0.height = 120
                $0.color = "pink"
            }, now: 5_000)
        #expect(ack.status == .ok)
        #expect(ack.op == .create)
        #expect(ack.memoId == "m1")
        #expect(ack.version == 1)
        #expect(ack.seq == 1)
        let memo = MemoRecord.memo(
            "m1", text: "牛乳と卵を買う", x: 24, y: 40, width: 160, height: 120, z: 1, color: "pink", version: 1
        ) {
            $0.createdAt = 5_000
            $0.updatedAt = 5_000
        }
        #expect(
            changes == [
                MemoChanged {
                    $0.seq = 1
                    $0.change = .upsert
                    $0.memo = memo
                    $0.cmdId = ack.cmdId
                }
            ])
        #expect(try store.allMemos() == [memo])
    }

    @Test func createWithAProposedIdKeepsItAndRejectsATakenOne() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        #expect(store.run(fixture.command(.create) { $0.memoId = "board1-a" }).ack.memoId == "board1-a")
        let again = store.run(fixture.command(.create) { $0.memoId = "board1-a" }).ack
        #expect(again.status == .rejected)
        #expect(again.reason == "memo board1-a already exists")
    }

    @Test func editWithCurrentBaseVersionReplacesTextAndBumpsVersion() throws {
        let fixture = try StoreFixture()
        let (store, id) = try fixture.openWithMemo("old")
        let (ack, changes) = store.run(fixture, .edit, memo: id, now: 9_000) {
            $0.text = "new"
            $0.baseVersion = 1
        }
        #expect(ack.status == .ok)
        #expect(ack.version == 2)
        #expect(changes.first?.memo?.text == "new")
        #expect(changes.first?.memo?.updatedAt == 9_000)
    }

    @Test func editWithStaleBaseVersionIsAConflictAndChangesNothing() throws {
        let fixture = try StoreFixture()
        let (store, id) = try fixture.openWithMemo("old")
        _ = store.move(fixture, id, x: 1, y: 1)
        let (ack, changes) = store.run(fixture, .edit, memo: id) {
            $0.text = "mine"
            $0.baseVersion = 1
        }
        #expect(ack.status == .conflict)
        #expect(ack.version == 2)
        #expect(ack.seq == 2)
        #expect(changes.isEmpty)
        #expect(try store.memo(id: id)?.text == "old")
    }

    @Test func editOfTextWithoutBaseVersionIsRejected() throws {
        let fixture = try StoreFixture()
        let (store, id) = try fixture.openWithMemo("old")
        let ack = store.run(fixture, .edit, memo: id) { $0.text = "x" }.ack
        #expect(ack.status == .rejected)
    }

    @Test func editOfColourAloneNeedsNoBaseVersion() throws {
        let fixture = try StoreFixture()
        let (store, id) = try fixture.openWithMemo("a")
        let ack = store.run(fixture, .edit, memo: id) { $0.color = "blue" }.ack
        #expect(ack.status == .ok)
        #expect(try store.memo(id: id)?.color == "blue")
    }

    @Test func moveAndTransformAreLastWriterWins() throws {
        let fixture = try StoreFixture()
        let (store, id) = try fixture.openWithMemo("a")
        _ = store.move(fixture, id, x: 300, y: 400)
        _ = store.run(fixture, .transform, memo: id) {
            $0.scale = 1.5
            $0.rotation = 0.25
        }
        let memo = try #require(try store.memo(id: id))
        #expect(memo.x == 300 && memo.y == 400 && memo.scale == 1.5 && memo.rotation == 0.25)
        #expect(memo.version == 3)
        #expect(memo.updatedAt == 1_000)
    }

    @Test func anUpdatePublishesTheRowAsStoredAfterTheWrite() throws {
        let fixture = try StoreFixture()
        let (store, id) = try fixture.openWithMemo("a")
        let (ack, changes) = store.move(fixture, id, x: 300, y: 400, now: 2_000)
        let stored = try #require(try store.memo(id: id))
        #expect(stored.x == 300 && stored.y == 400 && stored.version == 2)
        #expect(ack.version == 2)
        #expect(
            changes == [
                MemoChanged {
                    $0.seq = ack.seq
                    $0.change = .upsert
                    $0.memo = stored
                    $0.cmdId = ack.cmdId
                }
            ])
    }

    @Test func frontPutsTheMemoAboveAllOthersOnce() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let first = store.create(fixture, text: "a")
        _ = store.create(fixture, text: "b")
        let (ack, changes) = store.run(fixture.command(.front) { $0.memoId = first })
        #expect(ack.status == .ok)
        #expect(changes.first?.memo?.z == 3)
        let (again, none) = store.run(fixture.command(.front) { $0.memoId = first })
        #expect(again.status == .ok)
        #expect(none.isEmpty)
    }

    @Test func minimizeAndRestoreSizeToggleMinimized() throws {
        let fixture = try StoreFixture()
        let (store, id) = try fixture.openWithMemo("a")
        #expect(store.run(fixture.command(.minimize) { $0.memoId = id }).changes.first?.memo?.minimized == true)
        #expect(store.run(fixture.command(.minimize) { $0.memoId = id }).changes.isEmpty)
        #expect(store.run(fixture.command(.restoreSize) { $0.memoId = id }).changes.first?.memo?.minimized == false)
    }

    @Test func trashRestoreAndEmptyTrash() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let kept = store.create(fixture, text: "keep")
        let gone = store.create(fixture, text: "gone")
        #expect(
            store.run(fixture.command(.trash) { $0.memoId = kept }, now: 7_000).changes.first?.memo?.trashedAt == 7_000)
        #expect(store.run(fixture.command(.restore) { $0.memoId = kept }).changes.first?.memo?.trashedAt == nil)
        _ = store.run(fixture.command(.trash) { $0.memoId = gone })
        let (ack, changes) = store.run(fixture.command(.emptyTrash))
        #expect(ack.status == .ok)
        #expect(changes.map(\.change) == [.delete])
        #expect(changes.first?.memo?.id == gone)
        #expect(try store.allMemos().map(\.id) == [kept])
    }

    @Test func emptyTrashWithAMemoIdRemovesOnlyThatTrashedMemo() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let mine = store.create(fixture, text: "mine")
        let theirs = store.create(fixture, text: "theirs")
        let onBoard = store.create(fixture, text: "on the board")
        _ = store.run(fixture.command(.trash) { $0.memoId = mine })
        _ = store.run(fixture.command(.trash) { $0.memoId = theirs })
        let (ack, changes) = store.run(fixture.command(.emptyTrash) { $0.memoId = mine })
        #expect(ack.status == .ok)
        #expect(changes.map(\.change) == [.delete] && changes.first?.memo?.id == mine)
        // A memo on the board is not in the trash, so naming it removes nothing.
        #expect(store.run(fixture.command(.emptyTrash) { $0.memoId = onBoard }).changes.isEmpty)
        #expect(try Set(store.allMemos().map(\.id)) == [theirs, onBoard])
    }

    @Test(arguments: MemoArrangeOrder.allCases)
    func arrangeLaysOutTheBoardInOrderAllMinimizedInOneCommand(order: MemoArrangeOrder) throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let banana = store.create(fixture, text: "banana", now: 1, color: "blue")
        let apple = store.create(fixture, text: "Apple", now: 2, color: "yellow")
        let cherry = store.create(fixture, text: "cherry", now: 3, color: "pink")
        let trashed = store.create(fixture, text: "trashed", now: 4)
        _ = store.run(fixture.command(.trash) { $0.memoId = trashed })
        _ = store.run(fixture, .edit, memo: banana, now: 10) {
            $0.text = "banana!"
            $0.baseVersion = 1
        }
        let (ack, changes) = store.run(
            fixture.command(.arrange) {
                $0.order = order
                $0.width = 500
            })
        #expect(ack.status == .ok)
        let expected: [String]
        switch order {
        case .created: expected = [banana, apple, cherry]
        case .updated: expected = [banana, cherry, apple]
        case .color: expected = [apple, cherry, banana]
        case .text: expected = [apple, banana, cherry]
        }
        let memos = changes.compactMap(\.memo)
        #expect(memos.map(\.id) == expected)
        #expect(memos.allSatisfy { $0.minimized })
        #expect(memos.map(\.x) == [16, 232, 16])
        #expect(memos.map(\.y) == [16, 16, 72])
        #expect(ack.seq == changes.last?.seq)
        #expect(try store.settings().arrangeOrder == order)
        #expect(try store.memo(id: trashed)?.minimized == false)
    }

    @Test func backgroundSetsAndClearsTheSetting() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let (_, changes) = store.run(fixture.command(.background) { $0.image = "deploy/assets/cork.png" })
        #expect(
            changes == [
                MemoChanged {
                    $0.seq = 1
                    $0.change = .settings
                    $0.settings = MemoSettings {
                        $0.background = "deploy/assets/cork.png"
                    }
                    $0.cmdId = "t:1"
                }
            ])
        _ = store.run(fixture.command(.background))
        #expect(try store.settings().background == nil)
    }

    @Test func snapshotCommandReturnsChunksEndingWithTheSeq() throws {
        let fixture = try StoreFixture()
        var configuration = MemoStoreConfiguration()
        configuration.snapshotChunkSize = 2
        let store = try fixture.open(configuration)
        for text in ["a", "b", "c"] { _ = store.create(fixture, text: text) }
        let command = fixture.command(.snapshot)
        let result = store.apply(batch: [command], now: 1)
        let chunks = result.snapshots.map(\.message)
        #expect(result.snapshots.allSatisfy { $0.client == "t" })
        #expect(chunks.map(\.chunk) == [0, 1])
        #expect(chunks.map(\.last) == [false, true])
        #expect(chunks.allSatisfy { $0.seq == 3 && $0.requestId == command.cmdId && $0.chunkCount == 2 })
        #expect(chunks.flatMap(\.memos).map(\.text) == ["a", "b", "c"])
        #expect(try store.snapshot(requestId: "r").count == 2)
    }

    @Test func emptyBoardSnapshotIsOneEmptyLastChunk() throws {
        let fixture = try StoreFixture()
        let chunks = try fixture.open().snapshot(requestId: "r")
        #expect(chunks.count == 1)
        #expect(chunks[0].last && chunks[0].memos.isEmpty && chunks[0].seq == 0)
    }
}
