import BusSchema
import GestureCore
import InputCore
import MessageFixtures
import Testing

@Suite struct LongPressTests {
    @Test func beginsAfter500msChangesAndEndsOnLift() {
        // Flutter long_press_test "Should recognize long press" (kLongPressTimeout 500 ms).
        let events = Replay.events(TouchScriptLine.stroke((0, 100, 100), (600, 104, 100), (700, 104, 100)))
        let press = events.named("longPress")
        #expect(press.states == [.began, .changed, .ended])
        #expect(press.map(\.tMs) == [500, 600, 700])
    }

    @Test func movingMoreThan10ptFailsIt() {
        // Flutter long_press_test "Should not recognize long press with movement beyond slop";
        // UIKit allowableMovement 10 pt.
        let events = Replay.events(TouchScriptLine.stroke((0, 100, 100), (100, 111, 100), (700, 111, 100)))
        #expect(events.named("longPress").states == [.failed])
        let small = Replay.events(TouchScriptLine.stroke((0, 100, 100), (100, 109, 100), (700, 109, 100)))
        #expect(small.named("longPress").states == [.began, .ended])
    }

    @Test func durationIsConfigurable() {
        // Flutter long_press_test "Should recognize long press with altered duration".
        let scene = Replay.scene([Replay.recognizer("press", .longPress) { $0.minDuration = .milliseconds(100) }])
        let press = Replay.events(Replay.generator.tap(x: 10, y: 10, holdMs: 150), scene: scene).named("press")
        #expect(press.states == [.began, .ended])
        #expect(press.first?.tMs == 100)
    }

    @Test func scrollBeginningFailsThePendingLongPress() {
        // Chromium gesture_provider_unittest: a scroll cancels the pending long press; UIKit: the
        // pan beginning fails the undecided long press it may not run with.
        // The press tolerates 50 pt here, so only the pan's beginning can fail it.
        let scene = Replay.scene([
            Replay.recognizer("press", .longPress) { $0.allowableMovement = 50 }, Replay.recognizer("pan", .pan),
        ])
        let events = Replay.events(
            Replay.generator.pan(fromX: 100, fromY: 100, toX: 100, toY: 300, durationMs: 200), scene: scene)
        #expect(events.named("press").states == [.failed])
        #expect(events.named("press").first?.tMs == events.named("pan").first?.tMs)
    }

    @Test func liftBeforeTheDeadlineFailsIt() {
        // Flutter long_press_test "Up cancels long press".
        let events = Replay.events(Replay.generator.tap(x: 10, y: 10, holdMs: 499))
        #expect(events.named("longPress").states == [.failed])
    }
}

@Suite struct PanTests {
    @Test func beginsOnlyPastTheTouchSlop() {
        // Chromium ScrollBeginWithTouchSlop: 8 pt is still a tap, 9 pt starts a scroll.
        let still = Replay.events(TouchScriptLine.stroke((0, 100, 100), (16, 100, 108), (32, 100, 108)))
        #expect(still.named("pan").states == [.failed])
        let moved = Replay.events(TouchScriptLine.stroke((0, 100, 100), (16, 100, 109), (32, 100, 120), (48, 100, 120)))
        let pan = moved.named("pan")
        #expect(pan.states == [.began, .changed, .ended])
        #expect(pan.map { $0.translation?.y } == [9, 20, 20])
    }

    @Test func translationAndVelocityFollowASteadyDrag() {
        // Flutter drag_test "Should recognize pan": 200 pt in 500 ms is 400 pt/s.
        let events = Replay.events(Replay.generator.pan(fromX: 100, fromY: 100, toX: 300, toY: 100, durationMs: 500))
        let pan = events.named("pan")
        #expect(pan.first?.state == .began)
        #expect(pan.last?.state == .ended)
        #expect(pan.last?.translation == GestureEvent.Vector(x: 200, y: 0))
        let velocity = pan.last?.velocity ?? GestureEvent.Vector(x: 0, y: 0)
        #expect(abs(velocity.x - 400) < 1 && abs(velocity.y) < 1e-6)
    }

    @Test func pauseBeforeLiftEndsWithZeroVelocity() {
        // Android ASSUME_POINTER_STOPPED_TIME 40 ms: a finger that rests before lifting does not fling.
        let lines = Replay.generator.pullDown(x: 100, y: 100, distance: 150, durationMs: 600)
        let pan = Replay.events(lines).named("pan")
        #expect(pan.last?.state == .ended)
        #expect(pan.last?.velocity == GestureEvent.Vector(x: 0, y: 0))
        #expect(pan.last?.translation == GestureEvent.Vector(x: 0, y: 150))
    }

    @Test func secondFingerKeepsTheTranslationContinuous() {
        // UIKit pan with two fingers: the translation does not jump when a finger lands.
        let events = Replay.events([
            TouchScriptLine.line(0, 0, .began, 100, 100), TouchScriptLine.line(10, 0, .moved, 100, 130),
            TouchScriptLine.line(20, 1, .began, 300, 100), TouchScriptLine.line(30, 0, .moved, 100, 140),
            TouchScriptLine.line(30, 1, .moved, 300, 110), TouchScriptLine.line(40, 0, .ended, 100, 140),
            TouchScriptLine.line(40, 1, .ended, 300, 110),
        ])
        let pan = events.named("pan")
        #expect(pan.map { $0.translation?.y } == [30, 30, 40, 40])
    }

    @Test func screenEdgePanBeginsFromItsEdgeOnly() {
        // UIScreenEdgePanGestureRecognizer: the touch must begin at the edge and move inward.
        let scene = Replay.scene([Replay.recognizer("edge", .edgePan)], width: 400, height: 800)
        let fromEdge = Replay.events(
            Replay.generator.pan(fromX: 5, fromY: 300, toX: 200, toY: 300, durationMs: 300), scene: scene)
        #expect(fromEdge.named("edge").first?.state == .began)
        #expect(fromEdge.named("edge").first?.edge == .left)
        #expect(fromEdge.named("edge").last?.state == .ended)
        let fromMiddle = Replay.events(
            Replay.generator.pan(fromX: 100, fromY: 300, toX: 300, toY: 300, durationMs: 300), scene: scene)
        #expect(fromMiddle.named("edge").states == [.failed])
        let alongEdge = Replay.events(
            Replay.generator.pan(fromX: 5, fromY: 300, toX: 5, toY: 500, durationMs: 300), scene: scene)
        #expect(alongEdge.named("edge").states == [.failed])
    }
}

@Suite struct SwipeTests {
    static let allDirections = Replay.scene([
        Replay.recognizer("swipe", .swipe) { $0.directions = Set(GestureEvent.Direction.allCases) }
    ])

    @Test(arguments: ScenarioGenerator.Direction.allCases)
    func quickFlickIsASwipeInItsDirection(direction: ScenarioGenerator.Direction) {
        // Chromium gesture_provider_unittest swipe scenarios (one finger, four directions).
        let lines = Replay.generator.swipe(direction, x: 400, y: 400, distance: 200, durationMs: 120)
        let swipe = Replay.events(lines, scene: Self.allDirections).named("swipe")
        #expect(swipe.states == [.recognized])
        #expect(swipe.first?.direction?.rawValue == direction.rawValue)
    }

    @Test func tooSlowTooShortOrTooSlantedIsNoSwipe() {
        // Thresholds: ≥ 300 pt/s along the axis at lift, ≥ 30 pt, ≤ 20° off the axis.
        func swipe(_ lines: [TouchScriptLine]) -> [GestureEvent.State] {
            Replay.events(lines, scene: Self.allDirections).named("swipe").states
        }
        let g = Replay.generator
        #expect(swipe(g.swipe(.right, x: 100, y: 100, distance: 100, durationMs: 400)) == [.failed])  // 250 pt/s
        #expect(swipe(g.swipe(.right, x: 100, y: 100, distance: 100, durationMs: 250)) == [.recognized])  // 400 pt/s
        #expect(swipe(g.swipe(.right, x: 100, y: 100, distance: 25, durationMs: 40)) == [.failed])  // 25 pt
        let slanted = g.stroke([(100, 100), (300, 100 + 200 * 0.40)], durationMs: 120)  // ≈ 21.8°
        #expect(swipe(slanted) == [.failed])
        let straightEnough = g.stroke([(100, 100), (300, 100 + 200 * 0.35)], durationMs: 120)  // ≈ 19.3°
        #expect(swipe(straightEnough) == [.recognized])
    }

    @Test func directionOutsideTheSetFails() {
        // UIKit's default direction is right only.
        let scene = Replay.scene([Replay.recognizer("swipe", .swipe)])
        let left = Replay.events(Replay.generator.swipe(.left, x: 400, y: 100), scene: scene)
        #expect(left.named("swipe").states == [.failed])
        let right = Replay.events(Replay.generator.swipe(.right, x: 100, y: 100), scene: scene)
        #expect(right.named("swipe").states == [.recognized])
    }
}
