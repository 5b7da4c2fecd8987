import BusSchema
import ComponentCore
import Testing

/// The memo board's editor as the board publishes it: opening is animated (the memo enlarges,
/// the editor fades in) and one popover is open at a time.
@Suite struct MemoBoardEditorTests {
    @Test func openingTheEditorPublishesAFullStateCarryingItsAnimation() throws {
        // Deltas between full states once a minute, so only the opening forces a full state.
        var machine = MemoBoardMachineTests.synced(fullStateEveryMs: 60_000)
        _ = machine.handle(.longPressBegan(x: 2000, y: 2000, at: ms(6)))
        let opened = try #require(
            MemoBoardMachineTests.state(machine.handle(.doubleTapRecognized(x: 1380, y: 360, at: ms(10)))))
        #expect(opened.editing == .some("m2"))
        #expect(
            opened.animation
                == StateAnimation {
                    $0.durationMs = MemoBoardMachine.editorOpening.milliseconds
                })
        #expect(MemoBoardMachine.editorOpening == .milliseconds(300))
        // What follows while it stays open carries no animation.
        let next = Effects.states(machine.handle(.longPressBegan(x: 1050, y: 50, at: ms(20))))
        guard case .memoBoardDelta(let delta)? = next.first else {
            Issue.record("a delta follows the opening, got \(next)")
            return
        }
        #expect(delta.editing == "m2")
        let closed = Effects.states(machine.handle(.editorClosed(at: ms(30))))
        guard case .memoBoardDelta(let shut)? = closed.first else {
            Issue.record("closing is not animated: a delta, got \(closed)")
            return
        }
        #expect(shut.editing == nil)
    }

    @Test func aSearchClosesTheEditorSoOnePopoverIsOpenAtATime() throws {
        var machine = MemoBoardMachineTests.synced()
        _ = machine.handle(.doubleTapRecognized(x: 1380, y: 360, at: ms(10)))
        let state = try #require(MemoBoardMachineTests.state(machine.handle(.searchRequested(query: "メモ", at: ms(20)))))
        #expect(state.editing == .some(nil), "the editor closed")
        #expect((state.search ?? nil)?.query == "メモ")
    }

    @Test func theOpeningAnimationSurvivesTheWire() throws {
        var machine = MemoBoardMachineTests.synced()
        let opened = try #require(
            MemoBoardMachineTests.state(machine.handle(.doubleTapRecognized(x: 1380, y: 360, at: ms(10)))))
        let decoded = try MemoBoardState(payload: opened.payload)
        #expect(decoded.animation?.durationMs == 300)
        #expect(opened.payload["animation"]?["curve"]?.stringValue == "easeInOut")
    }
}
