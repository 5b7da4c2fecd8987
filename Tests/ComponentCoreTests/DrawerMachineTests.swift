import BusSchema
import ComponentCore
import Testing

@Suite struct DrawerMachineTests {
    static func machine(edge: DrawerState.Side = .left) -> DrawerMachine {
        DrawerMachine(instance: "drawer1", config: DrawerMachine.Config(edge: edge, width: 240))
    }

    static func state(_ effects: [ComponentEffect]) -> DrawerState? {
        guard case .drawer(let state)? = Effects.states(effects).last else { return nil }
        return state
    }

    @Test func drawer_startsClosedListeningForRight() {
        let state = Self.machine().snapshot(tMs: 0)
        #expect(!state.open)
        #expect(state.progress == 0)
        #expect(state.listeningDirection == .right)
    }

    @Test func drawer_rightSwipe_opensAndFlipsTheListeningDirection() throws {
        var machine = Self.machine()
        let effects = machine.handle(.swipeRecognized(.right, tMs: 100))
        let state = try #require(Self.state(effects))
        #expect(state.open)
        #expect(state.listeningDirection == .left)
        #expect(state.progress == 1, "the published state carries the target")
        #expect(state.animation == StateAnimation(durationMs: 250, delayMs: 0, curve: .easeInOut))
        #expect(Effects.timer(effects) == 350)
        #expect(machine.snapshot(tMs: 225).progress == 0.5)
        let settled = Self.state(machine.handle(.timeElapsed(350)))
        #expect(settled?.progress == 1)
        #expect(settled?.animation == nil, "the settled state is not animated again")
    }

    @Test func drawer_leftSwipeWhenOpen_closesAndFlipsBack() {
        var machine = Self.machine()
        _ = machine.handle(.swipeRecognized(.right, tMs: 0))
        _ = machine.handle(.timeElapsed(250))
        let state = Self.state(machine.handle(.swipeRecognized(.left, tMs: 1000)))
        #expect(state?.open == false)
        #expect(state?.listeningDirection == .right)
        #expect(Self.state(machine.handle(.timeElapsed(1250)))?.progress == 0)
    }

    @Test func drawer_swipeInTheDirectionItIsNotListeningFor_isIgnored() {
        var machine = Self.machine()
        #expect(machine.handle(.swipeRecognized(.left, tMs: 0)).isEmpty)
        #expect(machine.handle(.swipeRecognized(.up, tMs: 0)).isEmpty)
        _ = machine.handle(.swipeRecognized(.right, tMs: 10))
        #expect(machine.handle(.swipeRecognized(.right, tMs: 20)).isEmpty)
        #expect(machine.handle(.openRequested(tMs: 20)).isEmpty)
    }

    @Test func drawer_rightEdgeMenu_opensWithALeftSwipe() {
        var machine = Self.machine(edge: .right)
        #expect(machine.snapshot(tMs: 0).listeningDirection == .left)
        #expect(Self.state(machine.handle(.swipeRecognized(.left, tMs: 0)))?.open == true)
    }

    @Test func drawer_openAndCloseCommands_toggleIt() {
        var machine = Self.machine()
        #expect(machine.handle(.closeRequested(tMs: 0)).isEmpty)
        #expect(Self.state(machine.handle(.openRequested(tMs: 0)))?.open == true)
        #expect(Self.state(machine.handle(.closeRequested(tMs: 300)))?.open == false)
    }

    @Test func drawer_reversalMidAnimation_startsFromTheCurrentProgress() {
        var machine = Self.machine()
        _ = machine.handle(.swipeRecognized(.right, tMs: 0))
        let animation = Effects.animations(machine.handle(.swipeRecognized(.left, tMs: 125))).first
        #expect(animation?.from == 0.5)
        #expect(animation?.to == 0)
    }

    @Test func drawer_staleTimer_isIgnored() {
        var machine = Self.machine()
        #expect(machine.handle(.timeElapsed(100)).isEmpty)
        _ = machine.handle(.swipeRecognized(.right, tMs: 0))
        #expect(machine.handle(.timeElapsed(100)).isEmpty)
    }
}
