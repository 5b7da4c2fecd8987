import BusSchema
import ComponentCore
import Testing

@Suite struct PullToRefreshMachineTests {
    static func machine() -> PullToRefreshMachine {
        PullToRefreshMachine(
            instance: "refresh1",
            config: PullToRefreshMachine.Config(
                headerHeight: 60, thresholdMargin: 20, timeoutMs: 5000, viewportHeight: 600))
    }

    static func state(_ effects: [ComponentEffect]) -> PullToRefreshState? {
        guard case .pullToRefresh(let state)? = Effects.states(effects).last else { return nil }
        return state
    }

    /// A translation whose rubber-banded pull is well past the 80 pt threshold.
    static let farPull = 300.0

    static func armed() -> PullToRefreshMachine {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(atTop: true, tMs: 0))
        _ = machine.handle(.panChanged(translationY: Self.farPull, tMs: 50))
        return machine
    }

    @Test func pullToRefresh_panBeganAtTop_entersPullingDownWithThePullingLabel() throws {
        var machine = Self.machine()
        let state = try #require(Self.state(machine.handle(.panBegan(atTop: true, tMs: 0))))
        #expect(state.phase == .pullingDown)
        #expect(state.label == "引き下げて…")
        #expect(state.threshold == 80)
        #expect(state.arrowAngle == 0)
    }

    @Test func pullToRefresh_aPanThatLeavesTheHeaderWhereItIs_publishesNothing() throws {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(atTop: true, tMs: 0))
        // Up past where the pull began: the header stays at 0, so no state says so again.
        #expect(machine.handle(.panChanged(translationY: -40, tMs: 10)).isEmpty)
        #expect(machine.handle(.panChanged(translationY: -80, tMs: 20)).isEmpty)
        let down = try #require(Self.state(machine.handle(.panChanged(translationY: 30, tMs: 30))))
        #expect(down.offset > 0)
        #expect(machine.handle(.panChanged(translationY: 30, tMs: 40)).isEmpty, "the same pull again")
        let back = try #require(Self.state(machine.handle(.panChanged(translationY: -10, tMs: 50))))
        #expect(back.offset == 0 && back.phase == .pullingDown)
    }

    @Test func pullToRefresh_panBeganBelowTheTop_isIgnoredUntilItEnds() {
        var machine = Self.machine()
        #expect(machine.handle(.panBegan(atTop: false, tMs: 0)).isEmpty)
        #expect(machine.handle(.panChanged(translationY: 300, tMs: 10)).isEmpty)
        #expect(machine.handle(.panEnded(tMs: 20)).isEmpty)
        #expect(Self.state(machine.handle(.panBegan(atTop: true, tMs: 30)))?.phase == .pullingDown)
    }

    @Test func pullToRefresh_pullPastThreshold_entersOverThresholdAndStatesTheArrowsTurnOver100ms() throws {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(atTop: true, tMs: 0))
        let small = try #require(Self.state(machine.handle(.panChanged(translationY: 40, tMs: 10))))
        #expect(small.phase == .pullingDown)
        #expect(small.offset > 0 && small.offset < 40)
        #expect(small.arrowAnimation == nil)
        let effects = machine.handle(.panChanged(translationY: Self.farPull, tMs: 100))
        let over = try #require(Self.state(effects))
        #expect(over.phase == .overThreshold)
        #expect(over.label == "指をはなすと更新")
        // The model value and how long the turn takes: the renderer turns it frame by frame.
        #expect(over.arrowAngle == PullToRefreshMachine.headingUpAngle)
        #expect(over.arrowAnimation == StateAnimation(durationMs: 100))
        #expect(over.animation == nil, "the header itself follows the finger")
        #expect(PullToRefreshMachine.headingUpAngle < Double.pi, "the source's π − ε")
        // No sampling by time: with the finger still, the machine has nothing more to say.
        #expect(Effects.timer(effects) == nil)
        #expect(machine.handle(.timeElapsed(150)).isEmpty)
        let moved = try #require(Self.state(machine.handle(.panChanged(translationY: Self.farPull + 10, tMs: 150))))
        #expect(moved.arrowAngle == PullToRefreshMachine.headingUpAngle && moved.arrowAnimation == nil)
    }

    @Test func pullToRefresh_pullBackUnderThreshold_returnsToPullingDownAndTurnsTheArrowBack() throws {
        var machine = Self.armed()
        let back = try #require(Self.state(machine.handle(.panChanged(translationY: 20, tMs: 300))))
        #expect(back.phase == .pullingDown)
        // The renderer turns the arrow back from where it shows it: the state says to where and how long.
        #expect(back.arrowAngle == 0 && back.arrowAnimation?.durationMs == 100)
    }

    @Test func pullToRefresh_refreshDone_stampsTheLastUpdatedTimeItIsGiven() throws {
        var machine = Self.armed()
        #expect(Self.state(machine.handle(.panEnded(tMs: 100)))?.updatedAtMs == nil, "never updated yet")
        let done = try #require(Self.state(machine.handle(.refreshDone(tMs: 900, updatedAtMs: 1_314_007_500_000))))
        #expect(done.updatedAtMs == 1_314_007_500_000)
        // A timed-out refresh updated nothing: the line keeps the last update.
        _ = machine.handle(.panBegan(atTop: true, tMs: 1000))
        _ = machine.handle(.panChanged(translationY: Self.farPull, tMs: 1010))
        _ = machine.handle(.panEnded(tMs: 1020))
        #expect(Self.state(machine.handle(.timeElapsed(6020)))?.updatedAtMs == 1_314_007_500_000)
    }

    @Test func pullToRefresh_releaseUnderThreshold_hides() {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(atTop: true, tMs: 0))
        _ = machine.handle(.panChanged(translationY: 30, tMs: 10))
        let state = Self.state(machine.handle(.panEnded(tMs: 20)))
        #expect(state?.phase == .hidden)
        #expect(state?.offset == 0)
    }

    @Test func pullToRefresh_releaseOverThreshold_startsRefreshingPinnedAtTheHeaderHeight() throws {
        var machine = Self.armed()
        let effects = machine.handle(.panEnded(tMs: 400))
        let state = try #require(Self.state(effects))
        #expect(state.phase == .refreshing)
        #expect(state.offset == 60)
        #expect(state.label == "更新中…")
        #expect(Effects.timer(effects) == 5400)
    }

    @Test func pullToRefresh_refreshDone_hidesAndCancelsTheTimeout() throws {
        var machine = Self.armed()
        _ = machine.handle(.panEnded(tMs: 400))
        let effects = machine.handle(.refreshDone(tMs: 900))
        #expect(effects.contains(.cancelTimer))
        #expect(Self.state(effects)?.phase == .hidden)
        #expect(Self.state(effects)?.label == "引き下げて…")
    }

    @Test func pullToRefresh_timeout_endsRefreshing() {
        var machine = Self.armed()
        _ = machine.handle(.panEnded(tMs: 400))
        #expect(machine.handle(.timeElapsed(1000)).isEmpty)
        #expect(Self.state(machine.handle(.timeElapsed(5400)))?.phase == .hidden)
    }

    @Test func pullToRefresh_offlineRelease_failsFastWithTheOfflineLabel() throws {
        var machine = Self.machine()
        _ = machine.handle(.connectivityChanged(.none, tMs: 0))
        _ = machine.handle(.panBegan(atTop: true, tMs: 0))
        _ = machine.handle(.panChanged(translationY: Self.farPull, tMs: 50))
        let state = try #require(Self.state(machine.handle(.panEnded(tMs: 100))))
        #expect(state.phase == .hidden)
        #expect(state.offline == true)
        #expect(state.label == "オフラインです")
        _ = machine.handle(.connectivityChanged(.wireless, tMs: 200))
        _ = machine.handle(.panBegan(atTop: true, tMs: 300))
        _ = machine.handle(.panChanged(translationY: Self.farPull, tMs: 350))
        let online = try #require(Self.state(machine.handle(.panEnded(tMs: 400))))
        #expect(online.phase == .refreshing)
        #expect(online.offline == false)
    }

    @Test func pullToRefresh_appWillResignActive_pausesTheTimeoutAndDidBecomeActiveResumesIt() {
        var machine = Self.armed()
        _ = machine.handle(.panEnded(tMs: 400))
        #expect(machine.handle(.appWillResignActive(tMs: 1400)) == [.cancelTimer])
        #expect(machine.snapshot(tMs: 9000).phase == .refreshing)
        #expect(machine.handle(.appDidBecomeActive(tMs: 20_000)) == [.scheduleTimer(at: ms(24_000))])
        #expect(Self.state(machine.handle(.timeElapsed(24_000)))?.phase == .hidden)
    }

    @Test func pullToRefresh_appWillResignActiveWhilePulling_cancelsThePull() {
        var machine = Self.armed()
        #expect(Self.state(machine.handle(.appWillResignActive(tMs: 100)))?.phase == .hidden)
    }

    @Test func pullToRefresh_eventsThatDoNotFitTheState_areIgnored() {
        var machine = Self.machine()
        #expect(machine.handle(.panChanged(translationY: 100, tMs: 0)).isEmpty)
        #expect(machine.handle(.panEnded(tMs: 0)).isEmpty)
        #expect(machine.handle(.refreshDone(tMs: 0)).isEmpty)
        #expect(machine.handle(.timeElapsed(0)).isEmpty)
        #expect(machine.handle(.appDidBecomeActive(tMs: 0)).isEmpty)
        var refreshing = Self.armed()
        _ = refreshing.handle(.panEnded(tMs: 400))
        #expect(refreshing.handle(.panBegan(atTop: true, tMs: 500)).isEmpty)
        #expect(refreshing.handle(.panChanged(translationY: 300, tMs: 510)).isEmpty)
    }

    @Test func pullToRefresh_releaseAndRefreshEnd_snapTheHeaderWithAnAnimationAndPullsDoNot() throws {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(atTop: true, tMs: 0))
        let pulling = try #require(Self.state(machine.handle(.panChanged(translationY: 30, tMs: 10))))
        #expect(pulling.animation == nil, "the header follows the finger")
        let snapped = try #require(Self.state(machine.handle(.panEnded(tMs: 20))))
        #expect(snapped.offset == 0)
        #expect(snapped.animation == StateAnimation(durationMs: PullToRefreshMachine.snapMs))
        var armed = Self.armed()
        let refreshing = try #require(Self.state(armed.handle(.panEnded(tMs: 100))))
        #expect(refreshing.offset == 60 && refreshing.animation?.durationMs == 200, "the source's 0.2 s")
        let done = try #require(Self.state(armed.handle(.refreshDone(tMs: 500))))
        #expect(done.offset == 0 && done.animation?.durationMs == 200, "hidden in 0.2 s")
    }
}
