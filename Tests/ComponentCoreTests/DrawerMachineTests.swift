import BusSchema
import GestureCore
import Testing

@testable import ComponentCore

@Suite struct DrawerMachineTests {
    /// A 240-point menu over a 280 × 1000 view at (0, 0), as in the demo scene.
    static func machine(edge: DrawerState.Side = .left) -> DrawerMachine {
        DrawerMachine(
            instance: "drawer1",
            config: DrawerMachine.Config(edge: edge, width: 240, frame: Rect(x: 0, y: 0, width: 280, height: 1000)))
    }

    static func state(_ effects: [ComponentEffect]) -> DrawerState? {
        guard case .drawer(let state)? = Effects.states(effects).last else { return nil }
        return state
    }

    @Test func drawer_startsClosedListeningForRight() {
        let state = Self.machine().snapshot(at: ms(0))
        #expect(!state.open)
        #expect(state.progress == 0)
        #expect(state.listeningDirection == .right)
    }

    @Test func drawer_rightSwipe_opensAndFlipsTheListeningDirection() throws {
        var machine = Self.machine()
        let effects = machine.handle(.swipeRecognized(.right, at: ms(100)))
        let state = try #require(Self.state(effects))
        #expect(state.open)
        #expect(state.listeningDirection == .left)
        #expect(state.progress == 1, "the published state carries the target")
        #expect(Effects.timer(effects) == 400)
        #expect(machine.snapshot(at: ms(350)).progress == 0.5)
        let settled = Self.state(machine.handle(.timeElapsed(ms(400))))
        #expect(settled?.progress == 1)
        #expect(settled?.animation == nil, "the settled state is not animated again")
    }

    @Test func drawer_leftSwipeWhenOpen_closesAndFlipsBack() {
        var machine = Self.machine()
        _ = machine.handle(.swipeRecognized(.right, at: ms(0)))
        _ = machine.handle(.timeElapsed(ms(300)))
        let state = Self.state(machine.handle(.swipeRecognized(.left, at: ms(1000))))
        #expect(state?.open == false)
        #expect(state?.listeningDirection == .right)
        #expect(Self.state(machine.handle(.timeElapsed(ms(1300))))?.progress == 0)
    }

    @Test func drawer_swipeInTheDirectionItIsNotListeningFor_isIgnored() {
        var machine = Self.machine()
        #expect(machine.handle(.swipeRecognized(.left, at: ms(0))).isEmpty)
        #expect(machine.handle(.swipeRecognized(.up, at: ms(0))).isEmpty)
        _ = machine.handle(.swipeRecognized(.right, at: ms(10)))
        #expect(machine.handle(.swipeRecognized(.right, at: ms(20))).isEmpty)
        #expect(machine.handle(.openRequested(at: ms(20))).isEmpty)
    }

    @Test func drawer_rightEdgeMenu_opensWithALeftSwipe() {
        var machine = Self.machine(edge: .right)
        #expect(machine.snapshot(at: ms(0)).listeningDirection == .left)
        #expect(Self.state(machine.handle(.swipeRecognized(.left, at: ms(0))))?.open == true)
    }

    @Test func drawer_openAndCloseCommands_toggleIt() {
        var machine = Self.machine()
        #expect(machine.handle(.closeRequested(at: ms(0))).isEmpty)
        #expect(Self.state(machine.handle(.openRequested(at: ms(0))))?.open == true)
        #expect(Self.state(machine.handle(.closeRequested(at: ms(300))))?.open == false)
    }

    @Test func drawer_reversalMidAnimation_startsFromTheCurrentProgress() {
        var machine = Self.machine()
        _ = machine.handle(.swipeRecognized(.right, at: ms(0)))
        let reversed = Self.state(machine.handle(.swipeRecognized(.left, at: ms(250))))
        #expect(reversed?.progress == 0, "the state carries the target")
        // Halfway open at 250 ms; the slide back waits out its delay there, then takes 100 ms.
        #expect(machine.snapshot(at: ms(449)).progress == 0.5)
        #expect(machine.snapshot(at: ms(500)).progress == 0.25)
        #expect(machine.snapshot(at: ms(550)).progress == 0)
    }

    @Test func drawer_staleTimer_isIgnored() {
        var machine = Self.machine()
        #expect(machine.handle(.timeElapsed(ms(100))).isEmpty)
        _ = machine.handle(.swipeRecognized(.right, at: ms(0)))
        #expect(machine.handle(.timeElapsed(ms(100))).isEmpty)
    }

    @Test func drawer_togglesAsTheSourceAnimates_a100msSlideAfterA200msDelay() throws {
        var machine = Self.machine()
        let effects = machine.handle(.swipeRecognized(.right, at: ms(1000)))
        let state = try #require(Self.state(effects))
        #expect(
            state.animation
                == StateAnimation {
                    $0.durationMs = 100
                    $0.delayMs = 200
                    $0.curve = .easeInOut
                })
        #expect(machine.snapshot(at: ms(1199)).progress == 0, "the menu holds still through the delay")
        #expect(machine.snapshot(at: ms(1250)).progress == 0.5)
        #expect(Effects.timer(effects) == 1300, "the slide ends 100 ms after the delay")
        #expect(machine.snapshot(at: ms(1300)).progress == 1)
    }

    @Test func drawer_closedMenuLeavesA44PointTab() {
        #expect(DrawerMachine.tabWidth == 44)
        #expect(Self.machine().snapshot(at: ms(0)).tab == 44)
        #expect(DrawerState.panelX(progress: 0, width: 240, tab: 44, edge: .left, viewWidth: 280) == 44 - 240)
        #expect(DrawerState.panelX(progress: 0, width: 240, tab: 44, edge: .right, viewWidth: 280) == 280 - 44)
        #expect(DrawerState.panelX(progress: 1, width: 240, tab: 44, edge: .right, viewWidth: 280) == 40)
    }

    @Test func drawer_swipeSetup_listensOneWayAndReceivesOnThePanelWhereverItIs() throws {
        var machine = Self.machine()
        let closed = machine.swipeSetup(for: machine.snapshot(at: ms(0)))
        #expect(closed.directions == [.right])
        #expect(closed.region == Rect(x: 0, y: 0, width: 44, height: 1000), "the tab only")
        let opening = try #require(Self.state(machine.handle(.swipeRecognized(.right, at: ms(0)))))
        let open = machine.swipeSetup(for: opening)
        #expect(open.directions == [.left], "the opposite swipe now fails")
        #expect(open.region == Rect(x: 0, y: 0, width: 240, height: 1000), "the model frame jumps to the target")
        var halfway = opening
        halfway.progress = 0.5
        #expect(machine.swipeSetup(for: halfway).region.width == 44 + 98)
    }

    @Test func drawer_swipeSetup_ofARightEdgeMenuInAnOffsetView() {
        let machine = DrawerMachine(
            instance: "drawer1",
            config: DrawerMachine.Config(edge: .right, width: 200, frame: Rect(x: 100, y: 50, width: 300, height: 400)))
        let setup = machine.swipeSetup(for: machine.snapshot(at: ms(0)))
        #expect(setup.directions == [.left])
        #expect(setup.region == Rect(x: 356, y: 50, width: 44, height: 400))
    }
}
