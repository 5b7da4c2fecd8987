import BusSchema
import MessageFixtures
import Testing

@testable import ComponentCore

/// A memo board publishes what changed, not the whole board: the bytes of a change do not grow
/// with the board, and a copy kept from deltas is the board a full state shows.
@Suite struct MemoBoardDeltaTests {
    /// A board (deltas between full states every 5 s) synced to a store holding `count` memos.
    static func board(memos count: Int) -> MemoBoardMachine {
        var machine = MemoBoardMachine(
            instance: "board1", config: MemoBoardMachine.Config(client: "board1", originX: 0, originY: 0))
        _ = machine.handle(.started(at: ms(0), session: "s1"))
        var records: [MemoRecord] = []
        for index in 0..<count {
            let x = Double(index % 100) * 200 + 5000
            let y = Double(index / 100) * 200
            records.append(
                .memo("m\(index)", text: "メモ \(index)", x: x, y: y, z: Int64(index + 10), color: "yellow"))
        }
        let target = MemoRecord.memo("target", text: "動かす", x: 20, y: 20, z: 1, color: "pink")
        let chunk = MemoSnapshot.chunk("board1:s1:1", seq: 10, memos: records + [target])
        _ = machine.handle(.snapshotChunkReceived(chunk, epoch: 7, at: ms(5)))
        return machine
    }

    /// The bytes the board publishes for dragging `target` and letting it go.
    static func dragBytes(memos count: Int) -> [Int] {
        var machine = Self.board(memos: count)
        var sizes: [Int] = []
        let events: [MemoBoardMachine.Event] = [
            .panBegan(x: 100, y: 60, at: ms(100)), .panChanged(translation: .init(x: 30, y: 5), at: ms(116)),
            .panEnded(at: ms(132)),
        ]
        for event in events {
            for case .publishState(let state) in machine.handle(event) {
                #expect(state.isDelta)
                var writer = MessagePackWriter()
                state.encode(to: &writer)
                sizes.append(writer.bytes.count)
            }
        }
        return sizes
    }

    @Test func aChangeOnABoardOfNMemosPublishesBytesIndependentOfN() {
        let small = Self.dragBytes(memos: 10)
        #expect(small.count == 3)
        #expect(Self.dragBytes(memos: 2000) == small)
        #expect(small.allSatisfy { $0 < 600 })
    }

    @Test func aFullStateGoesOutPeriodicallyAndCarriesTheRevisionTheNextDeltaBuildsOn() throws {
        var machine = Self.board(memos: 3)
        let dragged = machine.handle(.panBegan(x: 100, y: 60, at: ms(100)))
        guard case .publishState(.memoBoardDelta(let delta))? = dragged.last else {
            Issue.record("no delta")
            return
        }
        let later = machine.handle(.panChanged(translation: .init(x: 1, y: 1), at: ms(6000)))
        guard case .publishState(.memoBoard(let full))? = later.last else {
            Issue.record("no periodic full state")
            return
        }
        #expect(full.revision == delta.revision + 1)
        let next = machine.handle(.panChanged(translation: .init(x: 2, y: 1), at: ms(6016)))
        guard case .publishState(.memoBoardDelta(let after))? = next.last else {
            Issue.record("no delta after the full state")
            return
        }
        #expect(after.baseRevision == full.revision)
    }

    @Test func aBoardQuietAfterADeltaRestatesItselfInFullOnceWithTheDeltasRevision() throws {
        var machine = Self.board(memos: 3)
        _ = machine.handle(.panBegan(x: 100, y: 60, at: ms(100)))
        let moved = machine.handle(.panChanged(translation: .init(x: 30, y: 5), at: ms(116)))
        guard case .publishState(.memoBoardDelta(let delta))? = moved.last else {
            Issue.record("no delta")
            return
        }
        let settle = machine.config.settleAfter
        #expect(machine.handle(.timeElapsed(ms(116) + settle - .milliseconds(1))).isEmpty)
        let quiet = machine.handle(.timeElapsed(ms(116) + settle))
        guard case .publishState(.memoBoard(let full))? = quiet.last, quiet.count == 1 else {
            Issue.record("no full state after the quiet: \(quiet)")
            return
        }
        #expect(full.revision == delta.revision)
        #expect(full == machine.snapshot(at: ms(116) + settle))
        #expect(machine.handle(.timeElapsed(ms(116) + settle * 4)).isEmpty)
        let next = machine.handle(.panChanged(translation: .init(x: 31, y: 5), at: ms(400)))
        guard case .publishState(.memoBoardDelta(let after))? = next.last else {
            Issue.record("no delta after the restatement")
            return
        }
        #expect(after.baseRevision == full.revision)
    }

    /// Everything a board does, followed by a copy from its first full state and every message
    /// after: the copy is the board's own full state at the end, field for field.
    @Test func aCopyKeptFromDeltasIsTheBoardAFullStateShows() throws {
        var machine = Self.board(memos: 40)
        var replica = MemoBoardReplica(machine.snapshot(at: ms(5)))
        let change = MemoRecord.memo(
            "m3", text: "変更", x: 1, y: 1, width: 100, height: 100, z: 99, color: "blue", version: 2
        ) {
            $0.scale = 2
            $0.rotation = 0.5
        }
        let events: [MemoBoardMachine.Event] = [
            .panBegan(x: 100, y: 60, at: ms(100)), .panChanged(translation: .init(x: 30, y: 5), at: ms(116)),
            .panEnded(at: ms(132)), .createRequested(text: "新しい", x: 300, y: 300, color: .green, at: ms(140)),
            .editRequested(memoID: "m1", text: "書き換え", at: ms(150)), .trashRequested(memoID: "m2", at: ms(160)),
            .searchRequested(query: "メモ", at: ms(170)),
            .changeReceived(
                MemoChanged {
                    $0.seq = 11
                    $0.change = .upsert
                    $0.memo = change
                }, epoch: 7, at: ms(180)),
            .changeReceived(
                MemoChanged {
                    $0.seq = 12
                    $0.change = .delete
                    $0.memo = .memo("m4", width: 1, height: 1, z: 0)
                }, epoch: 7,
                at: ms(190)),
            .restoreRequested(memoID: "m2", at: ms(200)), .trashRequested(memoID: "m5", at: ms(210)),
            .searchRequested(query: "", at: ms(220)), .emptyTrashRequested(at: ms(230)),
            .doubleTapRecognized(x: 300, y: 300, at: ms(240)),
            .ackReceived(
                MemoAck.ack("board1:s1:3", .ok, seq: 13) {
                    $0.version = 5
                }, at: ms(250)),
        ]
        var deltas = 0
        for event in events {
            for case .publishState(let state) in machine.handle(event) {
                switch state {
                case .memoBoardDelta(let delta):
                    let applied = replica.apply(delta)
                    #expect(applied)
                    deltas += 1
                case .memoBoard(let full): replica = MemoBoardReplica(full)
                default: Issue.record("not a board state")
                }
            }
        }
        #expect(deltas >= events.count - 2)
        #expect(replica.state == machine.snapshot(at: ms(240)).with(tMs: replica.state.tMs))
    }

    @Test func aDeltaThatDoesNotFollowTheCopyIsRefusedAndChangesNothing() {
        var machine = Self.board(memos: 3)
        var replica = MemoBoardReplica(machine.snapshot(at: ms(5)))
        let before = replica.state
        _ = machine.handle(.panBegan(x: 100, y: 60, at: ms(100)))
        guard
            case .publishState(.memoBoardDelta(let second))? = machine.handle(
                .panChanged(translation: .init(x: 9, y: 9), at: ms(110))
            ).last
        else {
            Issue.record("no delta")
            return
        }
        let applied = replica.apply(second)
        #expect(!applied)
        #expect(replica.state == before)
    }

    @Test func commandIdsAndNewMemoIdsCarryTheSessionSoARestartNeverRepeatsThem() {
        var first = MemoBoardMachine(instance: "board1", config: MemoBoardMachine.Config(client: "board1"))
        var second = first
        let one =
            first.handle(.started(at: ms(0), session: "5f3a"))
            + first.handle(
                .createRequested(text: "a", x: 0, y: 0, color: nil, at: ms(1)))
        let two =
            second.handle(.started(at: ms(0), session: "91c0"))
            + second.handle(
                .createRequested(text: "a", x: 0, y: 0, color: nil, at: ms(1)))
        let ids = (Effects.commands(one) + Effects.commands(two)).map(\.cmdId)
        #expect(ids == ["board1:5f3a:1", "board1:5f3a:2", "board1:91c0:1", "board1:91c0:2"])
        let memos = (Effects.commands(one) + Effects.commands(two)).compactMap(\.memoId)
        #expect(memos == ["board1-5f3a-2", "board1-91c0-2"])
    }
}

extension MemoBoardState {
    fileprivate func with(tMs: Double) -> MemoBoardState {
        var state = self
        state.tMs = tMs
        return state
    }
}
