import BusSchema
import Testing

@testable import ComponentCore

@Suite struct PagerMachineTests {
    static func machine() -> PagerMachine {
        PagerMachine(
            instance: "pager1",
            config: PagerMachine.Config(
                pageCount: 5, pageWidth: 500, barHeight: 44, pullThreshold: 120, contentHeight: 3000,
                viewportHeight: 500, loadDuration: .seconds(1)))
    }

    static func state(_ effects: [ComponentEffect]) -> PagerState? {
        guard case .pager(let state)? = Effects.states(effects).last else { return nil }
        return state
    }

    static func pan(
        _ machine: inout PagerMachine, _ translation: GestureEvent.Vector, velocity: GestureEvent.Vector, at t: Double
    ) -> [ComponentEffect] {
        _ = machine.handle(.panBegan(at: ms(t)))
        _ = machine.handle(.panChanged(translation: translation, at: ms(t + 50)))
        return machine.handle(.panEnded(translation: translation, velocity: velocity, at: ms(t + 100)))
    }

    @Test func pager_leftSwipe_goesToTheNextPageAndRightSwipeBack() {
        var machine = Self.machine()
        #expect(Self.state(machine.handle(.swipeRecognized(.left, at: ms(0))))?.page == 1)
        #expect(Self.state(machine.handle(.swipeRecognized(.left, at: ms(500))))?.page == 2)
        #expect(Self.state(machine.handle(.swipeRecognized(.right, at: ms(1000))))?.page == 1)
    }

    @Test func pager_swipePastTheEnds_staysOnTheFirstOrLastPage() {
        var machine = Self.machine()
        #expect(Self.state(machine.handle(.swipeRecognized(.right, at: ms(0))))?.page == 0)
        _ = machine.handle(.pageRequested(4, at: ms(10)))
        #expect(Self.state(machine.handle(.swipeRecognized(.left, at: ms(20))))?.page == 4)
    }

    @Test func pager_horizontalPan_followsTheFingerInFractionalPages() {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(at: ms(0)))
        let state = Self.state(machine.handle(.panChanged(translation: vector(-250, 10), at: ms(50))))
        #expect(state?.pageOffset == 0.5)
        #expect(state?.page == 0)
    }

    @Test func pager_slowPanPastHalf_settlesOnTheNearestPage() {
        var machine = Self.machine()
        #expect(Self.state(Self.pan(&machine, vector(-300, 0), velocity: vector(-50, 0), at: 0))?.page == 1)
        #expect(Self.state(Self.pan(&machine, vector(-100, 0), velocity: vector(-50, 0), at: 500))?.page == 1)
    }

    @Test func pager_swipeAndPanOfOneGesture_flipOnlyOnePage() {
        var machine = Self.machine()
        _ = Self.pan(&machine, vector(-200, 0), velocity: vector(-900, 0), at: 0)
        #expect(Self.state(machine.handle(.swipeRecognized(.left, at: ms(100))))?.page == 1)
    }

    @Test func pager_verticalScroll_movesTheMenuUpByAtMostTheNavigationBarsHeight() {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(at: ms(0)))
        let partly = Self.state(machine.handle(.panChanged(translation: vector(0, -30), at: ms(50))))
        #expect(partly?.headerOffset == 30)
        let gone = Self.state(machine.handle(.panChanged(translation: vector(0, -400), at: ms(100))))
        #expect(gone?.headerOffset == 44, "the source's -navigationBar.frame.height, not the whole 108 pt header")
        #expect(gone?.scrollOffset == 400)
        #expect(PagerMachine.navigationBarHeight == 44)
    }

    @Test func pager_eachPage_keepsItsOwnVerticalScroll() {
        var machine = Self.machine()
        _ = Self.pan(&machine, vector(0, -400), velocity: vector(0, 0), at: 0)
        #expect(Self.state(machine.handle(.swipeRecognized(.left, at: ms(500))))?.headerOffset == 0)
        let back = Self.state(machine.handle(.swipeRecognized(.right, at: ms(1000))))
        #expect(back?.scrollOffset == 400)
        #expect(back?.headerOffset == 44)
    }

    @Test func pager_pullPastTheTop_stretchesTheProgressAreaAndChangesTheLabel() {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(at: ms(0)))
        let slight = Self.state(machine.handle(.panChanged(translation: vector(0, 30), at: ms(30))))
        #expect((slight?.pullOffset ?? 0) > 0 && (slight?.pullOffset ?? 0) < 70)
        #expect(slight?.label == "Sample", "under 70 pt the title stays")
        let short = Self.state(machine.handle(.panChanged(translation: vector(0, 200), at: ms(50))))
        #expect((short?.pullOffset ?? 0) >= 70 && (short?.pullOffset ?? 0) < 120)
        #expect(short?.label == "引き下げて更新")
        #expect(short?.headerOffset == 0)
        let far = Self.state(machine.handle(.panChanged(translation: vector(0, 600), at: ms(100))))
        #expect((far?.pullOffset ?? 0) >= 120)
        #expect(far?.label == "はなして更新")
    }

    @Test func pager_releasePast120_startsALoadWhoseProgressRunsTo100() throws {
        var machine = Self.machine()
        let effects = Self.pan(&machine, vector(0, 600), velocity: vector(0, 0), at: 0)
        let loading = try #require(Self.state(effects))
        #expect(loading.loading)
        #expect(loading.label == "更新中")
        #expect(loading.progress == 0)
        #expect(Effects.timer(effects) == 200)
        #expect(Self.state(machine.handle(.timeElapsed(ms(600))))?.progress == 50)
        let done = try #require(Self.state(machine.handle(.timeElapsed(ms(1100)))))
        #expect(done.progress == 100)
        #expect(!done.loading)
        #expect(machine.handle(.timeElapsed(ms(1200))).isEmpty)
    }

    /// The source fades the full bar out over 0.3 s, then resets its width to zero.
    @Test func pager_finishedLoad_fadesTheFullBarOutOver300msThenResetsIt() throws {
        var machine = Self.machine()
        _ = Self.pan(&machine, vector(0, 600), velocity: vector(0, 0), at: 0)
        let finished = machine.handle(.timeElapsed(ms(1100)))
        let done = try #require(Self.state(finished))
        #expect(done.progress == 100)
        #expect(done.progressOpacity == 0)
        #expect(
            done.animation
                == StateAnimation {
                    $0.durationMs = 300
                })
        #expect(Effects.timer(finished) == 1400)
        #expect(machine.handle(.timeElapsed(ms(1399))).isEmpty, "still fading")
        #expect(machine.snapshot(at: ms(1399)).progressOpacity == 0, "a state published mid-fade keeps the bar fading")
        let reset = try #require(Self.state(machine.handle(.timeElapsed(ms(1400)))))
        #expect(reset.progress == 0)
        #expect(reset.progressOpacity == nil)
        #expect(reset.animation == nil)
        #expect(machine.handle(.timeElapsed(ms(1500))).isEmpty)
    }

    @Test func pager_refreshDone_endsTheLoadAtOnce() {
        var machine = Self.machine()
        _ = Self.pan(&machine, vector(0, 600), velocity: vector(0, 0), at: 0)
        let effects = machine.handle(.refreshDone(at: ms(300)))
        #expect(effects.contains(.cancelTimer))
        #expect(Self.state(effects)?.loading == false)
        #expect(Self.state(effects)?.progress == 100)
    }

    @Test func pager_appWillResignActive_pausesTheLoadAndDidBecomeActiveResumesIt() {
        var machine = Self.machine()
        _ = Self.pan(&machine, vector(0, 600), velocity: vector(0, 0), at: 0)
        _ = machine.handle(.timeElapsed(ms(300)))
        #expect(machine.handle(.appWillResignActive(at: ms(400))) == [.cancelTimer])
        #expect(machine.snapshot(at: ms(5000)).loading)
        #expect(machine.handle(.appDidBecomeActive(at: ms(5000))) == [.scheduleTimer(at: ms(5100))])
        #expect(Self.state(machine.handle(.timeElapsed(ms(5100))))?.progress == 40)
        #expect(machine.handle(.appDidBecomeActive(at: ms(5200))).isEmpty)
    }

    @Test func pager_releaseShortOfTheThreshold_doesNotLoad() {
        var machine = Self.machine()
        let state = Self.state(Self.pan(&machine, vector(0, 100), velocity: vector(0, 0), at: 0))
        #expect(state?.loading == false)
        #expect(state?.scrollOffset == 0)
    }

    @Test func pager_cancelledPanAndResignActive_snapBack() {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(at: ms(0)))
        _ = machine.handle(.panChanged(translation: vector(-250, 0), at: ms(50)))
        #expect(Self.state(machine.handle(.panCancelled(at: ms(60))))?.pageOffset == 0)
        _ = machine.handle(.panBegan(at: ms(100)))
        _ = machine.handle(.panChanged(translation: vector(0, 300), at: ms(150)))
        #expect(Self.state(machine.handle(.appWillResignActive(at: ms(160))))?.pullOffset == 0)
    }

    static let snap = StateAnimation {
        $0.durationMs = 300
        $0.delayMs = 0
        $0.curve = .easeInOut
    }

    @Test func pager_pageSnaps_carryTheSnapAnimationAndTheFingerFollowingStatesNone() throws {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(at: ms(0)))
        let dragged = try #require(Self.state(machine.handle(.panChanged(translation: vector(-300, 0), at: ms(50)))))
        #expect(dragged.animation == nil, "the page follows the finger")
        let released = try #require(
            Self.state(machine.handle(.panEnded(translation: vector(-300, 0), velocity: vector(0, 0), at: ms(100)))))
        #expect(released.pageOffset == 1, "the model jumps to the target")
        #expect(released.animation == Self.snap)
        #expect(Self.state(machine.handle(.swipeRecognized(.left, at: ms(500))))?.animation == Self.snap)
        #expect(Self.state(machine.handle(.pageRequested(0, at: ms(900))))?.animation == Self.snap)
        #expect(Self.state(machine.handle(.pageRequested(0, at: ms(1300))))?.animation == nil, "nothing moves")
        _ = machine.handle(.panBegan(at: ms(1500)))
        _ = machine.handle(.panChanged(translation: vector(-100, 0), at: ms(1550)))
        let cancelled = try #require(Self.state(machine.handle(.panCancelled(at: ms(1600)))))
        #expect(cancelled.pageOffset == 0)
        #expect(cancelled.animation == Self.snap, "a cancelled pan slides back")
    }

    @Test func pager_scrollEndedWithTheHeaderPartWay_snapsItShownOrHiddenAnimated() throws {
        var machine = Self.machine()
        let shown = try #require(Self.state(Self.pan(&machine, vector(0, -15), velocity: vector(0, 0), at: 0)))
        #expect(shown.scrollOffset == 0)
        #expect(shown.headerOffset == 0)
        #expect(shown.animation == Self.snap)
        let hidden = try #require(Self.state(Self.pan(&machine, vector(0, -30), velocity: vector(0, 0), at: 500)))
        #expect(hidden.scrollOffset == 44)
        #expect(hidden.headerOffset == 44)
        #expect(hidden.animation == Self.snap)
        let past = try #require(Self.state(Self.pan(&machine, vector(0, -300), velocity: vector(0, 0), at: 1000)))
        #expect(past.scrollOffset == 344)
        #expect(past.animation == nil, "a scroll that ends with the header gone stays where it is")
    }

    @Test func pager_cancelledScrollOrResignActive_snapsAPartWayHeaderToo() throws {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(at: ms(0)))
        _ = machine.handle(.panChanged(translation: vector(0, -30), at: ms(50)))
        let cancelled = try #require(Self.state(machine.handle(.panCancelled(at: ms(100)))))
        #expect(cancelled.scrollOffset == 44 && cancelled.headerOffset == 44)
        #expect(cancelled.animation == Self.snap)
        _ = machine.handle(.panBegan(at: ms(500)))
        _ = machine.handle(.panChanged(translation: vector(0, 30), at: ms(550)))
        let resigned = try #require(Self.state(machine.handle(.appWillResignActive(at: ms(600)))))
        #expect(resigned.scrollOffset == 0 && resigned.headerOffset == 0, "14 pt hidden of 44 snaps shown")
    }

    @Test func pager_releasedPull_bouncesBackAnimatedWhetherOrNotItLoads() throws {
        var machine = Self.machine()
        let short = try #require(Self.state(Self.pan(&machine, vector(0, 100), velocity: vector(0, 0), at: 0)))
        #expect(short.pullOffset == 0)
        #expect(short.animation == Self.snap)
        let loading = try #require(Self.state(Self.pan(&machine, vector(0, 600), velocity: vector(0, 0), at: 500)))
        #expect(loading.loading)
        #expect(loading.animation == Self.snap)
        #expect(Self.state(machine.handle(.timeElapsed(ms(1000))))?.animation == nil, "progress ticks are not animated")
    }

    @Test func pager_eventsThatDoNotFitTheState_areIgnored() {
        var machine = Self.machine()
        #expect(machine.handle(.panChanged(translation: vector(1, 1), at: ms(0))).isEmpty)
        #expect(machine.handle(.panEnded(translation: vector(1, 1), velocity: vector(0, 0), at: ms(0))).isEmpty)
        #expect(machine.handle(.refreshDone(at: ms(0))).isEmpty)
        #expect(machine.handle(.timeElapsed(ms(0))).isEmpty)
        #expect(machine.handle(.swipeRecognized(.up, at: ms(0))).isEmpty)
        _ = Self.pan(&machine, vector(0, 600), velocity: vector(0, 0), at: 0)
        #expect(machine.handle(.panBegan(at: ms(150))).isEmpty)
        #expect(machine.handle(.pageRequested(2, at: ms(150))).isEmpty)
    }
}
