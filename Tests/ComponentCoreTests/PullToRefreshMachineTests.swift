import BusSchema
import Testing

@testable import ComponentCore

@Suite struct PullToRefreshMachineTests {
    static func machine() -> PullToRefreshMachine {
        PullToRefreshMachine(
            instance: "refresh1",
            config: PullToRefreshMachine.Config(
                headerHeight: 60, thresholdMargin: 20, timeout: .seconds(5), viewportHeight: 600))
    }

    static func state(_ effects: [ComponentEffect]) -> PullToRefreshState? {
        guard case .pullToRefresh(let state)? = Effects.states(effects).last else { return nil }
        return state
    }

    /// A translation whose rubber-banded pull is well past the 80 pt threshold.
    static let farPull = 300.0

    static func armed() -> PullToRefreshMachine {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(atTop: true, at: ms(0)))
        _ = machine.handle(.panChanged(translationY: Self.farPull, at: ms(50)))
        return machine
    }

    @Test func pullToRefresh_panBeganAtTop_entersPullingDownWithThePullingLabel() throws {
        var machine = Self.machine()
        let state = try #require(Self.state(machine.handle(.panBegan(atTop: true, at: ms(0)))))
        #expect(state.phase == .pullingDown)
        #expect(state.label == "引き下げて…")
        #expect(state.threshold == 80)
        #expect(state.arrowAngle == 0)
    }

    @Test func pullToRefresh_aPanThatLeavesTheHeaderWhereItIs_publishesNothing() throws {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(atTop: true, at: ms(0)))
        // Up past where the pull began: the header stays at 0, so no state says so again.
        #expect(machine.handle(.panChanged(translationY: -40, at: ms(10))).isEmpty)
        #expect(machine.handle(.panChanged(translationY: -80, at: ms(20))).isEmpty)
        let down = try #require(Self.state(machine.handle(.panChanged(translationY: 30, at: ms(30)))))
        #expect(down.offset > 0)
        #expect(machine.handle(.panChanged(translationY: 30, at: ms(40))).isEmpty, "the same pull again")
        let back = try #require(Self.state(machine.handle(.panChanged(translationY: -10, at: ms(50)))))
        #expect(back.offset == 0 && back.phase == .pullingDown)
    }

    @Test func pullToRefresh_panBeganBelowTheTop_isIgnoredUntilItEnds() {
        var machine = Self.machine()
        #expect(machine.handle(.panBegan(atTop: false, at: ms(0))).isEmpty)
        #expect(machine.handle(.panChanged(translationY: 300, at: ms(10))).isEmpty)
        #expect(machine.handle(.panEnded(at: ms(20))).isEmpty)
        #expect(Self.state(machine.handle(.panBegan(atTop: true, at: ms(30))))?.phase == .pullingDown)
    }

    @Test func pullToRefresh_pullPastThreshold_entersOverThresholdAndStatesTheArrowsTurnOver100ms() throws {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(atTop: true, at: ms(0)))
        let small = try #require(Self.state(machine.handle(.panChanged(translationY: 40, at: ms(10)))))
        #expect(small.phase == .pullingDown)
        #expect(small.offset > 0 && small.offset < 40)
        #expect(small.arrowAnimation == nil)
        let effects = machine.handle(.panChanged(translationY: Self.farPull, at: ms(100)))
        let over = try #require(Self.state(effects))
        #expect(over.phase == .overThreshold)
        #expect(over.label == "指をはなすと更新")
        // The model value and how long the turn takes: the renderer turns it frame by frame.
        #expect(over.arrowAngle == PullToRefreshMachine.headingUpAngle)
        #expect(
            over.arrowAnimation
                == StateAnimation {
                    $0.durationMs = 100
                })
        #expect(over.animation == nil, "the header itself follows the finger")
        #expect(PullToRefreshMachine.headingUpAngle < Double.pi, "the source's π − ε")
        // No sampling by time: with the finger still, the machine has nothing more to say.
        #expect(Effects.timer(effects) == nil)
        #expect(machine.handle(.timeElapsed(ms(150))).isEmpty)
        let moved = try #require(Self.state(machine.handle(.panChanged(translationY: Self.farPull + 10, at: ms(150)))))
        #expect(moved.arrowAngle == PullToRefreshMachine.headingUpAngle && moved.arrowAnimation == nil)
    }

    @Test func pullToRefresh_pullBackUnderThreshold_returnsToPullingDownAndTurnsTheArrowBack() throws {
        var machine = Self.armed()
        let back = try #require(Self.state(machine.handle(.panChanged(translationY: 20, at: ms(300)))))
        #expect(back.phase == .pullingDown)
        // The renderer turns the arrow back from where it shows it: the state says to where and how long.
        #expect(back.arrowAngle == 0 && back.arrowAnimation?.durationMs == 100)
    }

    @Test func pullToRefresh_refreshDone_stampsTheLastUpdatedTimeItIsGiven() throws {
        var machine = Self.armed()
        #expect(Self.state(machine.handle(.panEnded(at: ms(100))))?.updatedAtMs == nil, "never updated yet")
        let done = try #require(Self.state(machine.handle(.refreshDone(at: ms(900), updatedAtMs: 1_314_007_500_000))))
        #expect(done.updatedAtMs == 1_314_007_500_000)
        // A timed-out refresh updated nothing: the line keeps the last update.
        _ = machine.handle(.panBegan(atTop: true, at: ms(1000)))
        _ = machine.handle(.panChanged(translationY: Self.farPull, at: ms(1010)))
        _ = machine.handle(.panEnded(at: ms(1020)))
        #expect(Self.state(machine.handle(.timeElapsed(ms(6020))))?.updatedAtMs == 1_314_007_500_000)
    }

    @Test func pullToRefresh_releaseUnderThreshold_hides() {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(atTop: true, at: ms(0)))
        _ = machine.handle(.panChanged(translationY: 30, at: ms(10)))
        let state = Self.state(machine.handle(.panEnded(at: ms(20))))
        #expect(state?.phase == .hidden)
        #expect(state?.offset == 0)
    }

    @Test func pullToRefresh_releaseOverThreshold_startsRefreshingPinnedAtTheHeaderHeight() throws {
        var machine = Self.armed()
        let effects = machine.handle(.panEnded(at: ms(400)))
        let state = try #require(Self.state(effects))
        #expect(state.phase == .refreshing)
        #expect(state.offset == 60)
        #expect(state.label == "更新中…")
        #expect(Effects.timer(effects) == 5400)
    }

    @Test func pullToRefresh_refreshDone_hidesAndCancelsTheTimeout() throws {
        var machine = Self.armed()
        _ = machine.handle(.panEnded(at: ms(400)))
        let effects = machine.handle(.refreshDone(at: ms(900)))
        #expect(effects.contains(.cancelTimer))
        #expect(Self.state(effects)?.phase == .hidden)
        #expect(Self.state(effects)?.label == "引き下げて…")
    }

    @Test func pullToRefresh_timeout_endsRefreshing() {
        var machine = Self.armed()
        _ = machine.handle(.panEnded(at: ms(400)))
        #expect(machine.handle(.timeElapsed(ms(1000))).isEmpty)
        #expect(Self.state(machine.handle(.timeElapsed(ms(5400))))?.phase == .hidden)
    }

    @Test func pullToRefresh_offlineRelease_failsFastWithTheOfflineLabel() throws {
        var machine = Self.machine()
        _ = machine.handle(.connectivityChanged(.none, at: ms(0)))
        _ = machine.handle(.panBegan(atTop: true, at: ms(0)))
        _ = machine.handle(.panChanged(translationY: Self.farPull, at: ms(50)))
        let state = try #require(Self.state(machine.handle(.panEnded(at: ms(100)))))
        #expect(state.phase == .hidden)
        #expect(state.offline == true)
        #expect(state.label == "オフラインです")
        _ = machine.handle(.connectivityChanged(.wireless, at: ms(200)))
        _ = machine.handle(.panBegan(atTop: true, at: ms(300)))
        _ = machine.handle(.panChanged(translationY: Self.farPull, at: ms(350)))
        let online = try #require(Self.state(machine.handle(.panEnded(at: ms(400)))))
        #expect(online.phase == .refreshing)
        #expect(online.offline == false)
    }

    @Test func pullToRefresh_appWillResignActive_pausesTheTimeoutAndDidBecomeActiveResumesIt() {
        var machine = Self.armed()
        _ = machine.handle(.panEnded(at: ms(400)))
        #expect(machine.handle(.appWillResignActive(at: ms(1400))) == [.cancelTimer])
        #expect(machine.snapshot(at: ms(9000)).phase == .refreshing)
        #expect(machine.handle(.appDidBecomeActive(at: ms(20_000))) == [.scheduleTimer(at: ms(24_000))])
        #expect(Self.state(machine.handle(.timeElapsed(ms(24_000))))?.phase == .hidden)
    }

    @Test func pullToRefresh_appWillResignActiveWhilePulling_cancelsThePull() {
        var machine = Self.armed()
        #expect(Self.state(machine.handle(.appWillResignActive(at: ms(100))))?.phase == .hidden)
    }

    @Test func pullToRefresh_eventsThatDoNotFitTheState_areIgnored() {
        var machine = Self.machine()
        #expect(machine.handle(.panChanged(translationY: 100, at: ms(0))).isEmpty)
        #expect(machine.handle(.panEnded(at: ms(0))).isEmpty)
        #expect(machine.handle(.refreshDone(at: ms(0))).isEmpty)
        #expect(machine.handle(.timeElapsed(ms(0))).isEmpty)
        #expect(machine.handle(.appDidBecomeActive(at: ms(0))).isEmpty)
        var refreshing = Self.armed()
        _ = refreshing.handle(.panEnded(at: ms(400)))
        #expect(refreshing.handle(.panBegan(atTop: true, at: ms(500))).isEmpty)
        #expect(refreshing.handle(.panChanged(translationY: 300, at: ms(510))).isEmpty)
    }

    @Test func pullToRefresh_releaseAndRefreshEnd_snapTheHeaderWithAnAnimationAndPullsDoNot() throws {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(atTop: true, at: ms(0)))
        let pulling = try #require(Self.state(machine.handle(.panChanged(translationY: 30, at: ms(10)))))
        #expect(pulling.animation == nil, "the header follows the finger")
        let snapped = try #require(Self.state(machine.handle(.panEnded(at: ms(20)))))
        #expect(snapped.offset == 0)
        #expect(
            snapped.animation
                == StateAnimation {
                    $0.durationMs = PullToRefreshMachine.snap.milliseconds
                })
        var armed = Self.armed()
        let refreshing = try #require(Self.state(armed.handle(.panEnded(at: ms(100)))))
        #expect(refreshing.offset == 60 && refreshing.animation?.durationMs == 200, "the source's 0.2 s")
        let done = try #require(Self.state(armed.handle(.refreshDone(at: ms(500)))))
        #expect(done.offset == 0 && done.animation?.durationMs == 200, "hidden in 0.2 s")
    }
}
