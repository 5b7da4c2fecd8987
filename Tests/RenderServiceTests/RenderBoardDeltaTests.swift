import BusSchema
import MessageFixtures
import RenderCore
import RenderService
import Testing

@testable import ComponentCore

/// The render worker following a memo board through its deltas draws the board a full state
/// shows, and asks once for full states when a delta does not follow.
@Suite struct RenderBoardDeltaTests {
    static let scene = RenderSceneTests.scene

    /// A 100 × 80 memo on the row at y 20.
    static func record(_ id: String, x: Double, z: Int64) -> MemoRecord {
        .memo(id, text: "メモ \(id)", x: x, y: 20, width: 100, height: 80, z: z)
    }

    /// A board `b1` synced to a store holding m1 … m5.
    static func board() -> MemoBoardMachine {
        var machine = MemoBoardMachine(instance: "b1", config: MemoBoardMachine.Config(client: "b1"))
        _ = machine.handle(.started(at: ms(0), session: "s1"))
        let chunk = MemoSnapshot.chunk(
            "b1:s1:1", seq: 3, memos: (1...5).map { Self.record("m\($0)", x: Double($0) * 60, z: Int64($0)) })
        _ = machine.handle(.snapshotChunkReceived(chunk, epoch: 1, at: ms(1)))
        return machine
    }

    /// Hands the scene every state the effects publish; returns the delta outcomes.
    static func publish(
        _ effects: [ComponentEffect], to scene: inout RenderScene, atMs now: Double
    ) throws -> [RenderScene.BoardDeltaOutcome] {
        var outcomes: [RenderScene.BoardDeltaOutcome] = []
        for case .publishState(let state) in effects {
            if state.isDelta {
                outcomes.append(try scene.applyMemoBoardDelta(state.payload, atMs: now))
            } else {
                _ = try scene.applyState(state.payload, atMs: now)
            }
        }
        return outcomes
    }

    @Test func deltasAppliedOnAFullStateDrawTheSameBoardAsTheFullStateAfterThem() throws {
        var machine = Self.board()
        var scene = RenderScene(scene: try Scene(value: Self.scene))
        _ = try scene.applyState(machine.snapshot(at: ms(1)).payload, atMs: 1)
        let events: [MemoBoardMachine.Event] = [
            .panBegan(x: 80, y: 60, at: ms(10)), .panChanged(translation: .init(x: 40, y: 100), at: ms(20)),
            .panEnded(at: ms(30)), .trashRequested(memoID: "m3", at: ms(40)),
            .createRequested(text: "新しい", x: 250, y: 150, color: .blue, at: ms(50)),
            .changeReceived(
                MemoChanged {
                    $0.seq = 4
                    $0.change = .upsert
                    $0.memo = Self.record("m5", x: 5, z: 9)
                }, epoch: 1, at: ms(60)),
        ]
        var applied = 0
        for event in events {
            for outcome in try Self.publish(machine.handle(event), to: &scene, atMs: 100) {
                guard case .applied = outcome else {
                    Issue.record("a delta out of step")
                    continue
                }
                applied += 1
            }
        }
        #expect(applied == events.count)
        _ = scene.frameStarted(atMs: 100)
        let fromDeltas = try #require(try scene.layers(atMs: 100))

        var full = RenderScene(scene: try Scene(value: Self.scene))
        _ = try full.applyState(machine.snapshot(at: ms(60)).payload, atMs: 100)
        let fromFull = try #require(try full.layers(atMs: 100))
        let names = { (root: Layer) in root.sublayers.first { $0.name == "board" }?.sublayers.map(\.name) ?? [] }
        #expect(names(fromDeltas.root) == names(fromFull.root))
        #expect(scene.memoBoard("b1")?.memos == machine.snapshot(at: ms(60)).memos)
        #expect(scene.memoBoard("b1")?.trash?.map(\.id) == ["m3"])
    }

    @Test func aDeltaThatDoesNotFollowAsksForFullStatesOnceAndChangesNothing() throws {
        var machine = Self.board()
        var scene = RenderScene(scene: try Scene(value: Self.scene))
        _ = try scene.applyState(machine.snapshot(at: ms(1)).payload, atMs: 1)
        let before = scene.memoBoard("b1")
        _ = machine.handle(.trashRequested(memoID: "m1", at: ms(10)))  // lost on the way
        let outcomes =
            try Self.publish(machine.handle(.trashRequested(memoID: "m2", at: ms(20))), to: &scene, atMs: 20)
            + Self.publish(machine.handle(.trashRequested(memoID: "m4", at: ms(30))), to: &scene, atMs: 30)
        guard outcomes.count == 2, case .outOfStep(true) = outcomes[0], case .outOfStep(false) = outcomes[1] else {
            Issue.record("expected one request for full states, got \(outcomes)")
            return
        }
        #expect(scene.memoBoard("b1") == before)
        // The full state the request brings puts the copy back in step.
        _ = try scene.applyState(machine.snapshot(at: ms(30)).payload, atMs: 30)
        let next = try Self.publish(machine.handle(.restoreRequested(memoID: "m1", at: ms(40))), to: &scene, atMs: 40)
        guard case .applied? = next.first else {
            Issue.record("the delta after the full state was not applied")
            return
        }
        #expect(scene.memoBoard("b1")?.trash?.map(\.id) == ["m2", "m4"])
    }
}
