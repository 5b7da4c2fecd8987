import BusSchema
import Testing

@testable import ComponentCore

@Suite struct NumberPadMachineTests {
    /// Keys are 100 pt wide from x = 0.
    static func machine(layout: NumberPadState.Layout = .phone, enabled: Set<Int> = Set(0...9)) -> NumberPadMachine {
        NumberPadMachine(
            instance: "pad1",
            config: NumberPadMachine.Config(layout: layout, enabled: enabled, left: 0, width: 1000))
    }

    static func state(_ effects: [ComponentEffect]) -> NumberPadState? {
        guard case .numberPad(let state)? = Effects.states(effects).last else { return nil }
        return state
    }

    static func x(_ key: Int) -> Double { Double(key) * 100 + 50 }

    static func tap(_ machine: inout NumberPadMachine, key: Int, at t: Double) -> NumberPadState? {
        _ = machine.handle(.touchBegan(x: Self.x(key), at: ms(t)))
        return Self.state(machine.handle(.touchLifted(x: Self.x(key), at: ms(t + 50))))
    }

    @Test func numberPad_touchDown_highlightsTheKeyWithALeftPopupOnTheFirstKey() throws {
        var machine = Self.machine()
        let state = try #require(Self.state(machine.handle(.touchBegan(x: Self.x(0), at: ms(0)))))
        #expect(state.highlighted == 1)
        #expect(
            state.popup
                == NumberPadState.Popup {
                    $0.kind = .left
                    $0.digit = 1
                })
        #expect(state.touchedString == "")
    }

    @Test func numberPad_defaultLayout_isTheSourcesOneToNineThenZero() {
        // LKNumberPad's startWithZero defaults to NO; the drawing reads the same default.
        #expect(NumberPadMachine.Config().layout == .phone)
        #expect(NumberPadState.Layout.standard.digits == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0])
        var machine = NumberPadMachine(instance: "pad1", config: NumberPadMachine.Config(left: 0, width: 1000))
        #expect(Self.tap(&machine, key: 0, at: 0)?.touchedString == "1")
    }

    @Test func numberPad_popupKinds_areLeftInnerAndRight() {
        var machine = Self.machine(layout: .startWithZero)
        #expect(Self.state(machine.handle(.touchBegan(x: Self.x(0), at: ms(0))))?.popup?.kind == .left)
        #expect(Self.state(machine.handle(.touchMoved(x: Self.x(4), at: ms(10))))?.popup?.kind == .inner)
        #expect(
            Self.state(machine.handle(.touchMoved(x: Self.x(9), at: ms(20))))?.popup
                == NumberPadState.Popup {
                    $0.kind = .right
                    $0.digit = 9
                })
    }

    @Test func numberPad_phoneLayout_putsZeroLast() {
        var machine = Self.machine()
        #expect(Self.tap(&machine, key: 9, at: 0)?.touchedString == "0")
        #expect(machine.snapshot(at: ms(0)).enabled == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0])
    }

    @Test func numberPad_movingAcrossKeys_movesTheHighlight() {
        var machine = Self.machine()
        _ = machine.handle(.touchBegan(x: Self.x(2), at: ms(0)))
        #expect(machine.handle(.touchMoved(x: Self.x(2) + 10, at: ms(5))).isEmpty)
        #expect(Self.state(machine.handle(.touchMoved(x: Self.x(3), at: ms(10))))?.highlighted == 4)
    }

    @Test func numberPad_lift_emitsTheDigitAtOnce() throws {
        var machine = Self.machine()
        _ = machine.handle(.touchBegan(x: Self.x(4), at: ms(0)))
        let effects = machine.handle(.touchLifted(x: Self.x(4), at: ms(80)))
        let state = try #require(Self.state(effects))
        #expect(state.touchedString == "5")
        #expect(state.tMs == 80)
        #expect(state.highlighted == nil)
        #expect(state.popup == nil)
        #expect(Effects.timer(effects) == nil)
    }

    @Test func numberPad_tapsWithin750ms_buildTheSequentialString() {
        var machine = Self.machine()
        _ = Self.tap(&machine, key: 0, at: 0)
        _ = Self.tap(&machine, key: 1, at: 700)
        let third = Self.tap(&machine, key: 2, at: 1400)
        #expect(third?.sequentialString == "123")
        #expect(third?.touchedString == "3")
        let late = Self.tap(&machine, key: 3, at: 2300)
        #expect(late?.sequentialString == "4")
    }

    @Test func numberPad_disabledKey_ignoresTouches() {
        var machine = Self.machine(enabled: [1, 2, 3])
        let down = Self.state(machine.handle(.touchBegan(x: Self.x(5), at: ms(0))))
        #expect(down?.highlighted == nil)
        let up = Self.state(machine.handle(.touchLifted(x: Self.x(5), at: ms(50))))
        #expect(up?.touchedString == "")
        #expect(up?.sequentialString == "")
    }

    @Test func numberPad_liftAfterSlidingOntoAnotherKey_emitsThatKey() {
        var machine = Self.machine()
        _ = machine.handle(.touchBegan(x: Self.x(0), at: ms(0)))
        _ = machine.handle(.touchMoved(x: Self.x(6), at: ms(30)))
        #expect(Self.state(machine.handle(.touchLifted(x: Self.x(6), at: ms(60))))?.touchedString == "7")
    }

    @Test func numberPad_cancel_clearsTheHighlightWithoutEmitting() {
        var machine = Self.machine()
        _ = machine.handle(.touchBegan(x: Self.x(0), at: ms(0)))
        let state = Self.state(machine.handle(.touchCancelled(at: ms(10))))
        #expect(state?.highlighted == nil)
        #expect(state?.touchedString == "")
    }

    @Test func numberPad_setEnabled_disablesTheKeyUnderTheFinger() {
        var machine = Self.machine()
        _ = machine.handle(.touchBegan(x: Self.x(0), at: ms(0)))
        let state = Self.state(machine.handle(.enabledSetChanged([2, 3], at: ms(10))))
        #expect(state?.highlighted == nil)
        #expect(state?.enabled == [2, 3])
    }

    @Test func numberPad_eventsThatDoNotFitTheState_areIgnored() {
        var machine = Self.machine()
        #expect(machine.handle(.touchMoved(x: 10, at: ms(0))).isEmpty)
        #expect(machine.handle(.touchLifted(x: 10, at: ms(0))).isEmpty)
        #expect(machine.handle(.touchCancelled(at: ms(0))).isEmpty)
        _ = machine.handle(.touchBegan(x: 10, at: ms(0)))
        #expect(machine.handle(.touchBegan(x: 500, at: ms(1))).isEmpty)
    }
}
