import BusSchema
import GestureCore
import MessageFixtures
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Scenarios from libinput `test/test-gestures.c`, on a 400 × 400 pt scene where 1 % of the
/// touchpad is 4 pt. libinput's touchpad gestures map onto UIKit recognizers: a 3-finger swipe
/// is a 3-finger pan, a pinch/spread is a pinch, a hold is a long press with its finger count.
@Suite struct LibinputScenarioTests {
    /// libinput's `cardinals` table: N, NE, E, SE, S, SW, W, NW as (dx, dy) in percent.
    static let cardinals: [(Double, Double)] = [
        (0, 30), (30, 30), (30, 0), (30, -30), (0, -30), (-30, -30), (-30, 0), (-30, 30),
    ]

    @Test(arguments: 0..<8)
    func threeFingerSwipeIsAThreeFingerPanInItsDirection(cardinal: Int) {
        // gestures_swipe_3fg: fingers at (40,40) (50,40) (60,40) move together by the cardinal in 10 steps.
        let scene = Replay.scene([Replay.recognizer("swipe3", .pan) { $0.minTouches = 3 }], width: 400, height: 400)
        let (dx, dy) = Self.cardinals[cardinal]
        var lines: [TouchScriptLine] = []
        let starts: [Double] = [40, 50, 60]
        for (id, x) in starts.enumerated() { lines.append(TouchScriptLine.line(0, id, .began, x * 4, 160)) }
        for step in 1...10 {
            let f = Double(step) / 10
            for (id, x) in starts.enumerated() {
                lines.append(TouchScriptLine.line(Double(step) * 10, id, .moved, (x + dx * f) * 4, (40 + dy * f) * 4))
            }
        }
        for (id, x) in starts.enumerated() {
            lines.append(TouchScriptLine.line(110, id, .ended, (x + dx) * 4, (40 + dy) * 4))
        }
        let pan = Replay.events(lines, scene: scene).named("swipe3")
        #expect(pan.first?.state == .began)
        #expect(pan.first?.touches == 3)
        #expect(pan.last?.state == .ended)
        let translation = pan.last?.translation ?? GestureEvent.Vector(x: 0, y: 0)
        #expect(abs(translation.x - dx * 4) < 1e-9 && abs(translation.y - dy * 4) < 1e-9)
    }

    @Test func twoFingersAreNoThreeFingerSwipe() {
        // gestures_swipe_3fg needs three fingers; with two the pan never begins.
        let scene = Replay.scene([Replay.recognizer("swipe3", .pan) { $0.minTouches = 3 }], width: 400, height: 400)
        let lines =
            Replay.generator.pinch(x: 200, y: 200, fromSpan: 40, toSpan: 40)
            + Replay.generator.pan(fromX: 100, fromY: 100, toX: 100, toY: 300, t0: 1000, id: 5)
        #expect(Replay.events(lines, scene: scene).named("swipe3").allSatisfy { $0.state == .failed })
    }

    @Test(arguments: 0..<8)
    func pinchAndSpreadScaleDownAndUp(cardinal: Int) {
        // gestures_pinch / gestures_spread: two fingers on a line through the centre in each
        // cardinal direction move toward (pinch) or away from (spread) each other.
        let (dx, dy) = Self.cardinals[cardinal]
        let length = hypot(dx, dy)
        let (ux, uy) = (dx / length, dy / length)
        func lines(from: Double, to: Double) -> [TouchScriptLine] {
            var lines: [TouchScriptLine] = []
            for step in 0...10 {
                let half = (from + (to - from) * Double(step) / 10) / 2
                let phase: TouchScriptLine.Phase = step == 0 ? .began : (step == 10 ? .ended : .moved)
                lines.append(TouchScriptLine.line(Double(step) * 10, 0, phase, 200 - ux * half, 200 - uy * half))
                lines.append(TouchScriptLine.line(Double(step) * 10, 1, phase, 200 + ux * half, 200 + uy * half))
            }
            return lines
        }
        let pinch = Replay.events(lines(from: 160, to: 60)).named("pinch")
        #expect(pinch.first?.state == .began && pinch.last?.state == .ended)
        #expect(abs((pinch.last?.scale ?? 0) - 60.0 / 160.0) < 1e-9)
        let spread = Replay.events(lines(from: 60, to: 160)).named("pinch")
        #expect(abs((spread.last?.scale ?? 0) - 160.0 / 60.0) < 1e-9)
        // A pure pinch does not turn.
        #expect(Replay.events(lines(from: 160, to: 60)).named("rotation").states == [.failed])
    }

    @Test(arguments: 1...3)
    func holdWithNFingersIsALongPressWithNTouches(fingers: Int) {
        // gestures_hold (1–3 fingers, libinput's 180 ms hold timeout): HOLD_BEGIN … HOLD_END.
        let scene = Replay.scene([
            Replay.recognizer("hold", .longPress) {
                $0.touchesRequired = fingers
                $0.minDuration = .milliseconds(180)
            }
        ])
        var lines: [TouchScriptLine] = []
        for id in 0..<fingers { lines.append(TouchScriptLine.line(0, id, .began, 100 + Double(id) * 40, 100)) }
        for id in 0..<fingers { lines.append(TouchScriptLine.line(300, id, .ended, 100 + Double(id) * 40, 100)) }
        let hold = Replay.events(lines, scene: scene).named("hold")
        #expect(hold.states == [.began, .ended])
        #expect(hold.first?.tMs == 180)
        #expect(hold.first?.touches == fingers)
    }

    @Test func holdCancelledByMotion() {
        // gestures_hold_cancel-style: moving before the timeout means no hold.
        let scene = Replay.scene([Replay.recognizer("hold", .longPress) { $0.minDuration = .milliseconds(180) }])
        let lines = Replay.generator.pan(fromX: 100, fromY: 100, toX: 200, toY: 100, durationMs: 150)
        #expect(Replay.events(lines, scene: scene).named("hold").states == [.failed])
    }
}
