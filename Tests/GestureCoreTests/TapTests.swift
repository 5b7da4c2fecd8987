import BusSchema
import GestureCore
import InputCore
import MessageFixtures
import Testing

@Suite struct TapTests {
    @Test func singleTapIsRecognizedAtLift() {
        // Chromium gesture_provider_unittest GestureTap; Flutter tap_test "Should recognize tap".
        let events = Replay.events(Replay.generator.tap(x: 100, y: 200, holdMs: 80))
        let tap = events.named("tap")
        #expect(tap.states == [.recognized])
        #expect(tap.first?.tMs == 80)
        #expect(tap.first.map { ($0.x, $0.y, $0.touches) } ?? (0, 0, 0) == (100, 200, 1))
    }

    @Test func movingBeyondTheSlopFailsTheTap() {
        // Chromium TapCancelledByTouchSlop-style scenario: a move past 8 pt is no tap.
        let within = Replay.events(TouchScriptLine.stroke((0, 100, 100), (20, 107, 100), (40, 107, 100)))
        #expect(within.named("tap").states == [.recognized])
        let beyond = Replay.events(TouchScriptLine.stroke((0, 100, 100), (20, 109, 100), (40, 100, 100)))
        #expect(beyond.named("tap").states == [.failed])
    }

    @Test func pressHeldPastTheLongPressTimeIsNoTap() {
        // Chromium GestureLongPress: no GESTURE_TAP follows a long press.
        let events = Replay.events(Replay.generator.longPress(x: 50, y: 50, holdMs: 700))
        #expect(events.named("tap").states == [.failed])
        #expect(events.named("tap").first?.tMs == 500)
        #expect(events.named("longPress").states == [.began, .ended])
        #expect(events.named("longPress").first?.tMs == 500)
    }

    @Test func shortPressIsATapAndNoLongPress() {
        // Flutter long_press_test "Should recognize tap, not long press, if up before the deadline".
        let events = Replay.events(Replay.generator.tap(x: 50, y: 50, holdMs: 300))
        #expect(events.named("tap").states == [.recognized])
        #expect(events.named("longPress").states == [.failed])
    }

    @Test func twoFingerTapNeedsBothFingers() {
        // UIKit numberOfTouchesRequired = 2.
        let scene = Replay.scene([Replay.recognizer("tap2", .tap) { $0.touchesRequired = 2 }])
        let two = Replay.events(
            [
                TouchScriptLine.line(0, 0, .began, 100, 100), TouchScriptLine.line(10, 1, .began, 200, 100),
                TouchScriptLine.line(60, 0, .ended, 100, 100), TouchScriptLine.line(70, 1, .ended, 200, 100),
            ], scene: scene)
        #expect(two.named("tap2").states == [.recognized])
        #expect(two.named("tap2").first.map { ($0.x, $0.touches) } ?? (0, 0) == (150, 2))
        let one = Replay.events(Replay.generator.tap(x: 100, y: 100), scene: scene)
        #expect(one.named("tap2").states == [.failed])
    }
}

@Suite struct DoubleTapTests {
    @Test func twoQuickTapsAreADoubleTap() {
        // Chromium DoubleTap; Flutter double_tap_test "Should recognize double tap".
        let events = Replay.events(Replay.generator.doubleTap(x: 100, y: 100, holdMs: 60, gapMs: 150))
        #expect(events.named("doubleTap").states == [.recognized])
        #expect(events.named("doubleTap").first?.tMs == 270)
        #expect(events.named("tap").states == [.recognized, .recognized])
    }

    @Test func secondTapAfterTheTimeoutFails() {
        // Flutter double_tap_test "Inter-tap delay cancels double tap": fails at lift + 300 ms.
        let events = Replay.events(Replay.generator.doubleTap(x: 100, y: 100, holdMs: 60, gapMs: 320))
        // Each tap starts its own sequence, which fails 300 ms after its lift.
        #expect(events.named("doubleTap").states == [.failed, .failed])
        #expect(events.named("doubleTap").map(\.tMs) == [360, 740])
    }

    @Test func secondTapSoonerThan40msFails() {
        // Android/Chromium DOUBLE_TAP_MIN_TIME 40 ms (a bounce, not a second tap).
        let events = Replay.events(Replay.generator.doubleTap(x: 100, y: 100, holdMs: 60, gapMs: 30))
        #expect(events.named("doubleTap").states == [.failed])
        let justEnough = Replay.events(Replay.generator.doubleTap(x: 100, y: 100, holdMs: 60, gapMs: 40))
        #expect(justEnough.named("doubleTap").states == [.recognized])
    }

    @Test func secondTapFartherThan100ptFails() {
        // Flutter double_tap_test "Inter-tap distance cancels double tap"; DOUBLE_TAP_SLOP 100.
        let far = Replay.generator.tap(x: 100, y: 100) + Replay.generator.tap(x: 210, y: 100, t0: 200, id: 1)
        #expect(Replay.events(far).named("doubleTap").states == [.failed])
        let near = Replay.generator.tap(x: 100, y: 100) + Replay.generator.tap(x: 190, y: 100, t0: 200, id: 1)
        #expect(Replay.events(near).named("doubleTap").states == [.recognized])
    }

    @Test func tapThatRequiresDoubleTapToFailWaitsForTheTimeout() {
        // UIKit require(toFail:): the single tap is delayed until the double tap fails.
        let scene = Replay.scene([
            Replay.recognizer("single", .tap, requireToFail: ["double"]), Replay.recognizer("double", .doubleTap),
        ])
        let single = Replay.events(Replay.generator.tap(x: 100, y: 100, holdMs: 80), scene: scene)
        #expect(single.map { "\($0.name!) \($0.state)" } == ["double failed", "single recognized"])
        #expect(single.map(\.tMs) == [380, 380])
        let double = Replay.events(Replay.generator.doubleTap(x: 100, y: 100), scene: scene)
        #expect(double.map { "\($0.name!) \($0.state)" } == ["double recognized", "single failed"])
    }
}
