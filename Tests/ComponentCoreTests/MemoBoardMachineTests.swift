import BusSchema
import MessageFixtures
import Testing

@testable import ComponentCore

@Suite struct MemoBoardMachineTests {
    static let epoch: UInt64 = 7

    /// A board that publishes full states only (`fullStateEveryMs` 0), so each effect shows the whole board.
    static func machine(fullStateEveryMs: Double = 0) -> MemoBoardMachine {
        MemoBoardMachine(
            instance: "board1",
            config: MemoBoardMachine.Config(
                client: "board1", background: "cork.png", memoWidth: 160, memoHeight: 120,
                retryInitial: .milliseconds(100),
                retryMax: .milliseconds(800), originX: 1000, originY: 0,
                fullStateEvery: .milliseconds(fractional: fullStateEveryMs)))
    }

    static func state(_ effects: [ComponentEffect]) -> MemoBoardState? {
        guard case .memoBoard(let state)? = Effects.states(effects).last else { return nil }
        return state
    }

    /// A board synced to a store at seq 10 holding m1 (20,20) and m2 (300,300), m2 on top.
    static func synced(fullStateEveryMs: Double = 0) -> MemoBoardMachine {
        var machine = Self.machine(fullStateEveryMs: fullStateEveryMs)
        _ = machine.handle(.started(at: ms(0), session: "s1"))
        let chunk = MemoSnapshot.chunk(
            "board1:s1:1", seq: 10,
            memos: [.memo("m1", text: "買い物メモ", x: 20, y: 20, z: 1), .memo("m2", x: 300, y: 300, z: 2)]
        ) {
            $0.settings = MemoSettings {
                $0.arrangeOrder = .color
                $0.background = nil
            }
        }
        _ = machine.handle(.snapshotChunkReceived(chunk, epoch: Self.epoch, at: ms(5)))
        return machine
    }

    static func upsert(_ seq: UInt64, _ record: MemoRecord) -> MemoBoardMachine.Event {
        .changeReceived(
            MemoChanged {
                $0.seq = seq
                $0.change = .upsert
                $0.memo = record
            }, epoch: Self.epoch, at: ms(Double(seq)))
    }

    @Test func memoBoard_started_asksForASnapshotAndShowsSyncing() throws {
        var machine = Self.machine()
        let effects = machine.handle(.started(at: ms(0), session: "s1"))
        #expect(Effects.commands(effects).map(\.op) == [.snapshot])
        #expect(Effects.commands(effects).first?.cmdId == "board1:s1:1")
        let state = try #require(Self.state(effects))
        #expect(state.syncing == true)
        #expect(state.background == "cork.png")
    }

    @Test func memoBoard_snapshotChunks_replaceTheBoardWhenTheLastArrives() throws {
        var machine = Self.machine()
        _ = machine.handle(.started(at: ms(0), session: "s1"))
        let first = MemoSnapshot.chunk("board1:s1:1", 0, last: false, seq: 4, memos: [.memo("m1", x: 0, y: 0, z: 1)])
        #expect(Effects.states(machine.handle(.snapshotChunkReceived(first, epoch: Self.epoch, at: ms(1)))).isEmpty)
        var trashed = MemoRecord.memo("m9", x: 0, y: 0, z: 3)
        trashed.trashedAt = 1000
        let last = MemoSnapshot.chunk(
            "board1:s1:1", 1, seq: 4, memos: [trashed]
        ) { $0.settings = MemoSettings { $0.arrangeOrder = .text } }
        let state = try #require(Self.state(machine.handle(.snapshotChunkReceived(last, epoch: Self.epoch, at: ms(2)))))
        #expect(state.memos.map(\.id) == ["m1"])
        #expect(state.trash?.map(\.id) == ["m9"])
        #expect(state.storeSeq == 4)
        #expect(state.syncing == false)
        #expect(state.pendingCommands == 0)
        #expect(state.arrangeOrder == .text)
    }

    @Test func memoBoard_missingSnapshotChunk_asksAgain() {
        var machine = Self.machine()
        _ = machine.handle(.started(at: ms(0), session: "s1"))
        let skipped = MemoSnapshot.chunk("board1:s1:1", 1, last: true, seq: 4)
        let effects = machine.handle(.snapshotChunkReceived(skipped, epoch: Self.epoch, at: ms(1)))
        #expect(Effects.commands(effects).map(\.cmdId) == ["board1:s1:2"])
        #expect(machine.snapshot(at: ms(1)).pendingCommands == 1)
    }

    @Test func memoBoard_snapshotChunksThatNeverCome_areAskedForAgain() throws {
        var machine = Self.machine()
        _ = machine.handle(.started(at: ms(0), session: "s1"))
        let acked = machine.handle(
            .ackReceived(
                MemoAck.ack("board1:s1:1", .ok, seq: 4), at: ms(10)))
        #expect(Effects.timer(acked) == 1610)
        let first = MemoSnapshot.chunk("board1:s1:1", 0, last: false, seq: 4)
        #expect(Effects.timer(machine.handle(.snapshotChunkReceived(first, epoch: Self.epoch, at: ms(100)))) == 1700)
        #expect(Effects.commands(machine.handle(.timeElapsed(ms(1610)))).isEmpty)
        let again = machine.handle(.timeElapsed(ms(1700)))
        #expect(Effects.commands(again).map(\.cmdId) == ["board1:s1:2"])
        #expect(Effects.commands(again).map(\.op) == [.snapshot])
    }

    @Test func memoBoard_chunkOfAnotherRequest_isIgnored() {
        var machine = Self.machine()
        _ = machine.handle(.started(at: ms(0), session: "s1"))
        let other = MemoSnapshot.chunk("x:1", 0, last: true, seq: 4)
        #expect(machine.handle(.snapshotChunkReceived(other, epoch: Self.epoch, at: ms(1))).isEmpty)
    }

    @Test func memoBoard_changesInSeqOrder_applyOnceEach() throws {
        var machine = Self.synced()
        let state = try #require(Self.state(machine.handle(Self.upsert(11, .memo("m3", x: 5, y: 5, z: 3)))))
        #expect(state.memos.map(\.id) == ["m1", "m2", "m3"])
        #expect(state.storeSeq == 11)
        #expect(machine.handle(Self.upsert(11, .memo("m3", x: 99, y: 99, z: 3))).isEmpty)
        #expect(machine.snapshot(at: ms(20)).memos.last?.x == 5)
    }

    @Test func memoBoard_gapInSeq_asksForASnapshotAndAppliesTheBufferedChangeAfter() throws {
        var machine = Self.synced()
        let effects = machine.handle(Self.upsert(13, .memo("m4", x: 1, y: 1, z: 4)))
        #expect(Effects.commands(effects).map(\.op) == [.snapshot])
        #expect(Self.state(effects)?.syncing == true)
        let request = try #require(Effects.commands(effects).first?.cmdId)
        let chunk = MemoSnapshot.chunk(request, 0, last: true, seq: 12, memos: [.memo("m1", x: 20, y: 20, z: 1)])
        let state = try #require(
            Self.state(machine.handle(.snapshotChunkReceived(chunk, epoch: Self.epoch, at: ms(30)))))
        #expect(state.memos.map(\.id) == ["m1", "m4"])
        #expect(state.storeSeq == 13)
        #expect(state.syncing == false)
    }

    @Test func memoBoard_newStoreEpoch_asksForASnapshot() {
        var machine = Self.synced()
        let change = MemoChanged {
            $0.seq = 1
            $0.change = .delete
            $0.memo = .memo("m1", x: 20, y: 20, z: 1)
        }
        let effects = machine.handle(.changeReceived(change, epoch: 99, at: ms(40)))
        #expect(Effects.commands(effects).map(\.op) == [.snapshot])
    }

    @Test func memoBoard_settingsAndDeleteChanges_apply() {
        var machine = Self.synced()
        _ = machine.handle(
            .changeReceived(
                MemoChanged {
                    $0.seq = 11
                    $0.change = .delete
                    $0.memo = .memo("m1", x: 20, y: 20, z: 1)
                }, epoch: Self.epoch,
                at: ms(1)))
        let state = Self.state(
            machine.handle(
                .changeReceived(
                    MemoChanged {
                        $0.seq = 12
                        $0.change = .settings
                        $0.settings = MemoSettings {
                            $0.arrangeOrder = .updated
                            $0.background = "b.png"
                        }
                    },
                    epoch: Self.epoch, at: ms(2))))
        #expect(state?.memos.map(\.id) == ["m2"])
        #expect(state?.background == "b.png")
        #expect(state?.arrangeOrder == .updated)
    }

    @Test func memoBoard_drag_movesTheMemoAndSendsOneMoveCommand() throws {
        var machine = Self.synced()
        _ = machine.handle(.panBegan(x: 1050, y: 50, at: ms(100)))
        let moving = try #require(Self.state(machine.handle(.panChanged(translation: vector(30, 40), at: ms(120)))))
        #expect(moving.memos.first { $0.id == "m1" }?.x == 50)
        let effects = machine.handle(.panEnded(at: ms(140)))
        let command = try #require(Effects.commands(effects).first)
        #expect(command.op == .move)
        #expect(command.memoId == "m1")
        #expect(command.x == 50)
        #expect(command.y == 60)
        #expect(Self.state(effects)?.memos.first { $0.id == "m1" }?.pending == true)
    }

    @Test func memoBoard_storeEchoDuringDrag_updatesTextButNotThePositionUnderTheFinger() throws {
        var machine = Self.synced()
        _ = machine.handle(.panBegan(x: 1050, y: 50, at: ms(100)))
        _ = machine.handle(.panChanged(translation: vector(30, 40), at: ms(120)))
        // The store echoes an older state of m1 (its old position) with new text, mid-drag.
        let echo = try #require(
            Self.state(machine.handle(Self.upsert(11, .memo("m1", text: "新しい", x: 20, y: 20, z: 1, version: 2)))))
        let shown = try #require(echo.memos.first { $0.id == "m1" })
        #expect(shown.x == 50 && shown.y == 60)
        #expect(shown.text == "新しい")
        let moved = try #require(Self.state(machine.handle(.panChanged(translation: vector(40, 40), at: ms(130)))))
        #expect(moved.memos.first { $0.id == "m1" }?.x == 60)
        let command = try #require(Effects.commands(machine.handle(.panEnded(at: ms(140)))).first)
        #expect(command.op == .move && command.x == 60 && command.y == 60)
        // Once the finger is gone, the store's position is shown again.
        let after = try #require(
            Self.state(machine.handle(Self.upsert(12, .memo("m1", text: "新しい", x: 60, y: 60, z: 1, version: 3)))))
        #expect(after.memos.first { $0.id == "m1" }?.x == 60)
    }

    @Test func memoBoard_storeEchoForAnotherMemoDuringDrag_isShownAsIs() throws {
        var machine = Self.synced()
        _ = machine.handle(.panBegan(x: 1050, y: 50, at: ms(100)))
        let echo = try #require(Self.state(machine.handle(Self.upsert(11, .memo("m2", x: 400, y: 310, z: 2)))))
        #expect(echo.memos.first { $0.id == "m2" }?.x == 400)
    }

    @Test func memoBoard_panOnEmptyBoard_isIgnored() {
        var machine = Self.synced()
        #expect(machine.handle(.panBegan(x: 1900, y: 900, at: ms(0))).isEmpty)
        #expect(machine.handle(.panChanged(translation: vector(10, 10), at: ms(10))).isEmpty)
        #expect(machine.handle(.panEnded(at: ms(20))).isEmpty)
    }

    @Test func memoBoard_pinchAndRotation_resizeAndRotateThenSendOneTransform() throws {
        var machine = Self.synced()
        _ = machine.handle(.pinchBegan(x: 1380, y: 360, at: ms(0)))
        _ = machine.handle(.rotationBegan(x: 1380, y: 360, at: ms(5)))
        _ = machine.handle(.pinchChanged(scale: 1.5, at: ms(10)))
        let rotated = try #require(Self.state(machine.handle(.rotationChanged(rotation: 0.3, at: ms(20)))))
        let memo = try #require(rotated.memos.first { $0.id == "m2" })
        #expect(memo.scale == 1.5)
        #expect(memo.rotation == 0.3)
        #expect(machine.handle(.transformEnded(at: ms(30))).isEmpty)
        let command = try #require(Effects.commands(machine.handle(.transformEnded(at: ms(31)))).first)
        #expect(command.op == .transform)
        #expect(command.scale == 1.5)
        #expect(command.rotation == 0.3)
    }

    @Test func memoBoard_doubleTap_opensTheEditorOnTheTopmostMemo() {
        var machine = Self.synced()
        let effects = machine.handle(.doubleTapRecognized(x: 1380, y: 360, at: ms(0)))
        #expect(Self.state(effects)?.editing == .some("m2"))
        #expect(Effects.commands(effects).map(\.op) == [.front])
        #expect(Self.state(machine.handle(.doubleTapRecognized(x: 1900, y: 900, at: ms(10))))?.editing == .some(nil))
        _ = machine.handle(.doubleTapRecognized(x: 1380, y: 360, at: ms(20)))
        #expect(Self.state(machine.handle(.editorClosed(at: ms(30))))?.editing == .some(nil))
    }

    @Test func memoBoard_tap_bringsTheMemoToTheFrontWithoutOpeningTheEditor() {
        var machine = Self.synced()
        let effects = machine.handle(.tapRecognized(x: 1380, y: 360, at: ms(0)))
        #expect(Effects.commands(effects).map(\.op) == [.front])
        #expect(Effects.commands(effects).first?.memoId == "m2")
        #expect(Self.state(effects)?.editing == .some(nil))
        #expect(machine.handle(.tapRecognized(x: 1900, y: 900, at: ms(10))).isEmpty)
    }

    @Test func memoBoard_longPress_selects() {
        var machine = Self.synced()
        #expect(Self.state(machine.handle(.longPressBegan(x: 1050, y: 50, at: ms(0))))?.selected == "m1")
    }

    @Test func memoBoard_hitTest_honoursScaleAndRotation() {
        var machine = Self.synced()
        _ = machine.handle(.pinchBegan(x: 1100, y: 80, at: ms(0)))
        _ = machine.handle(.pinchChanged(scale: 2, at: ms(10)))
        _ = machine.handle(.transformEnded(at: ms(20)))
        // m1's centre is (100, 80); scaled ×2 it reaches x = 100 - 160 = -60, so board x 10 hits it.
        #expect(Self.state(machine.handle(.longPressBegan(x: 1010, y: 80, at: ms(30))))?.selected == "m1")
    }

    @Test func memoBoard_everyChange_becomesACommandWithAUniqueIDThatValidates() throws {
        var machine = Self.synced()
        var effects: [ComponentEffect] = []
        effects += machine.handle(.createRequested(text: "新しいメモ", x: 40, y: 50, color: .pink, at: ms(1)))
        effects += machine.handle(.editRequested(memoID: "m1", text: "牛乳", at: ms(2)))
        effects += machine.handle(.trashRequested(memoID: "m2", at: ms(3)))
        effects += machine.handle(.restoreRequested(memoID: "m2", at: ms(4)))
        effects += machine.handle(.trashRequested(memoID: "m2", at: ms(5)))
        effects += machine.handle(.emptyTrashRequested(at: ms(6)))
        effects += machine.handle(.arrangeRequested(.created, at: ms(7)))
        effects += machine.handle(.searchRequested(query: "牛", at: ms(8)))
        effects += machine.handle(.backgroundRequested(image: "deploy/assets/cork.png", at: ms(9)))
        let commands = Effects.commands(effects)
        #expect(
            commands.map(\.op) == [
                .create, .edit, .trash, .restore, .trash, .emptyTrash, .arrange, .search, .background,
            ])
        #expect(Set(commands.map(\.cmdId)).count == commands.count)
        let validator = try Repository.validator("memo.command")
        for command in commands {
            let payload = try Value(messagePack: command.messagePack)
            #expect(validator.violations(of: payload).isEmpty, "\(payload.json)")
        }
        let state = machine.snapshot(at: ms(10))
        #expect(state.memos.allSatisfy { $0.minimized })
        #expect(state.trash?.isEmpty == true)
        #expect(state.pendingCommands == commands.count)
    }

    @Test func memoBoard_arrange_asksTheStoreToFillTheBoardsOwnWidth() {
        let board = MemoBoardMachine(
            instance: "board1", config: MemoBoardMachine.Config(client: "board1", originX: 1000, width: 420))
        var machine = board
        let arrange = Effects.commands(machine.handle(.arrangeRequested(.color, at: ms(1)))).first
        #expect(arrange?.op == .arrange)
        #expect(arrange?.width == 420, "rows as wide as the board's view, not the store's default")
        var unsized = Self.machine()
        #expect(Effects.commands(unsized.handle(.arrangeRequested(.color, at: ms(1)))).first?.width == nil)
    }

    @Test func memoBoard_droppedAcks_resendTheSameCommandWithBackoffUntilAcknowledged() throws {
        var machine = Self.synced()
        let created = machine.handle(.createRequested(text: "a", x: 0, y: 0, color: nil, at: ms(1000)))
        let command = try #require(Effects.commands(created).first)
        var resends: [Double] = []
        var timer = Effects.timer(created)
        while let at = timer, at < 5000 {
            let effects = machine.handle(.timeElapsed(ms(at)))
            #expect(Effects.commands(effects).map(\.cmdId) == [command.cmdId])
            resends.append(at)
            timer = Effects.timer(effects)
        }
        // 100, 200, 400, then capped at 800 ms.
        #expect(resends.prefix(5) == [1100, 1300, 1700, 2500, 3300])
        let acked = machine.handle(
            .ackReceived(
                MemoAck.ack(command.cmdId, .ok, seq: 11) {
                    $0.memoId = command.memoId
                    $0.version = 1
                }, at: ms(5000)))
        #expect(acked.contains(.cancelTimer))
        #expect(machine.handle(.timeElapsed(ms(9000))).isEmpty)
        // The store applied it once; a duplicate ack for a resend changes nothing.
        let duplicate = MemoAck.ack(command.cmdId, .duplicate, seq: 11)
        #expect(machine.handle(.ackReceived(duplicate, at: ms(5001))).isEmpty)
        let record = MemoRecord.memo(try #require(command.memoId), text: "a", x: 0, y: 0, z: 3)
        _ = machine.handle(Self.upsert(11, record))
        _ = machine.handle(Self.upsert(11, record))
        let state = machine.snapshot(at: ms(5002))
        #expect(state.memos.filter { $0.id == command.memoId }.count == 1)
        #expect(state.pendingCommands == 0)
        #expect(state.memos.first { $0.id == command.memoId }?.pending == false)
    }

    @Test func memoBoard_conflictAck_asksForASnapshot() throws {
        var machine = Self.synced()
        let edit = try #require(
            Effects.commands(machine.handle(.editRequested(memoID: "m1", text: "x", at: ms(0)))).first)
        #expect(edit.baseVersion == 1)
        let effects = machine.handle(
            .ackReceived(
                MemoAck.ack(edit.cmdId, .conflict, seq: 10) {
                    $0.version = 3
                }, at: ms(10)))
        #expect(Effects.commands(effects).map(\.op) == [.snapshot])
    }

    @Test func memoBoard_search_highlightsMatchesOnTheBoardAndInTheTrashInScalarOffsets() throws {
        var machine = Self.synced()
        _ = machine.handle(Self.upsert(11, .memo("m2", text: "古いメモ", x: 300, y: 300, z: 2)))
        _ = machine.handle(.trashRequested(memoID: "m2", at: ms(20)))
        let state = try #require(Self.state(machine.handle(.searchRequested(query: "メモ", at: ms(30)))))
        let search = try #require(state.search ?? nil)
        #expect(
            search.matches == [
                MemoBoardState.Match(memoID: "m1", trashed: false, ranges: [3..<5]),
                MemoBoardState.Match(memoID: "m2", trashed: true, ranges: [2..<4]),
            ])
        #expect(Self.state(machine.handle(.searchRequested(query: "", at: ms(40))))?.search == .some(nil))
    }

    @Test func memoBoard_searchAck_replacesTheMatchesWithTheStoresResults() throws {
        var machine = Self.synced()
        let search = try #require(Effects.commands(machine.handle(.searchRequested(query: "買", at: ms(0)))).first)
        let results = [MemoSearchHit(memoId: "m7", text: "買う", trashed: true, ranges: [0..<1])]
        let state = Self.state(
            machine.handle(
                .ackReceived(
                    MemoAck.ack(search.cmdId, .ok, seq: 10) {
                        $0.results = results
                    }, at: ms(5))))
        let matches = [MemoBoardState.Match(memoID: "m7", trashed: true, ranges: [0..<1])]
        #expect(state?.search == .some(MemoBoardState.Search(query: "買", matches: matches)))
    }

    @Test func memoBoard_searchAckInParts_showsEveryResultOnceTheLastPartArrives() throws {
        var machine = Self.synced()
        let search = try #require(Effects.commands(machine.handle(.searchRequested(query: "買", at: ms(0)))).first)
        let results = (0..<40).map {
            MemoSearchHit(memoId: "m\($0)", text: String(repeating: "買う", count: 3000), trashed: false, ranges: [0..<1])
        }
        let parts = MemoAck.ack(search.cmdId, .ok, seq: 10) {
            $0.results = results
        }.chunked(
            maximumBytes: 64 * 1024)
        #expect(parts.count > 2)
        for part in parts.dropLast() {
            #expect(machine.handle(.ackReceived(part, at: ms(5))).isEmpty)
            #expect(machine.handle(.ackReceived(part, at: ms(6))).isEmpty)
        }
        let state = Self.state(machine.handle(.ackReceived(parts[parts.count - 1], at: ms(7))))
        #expect(state?.search??.matches.map(\.memoID) == results.map(\.memoId))
        #expect(state?.pendingCommands == 0)
    }

    @Test func memoBoard_appWillResignActive_cancelsTheDragAndFlushesUnsentCommands() throws {
        var machine = Self.synced()
        _ = machine.handle(.createRequested(text: "a", x: 0, y: 0, color: nil, at: ms(0)))
        _ = machine.handle(.panBegan(x: 1050, y: 50, at: ms(10)))
        _ = machine.handle(.panChanged(translation: vector(100, 100), at: ms(20)))
        let effects = machine.handle(.appWillResignActive(at: ms(30)))
        #expect(Effects.commands(effects).map(\.op) == [.create])
        #expect(effects.contains(.cancelTimer))
        #expect(Self.state(effects)?.memos.first { $0.id == "m1" }?.x == 20)
        #expect(machine.handle(.panChanged(translation: vector(5, 5), at: ms(40))).isEmpty)
        #expect(Effects.timer(machine.handle(.appDidBecomeActive(at: ms(50)))) != nil)
    }

    @Test func memoBoard_eventsThatDoNotFitTheState_areIgnored() {
        var machine = Self.synced()
        #expect(machine.handle(.transformEnded(at: ms(0))).isEmpty)
        #expect(machine.handle(.pinchChanged(scale: 2, at: ms(0))).isEmpty)
        #expect(machine.handle(.rotationChanged(rotation: 1, at: ms(0))).isEmpty)
        #expect(machine.handle(.gestureCancelled(at: ms(0))).isEmpty)
        #expect(
            machine.handle(
                .ackReceived(
                    MemoAck.ack("nope", .ok, seq: 1), at: ms(0))
            ).isEmpty)
        #expect(machine.handle(.editRequested(memoID: "nope", text: "x", at: ms(0))).isEmpty)
        #expect(machine.handle(.restoreRequested(memoID: "m1", at: ms(0))).isEmpty)
        #expect(machine.handle(.timeElapsed(ms(10))).isEmpty)
        #expect(machine.handle(.appWillResignActive(at: ms(10))).isEmpty)
        #expect(machine.handle(.appDidBecomeActive(at: ms(10))).isEmpty)
        _ = machine.handle(.panBegan(x: 1050, y: 50, at: ms(20)))
        #expect(machine.handle(.tapRecognized(x: 1050, y: 50, at: ms(21))).isEmpty)
        #expect(machine.handle(.longPressBegan(x: 1050, y: 50, at: ms(21))).isEmpty)
    }
}
