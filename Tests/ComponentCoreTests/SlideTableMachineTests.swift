import BusSchema
import Testing

@testable import ComponentCore

@Suite struct SlideTableMachineTests {
    static func machine() -> SlideTableMachine {
        SlideTableMachine(
            instance: "table1",
            config: SlideTableMachine.Config(rows: 20, rowHeight: 50, rowWidth: 400, top: 100, viewportHeight: 500))
    }

    static func state(_ effects: [ComponentEffect]) -> SlideTableState? {
        guard case .slideTable(let state)? = Effects.states(effects).last else { return nil }
        return state
    }

    /// Scene y of the middle of `row` while the table is not scrolled.
    static func y(_ row: Int) -> Double { 100 + Double(row) * 50 + 25 }

    @Test func slideCell_rightSwipe_opensTheRowOver200ms() throws {
        var machine = Self.machine()
        let effects = machine.handle(.swipeRecognized(.right, y: Self.y(2), at: ms(1000)))
        let state = try #require(Self.state(effects))
        #expect(state.openRow == 2)
        #expect(state.offsets[2] == 400, "the published state carries the target")
        #expect(
            state.animation
                == StateAnimation {
                    $0.durationMs = 200
                })
        #expect(state.animatingRow == .some(2))
        #expect(machine.snapshot(at: ms(1000)).offsets[2] == 0, "the row slides from where it rests")
        #expect(machine.snapshot(at: ms(1100)).offsets[2] == 200)
        let done = try #require(Self.state(machine.handle(.timeElapsed(ms(1200)))))
        #expect(done.offsets[2] == 400)
        #expect(done.animation == nil)
        #expect(done.animatingRow == .some(nil))
    }

    @Test func slideCell_aTap_highlightsTheRowWhilePressedAndSelectsItOnLift() throws {
        var machine = Self.machine()
        let pressed = try #require(Self.state(machine.handle(.touchBegan(y: Self.y(3), at: ms(0)))))
        #expect(pressed.highlightedRow == 3 && pressed.selectedRow == nil, "light grey while pressed")
        #expect(machine.handle(.touchMoved(y: Self.y(3) + 10, at: ms(20))).isEmpty, "still on the row")
        let lifted = try #require(Self.state(machine.handle(.touchLifted(y: Self.y(3) + 10, at: ms(80)))))
        #expect(lifted.highlightedRow == nil && lifted.selectedRow == 3)
        // Another tap moves the selection; the first row is no longer selected.
        _ = machine.handle(.touchBegan(y: Self.y(5), at: ms(200)))
        #expect(Self.state(machine.handle(.touchLifted(y: Self.y(5), at: ms(260))))?.selectedRow == 5)
        // The wire carries both, so the renderer draws them.
        var writer = MessagePackWriter()
        lifted.encode(to: &writer)
        let decoded = try SlideTableState(payload: try Value(messagePack: writer.bytes))
        #expect(decoded.selectedRow == 3 && decoded.highlightedRow == nil)
    }

    @Test func slideCell_aScrollASwipeOrSlidingOffTheRow_takesThePressBackUnselected() throws {
        var scrolled = Self.machine()
        _ = scrolled.handle(.touchBegan(y: Self.y(3), at: ms(0)))
        #expect(Self.state(scrolled.handle(.panBegan(at: ms(30))))?.highlightedRow == nil)
        _ = scrolled.handle(.panEnded(at: ms(90)))
        #expect(scrolled.handle(.touchLifted(y: Self.y(3), at: ms(100))).isEmpty)
        #expect(scrolled.snapshot(at: ms(100)).selectedRow == nil, "a scroll is no tap")
        var swiped = Self.machine()
        _ = swiped.handle(.touchBegan(y: Self.y(3), at: ms(0)))
        let opened = try #require(Self.state(swiped.handle(.swipeRecognized(.right, y: Self.y(3), at: ms(40)))))
        #expect(opened.openRow == 3 && opened.highlightedRow == nil)
        _ = swiped.handle(.touchLifted(y: Self.y(3), at: ms(60)))
        #expect(swiped.snapshot(at: ms(60)).selectedRow == nil, "a swipe is no tap")
        var slid = Self.machine()
        _ = slid.handle(.touchBegan(y: Self.y(3), at: ms(0)))
        #expect(Self.state(slid.handle(.touchMoved(y: Self.y(4), at: ms(20))))?.highlightedRow == nil)
        #expect(slid.handle(.touchLifted(y: Self.y(3), at: ms(40))).isEmpty, "back on the row: still no tap")
        var cancelled = Self.machine()
        _ = cancelled.handle(.touchBegan(y: Self.y(3), at: ms(0)))
        #expect(Self.state(cancelled.handle(.touchCancelled(at: ms(10))))?.highlightedRow == nil)
        #expect(cancelled.snapshot(at: ms(10)).selectedRow == nil)
        // A touch below the last row presses nothing.
        var below = Self.machine()
        #expect(below.handle(.touchBegan(y: 100 + 20 * 50 + 5, at: ms(0))).isEmpty)
    }

    @Test func slideCell_rightSwipeOnOtherRow_closesOpenRowOver100ms() throws {
        var machine = Self.machine()
        _ = machine.handle(.swipeRecognized(.right, y: Self.y(2), at: ms(0)))
        _ = machine.handle(.timeElapsed(ms(200)))
        let effects = machine.handle(.swipeRecognized(.right, y: Self.y(5), at: ms(1000)))
        let state = try #require(Self.state(effects))
        #expect(state.openRow == 5)
        #expect(
            state.animation
                == StateAnimation {
                    $0.durationMs = 200
                }, "the opening row's slide")
        #expect(state.closingRow == 2)
        #expect(
            state.closeAnimation
                == StateAnimation {
                    $0.durationMs = 100
                }, "the closing row's own, shorter slide")
        #expect(state.offsets[2] == 0 && state.offsets[5] == 400, "the published state carries the targets")
        let quarter = machine.snapshot(at: ms(1050))
        #expect(quarter.offsets[2] == 200, "row 2 closes over 100 ms")
        #expect(quarter.offsets[5] == 100, "row 5 opens over 200 ms")
        #expect(Effects.timer(effects) == 1100)
        let mid = try #require(Self.state(machine.handle(.timeElapsed(ms(1100)))))
        #expect(mid.offsets[2] == 0)
        #expect(mid.offsets[5] == 200)
        let end = try #require(Self.state(machine.handle(.timeElapsed(ms(1200)))))
        #expect(end.offsets.enumerated().filter { $0.element > 0 }.map(\.offset) == [5])
    }

    @Test func slideCell_aPublishedStateKeepsItsOffsetsWhenRowsOpenAndCloseLater() throws {
        var machine = Self.machine()
        _ = machine.handle(.swipeRecognized(.right, y: Self.y(2), at: ms(0)))
        _ = machine.handle(.timeElapsed(ms(200)))
        _ = machine.handle(.panBegan(at: ms(300)))
        let resting = try #require(Self.state(machine.handle(.panChanged(translationY: 0, at: ms(310)))))
        _ = machine.handle(.panEnded(at: ms(320)))
        _ = machine.handle(.swipeRecognized(.right, y: Self.y(5), at: ms(400)))
        _ = machine.handle(.timeElapsed(ms(600)))
        _ = machine.handle(.swipeRecognized(.left, y: Self.y(5), at: ms(700)))
        _ = machine.handle(.timeElapsed(ms(800)))
        #expect(resting.offsets.enumerated().filter { $0.element > 0 }.map(\.offset) == [2])
        #expect(resting.offsets[2] == 400)
        #expect(machine.snapshot(at: ms(900)).offsets.allSatisfy { $0 == 0 })
    }

    @Test func slideCell_leftSwipeOnOpenRow_closesIt() throws {
        var machine = Self.machine()
        _ = machine.handle(.swipeRecognized(.right, y: Self.y(3), at: ms(0)))
        _ = machine.handle(.timeElapsed(ms(200)))
        let state = try #require(Self.state(machine.handle(.swipeRecognized(.left, y: Self.y(3), at: ms(500)))))
        #expect(state.openRow == nil)
        #expect(Self.state(machine.handle(.timeElapsed(ms(600))))?.offsets[3] == 0)
    }

    @Test func slideCell_leftSwipeOnAClosedRow_isIgnored() {
        var machine = Self.machine()
        _ = machine.handle(.swipeRecognized(.right, y: Self.y(3), at: ms(0)))
        #expect(machine.handle(.swipeRecognized(.left, y: Self.y(4), at: ms(10))).isEmpty)
        #expect(machine.snapshot(at: ms(300)).openRow == 3)
    }

    @Test func slideCell_rightSwipeOnTheOpenRow_isIgnored() {
        var machine = Self.machine()
        _ = machine.handle(.swipeRecognized(.right, y: Self.y(3), at: ms(0)))
        #expect(machine.handle(.swipeRecognized(.right, y: Self.y(3), at: ms(10))).isEmpty)
    }

    @Test func slideCell_verticalSwipesAndSwipesBelowTheLastRow_areIgnored() {
        var machine = Self.machine()
        #expect(machine.handle(.swipeRecognized(.up, y: Self.y(1), at: ms(0))).isEmpty)
        #expect(machine.handle(.swipeRecognized(.down, y: Self.y(1), at: ms(0))).isEmpty)
        #expect(machine.handle(.swipeRecognized(.right, y: Self.y(25), at: ms(0))).isEmpty)
        #expect(machine.handle(.swipeRecognized(.right, y: 50, at: ms(0))).isEmpty)
    }

    @Test func slideCell_openRow_isKeptByModelIndexWhileScrolling() throws {
        var machine = Self.machine()
        _ = machine.handle(.swipeRecognized(.right, y: Self.y(2), at: ms(0)))
        _ = machine.handle(.timeElapsed(ms(200)))
        _ = machine.handle(.panBegan(at: ms(300)))
        _ = machine.handle(.panChanged(translationY: -300, at: ms(400)))
        let scrolled = try #require(Self.state(machine.handle(.panEnded(at: ms(500)))))
        #expect(scrolled.scrollOffset == 300)
        #expect(scrolled.openRow == 2)
        #expect(scrolled.offsets[2] == 400)
        // Row 9 is now where row 3 was on screen: a right swipe there opens model row 9.
        let state = try #require(Self.state(machine.handle(.swipeRecognized(.right, y: Self.y(3), at: ms(600)))))
        #expect(state.openRow == 9)
    }

    @Test func slideCell_atMostOneRowIsOpen() throws {
        var machine = Self.machine()
        var t = 0.0
        for row in [1, 4, 7, 2] {
            _ = machine.handle(.swipeRecognized(.right, y: Self.y(row), at: ms(t)))
            t += 500
            _ = machine.handle(.timeElapsed(ms(t - 250)))
        }
        let state = machine.snapshot(at: ms(t))
        #expect(state.openRow == 2)
        #expect(state.offsets.filter { $0 > 0 } == [400])
    }

    @Test func slideCell_appWillResignActive_endsTheScrollInsideTheBounds() {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(at: ms(0)))
        _ = machine.handle(.panChanged(translationY: 200, at: ms(10)))
        #expect(Self.state(machine.handle(.appWillResignActive(at: ms(20))))?.scrollOffset == 0)
        #expect(machine.handle(.panChanged(translationY: 300, at: ms(30))).isEmpty)
    }

    @Test func slideCell_eventsThatDoNotFitTheState_areIgnored() {
        var machine = Self.machine()
        #expect(machine.handle(.panChanged(translationY: 10, at: ms(0))).isEmpty)
        #expect(machine.handle(.panEnded(at: ms(0))).isEmpty)
        #expect(machine.handle(.timeElapsed(ms(10))).isEmpty)
        #expect(machine.handle(.appWillResignActive(at: ms(10))).isEmpty)
        _ = machine.handle(.panBegan(at: ms(10)))
        #expect(machine.handle(.panBegan(at: ms(11))).isEmpty)
    }
}
