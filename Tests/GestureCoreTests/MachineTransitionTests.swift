import BusSchema
import Testing

@testable import GestureCore

/// Each recognizer kind's state machine on its own, one test per rule: the events it gets (a
/// frame's touches judged, its deadline, the arena's decision, the touches gone) and the proposals
/// and status that follow.
@Suite struct TapMachineTests {
    typealias Driver = MachineDriver<TapMachine>

    @Test func aLiftWithinTheSlopAndTheTime_recognizesWhereTheFingersWere() {
        var tap = Driver(.tap)
        #expect(tap.land(0, 1, 100, 100) == nil)
        #expect(tap.status.deadline == Driver.at(500))
        #expect(tap.move(20, 1, 104, 100) == nil)
        #expect(tap.lift(40, 1, 104, 100) == .recognize)
        #expect(tap.status.isDone && tap.status.deadline == nil)
        let event = tap.described(.recognized, kind: .tap)
        #expect((event.x, event.y, event.touches) == (100, 100, 1))
    }

    @Test func aMoveBeyondTheSlop_fails() {
        var tap = Driver(.tap)
        _ = tap.land(0, 1, 100, 100)
        #expect(tap.move(20, 1, 109, 100) == .fail)
        #expect(tap.status.isDone)
    }

    @Test func aFingerHeldPastTheMaximumTapDuration_failsAtTheDeadline() {
        var tap = Driver(.tap)
        _ = tap.land(0, 1, 100, 100)
        #expect(tap.deadlinePassed() == .fail)
        #expect(tap.status.isDone)
    }

    @Test func moreFingersThanRequired_fail() {
        var tap = Driver(.tap)
        _ = tap.land(0, 1, 100, 100)
        #expect(tap.land(10, 2, 200, 100) == .fail)
    }

    @Test func fewerFingersThanRequired_failAtTheLift() {
        var tap = Driver(.tap) { $0.touchesRequired = 2 }
        _ = tap.land(0, 1, 100, 100)
        #expect(tap.lift(40, 1, 100, 100) == .fail)
    }

    @Test func aCancelledTouch_fails() {
        var tap = Driver(.tap)
        _ = tap.land(0, 1, 100, 100)
        #expect(tap.lift(40, 1, 100, 100, cancelled: true) == .fail)
    }

    @Test func aFirstTapOfTwo_waitsForTheNextUntilTheTimeout() {
        var tap = Driver(.doubleTap)
        _ = tap.land(0, 1, 100, 100)
        #expect(tap.lift(50, 1, 100, 100) == nil)
        #expect(tap.status.isUnderway && !tap.status.isDone)
        #expect(tap.status.deadline == Driver.at(350))
        #expect(tap.deadlinePassed() == .fail)
    }

    @Test func aSecondTapSoonerThanTheMinimumInterval_fails() {
        var tap = Driver(.doubleTap)
        _ = tap.land(0, 1, 100, 100)
        _ = tap.lift(50, 1, 100, 100)
        #expect(tap.land(80, 2, 100, 100) == .fail)
    }

    @Test func aSecondTapFartherThanTheDoubleTapDistance_fails() {
        var tap = Driver(.doubleTap)
        _ = tap.land(0, 1, 100, 100)
        _ = tap.lift(50, 1, 100, 100)
        #expect(tap.land(200, 2, 250, 100) == .fail)
    }

    @Test func aSecondTapInTime_recognizesTheDoubleTap() {
        var tap = Driver(.doubleTap)
        _ = tap.land(0, 1, 100, 100)
        _ = tap.lift(50, 1, 100, 100)
        #expect(tap.land(200, 2, 110, 100) == nil)
        #expect(tap.status.deadline == Driver.at(700))
        #expect(tap.lift(250, 2, 110, 100) == .recognize)
        #expect(tap.described(.recognized, kind: .doubleTap).x == 110)
    }

    @Test func aDoneTap_ignoresFramesUntilItsTouchesAreGone() {
        var tap = Driver(.tap)
        _ = tap.land(0, 1, 100, 100)
        _ = tap.move(20, 1, 150, 100)
        #expect(tap.move(30, 1, 100, 100) == nil)
        tap.touchesGone()
        #expect(tap.status == .possible)
        #expect(tap.land(100, 2, 100, 100) == nil)
        #expect(tap.lift(140, 2, 100, 100) == .recognize)
    }

    @Test func theArenasDecision_failsIt() {
        var tap = Driver(.tap)
        _ = tap.land(0, 1, 100, 100)
        #expect(tap.arenaClosed() == nil)
        #expect(tap.status.isDone && tap.status.deadline == nil)
        #expect(tap.lift(40, 1, 100, 100) == nil)
    }
}

@Suite struct LongPressMachineTests {
    typealias Driver = MachineDriver<LongPressMachine>

    @Test func theRequiredFingersHeldUntilTheDeadline_begin() {
        var press = Driver(.longPress)
        #expect(press.land(0, 1, 100, 100) == nil)
        #expect(press.status.deadline == Driver.at(500))
        #expect(press.deadlinePassed() == .begin)
        #expect(press.status.isUnderway && !press.status.isDone && press.status.deadline == nil)
    }

    @Test func aLiftBeforeTheDeadline_fails() {
        var press = Driver(.longPress)
        _ = press.land(0, 1, 100, 100)
        #expect(press.lift(300, 1, 100, 100) == .fail)
    }

    @Test func movingBeyondTheAllowableMovement_fails() {
        var press = Driver(.longPress)
        _ = press.land(0, 1, 100, 100)
        #expect(press.move(100, 1, 105, 100) == nil)
        #expect(press.move(200, 1, 111, 100) == .fail)
    }

    @Test func aBegunPress_changesAsItMovesAndEndsWhenAFingerLifts() {
        var press = Driver(.longPress)
        _ = press.land(0, 1, 100, 100)
        _ = press.deadlinePassed()
        #expect(press.move(600, 1, 150, 100) == .change)
        #expect(press.lift(700, 1, 150, 100) == .end)
        #expect(press.status.isDone)
    }

    @Test func aBegunPressWithACancelledTouch_isCancelled() {
        var press = Driver(.longPress)
        _ = press.land(0, 1, 100, 100)
        _ = press.deadlinePassed()
        #expect(press.lift(700, 1, 100, 100, cancelled: true) == .cancel)
    }
}

@Suite struct TouchDownMachineTests {
    typealias Driver = MachineDriver<TouchDownMachine>

    @Test func oneFingerLanding_beginsAtOnceChangesAndEndsAtTheLift() {
        var down = Driver(.touchDown)
        #expect(down.land(0, 1, 100, 100) == .begin)
        #expect(down.move(10, 1, 101, 100) == .change)
        #expect(down.lift(20, 1, 101, 100) == .end)
    }

    @Test func aSecondFingerLanding_cancelsIt() {
        var down = Driver(.touchDown)
        _ = down.land(0, 1, 100, 100)
        #expect(down.land(10, 2, 200, 100) == .cancel)
    }

    @Test func twoFingersLandingTogether_fail() {
        var down = Driver(.touchDown)
        #expect(
            down.frame(0) {
                $0.land(id: 1, x: 100, y: 100)
                $0.land(id: 2, x: 200, y: 100)
            } == .fail)
    }
}

@Suite struct PanMachineTests {
    typealias Driver = MachineDriver<PanMachine>

    @Test func aPan_beginsOnlyOnceTheTranslationExceedsTheSlop() {
        var pan = Driver(.pan)
        _ = pan.land(0, 1, 100, 100)
        #expect(pan.move(10, 1, 108, 100) == nil)
        #expect(pan.move(20, 1, 109, 100) == .begin)
        #expect(pan.move(30, 1, 130, 100) == .change)
        #expect(pan.described(.changed, kind: .pan).translation == GestureEvent.Vector(x: 30, y: 0))
    }

    @Test func moreFingersThanTheMaximum_fail() {
        var pan = Driver(.pan) { $0.maxTouches = 1 }
        _ = pan.land(0, 1, 100, 100)
        #expect(pan.land(10, 2, 200, 100) == .fail)
    }

    @Test func aBegunPan_endsWhenFewerThanTheMinimumRemain() {
        var pan = Driver(.pan) { $0.minTouches = 2 }
        _ = pan.frame(0) {
            $0.land(id: 1, x: 100, y: 100)
            $0.land(id: 2, x: 200, y: 100)
        }
        #expect(
            pan.frame(10) {
                _ = $0.move(id: 1, x: 120, y: 100)
                _ = $0.move(id: 2, x: 220, y: 100)
            } == .begin)
        #expect(pan.lift(20, 2, 220, 100) == .end)
    }

    @Test func aFingerLandingMidPan_keepsTheTranslationContinuous() {
        var pan = Driver(.pan)
        _ = pan.land(0, 1, 100, 100)
        _ = pan.move(10, 1, 120, 100)
        #expect(pan.land(20, 2, 300, 300) == .change)
        #expect(pan.described(.changed, kind: .pan).translation == GestureEvent.Vector(x: 20, y: 0))
    }

    @Test func anEdgePanLandingAwayFromItsEdges_failsAtOnce() {
        var edge = Driver(.edgePan)
        #expect(edge.land(0, 1, 100, 100) == .fail)
    }

    @Test func anEdgePanMovingAlongTheEdge_fails() {
        var edge = Driver(.edgePan)
        _ = edge.land(0, 1, 5, 300)
        #expect(edge.move(10, 1, 8, 320) == .fail)
    }

    @Test func anEdgePanMovingInward_beginsWithItsEdge() {
        var edge = Driver(.edgePan)
        _ = edge.land(0, 1, 5, 300)
        #expect(edge.move(10, 1, 30, 302) == .begin)
        #expect(edge.described(.began, kind: .edgePan).edge == .left)
    }
}

@Suite struct SwipeMachineTests {
    typealias Driver = MachineDriver<SwipeMachine>

    /// A stroke of frames 10 ms apart, `step` points each along x, the last one the lift.
    static func stroke(_ swipe: inout Driver, step: Double, steps: Int = 8) -> Proposal? {
        _ = swipe.land(0, 1, 100, 100)
        for index in 1..<steps { _ = swipe.move(Int64(index) * 10, 1, 100 + step * Double(index), 100) }
        return swipe.lift(Int64(steps) * 10, 1, 100 + step * Double(steps), 100)
    }

    @Test func aFastStrokeAlongAnAcceptedDirection_isRecognizedAtTheLift() {
        var swipe = Driver(.swipe)
        #expect(Self.stroke(&swipe, step: 10) == .recognize)
        #expect(swipe.described(.recognized, kind: .swipe).direction == .right)
    }

    @Test func aSlowStroke_failsAtTheLift() {
        var swipe = Driver(.swipe)
        #expect(Self.stroke(&swipe, step: 2, steps: 20) == .fail)
    }

    @Test func aStrokeInADirectionNotAccepted_failsBeforeTheLift() {
        var swipe = Driver(.swipe)
        _ = swipe.land(0, 1, 300, 100)
        #expect(swipe.move(10, 1, 280, 100) == nil)
        #expect(swipe.move(20, 1, 260, 100) == .fail)
    }

    @Test func moreFingersThanRequired_fail() {
        var swipe = Driver(.swipe)
        _ = swipe.land(0, 1, 100, 100)
        #expect(swipe.land(5, 2, 100, 200) == .fail)
    }
}

@Suite struct TransformMachineTests {
    typealias Driver = MachineDriver<TransformMachine>

    static func twoFingers(_ kind: GestureEvent.Kind) -> Driver {
        var driver = Driver(kind)
        _ = driver.frame(0) {
            $0.land(id: 1, x: 100, y: 300)
            $0.land(id: 2, x: 300, y: 300)
        }
        return driver
    }

    @Test func aPinch_beginsOnceTheSpanChangesBeyondItsSlop() {
        var pinch = Self.twoFingers(.pinch)
        #expect(pinch.move(10, 2, 310, 300) == nil)
        #expect(pinch.move(20, 2, 320, 300) == .begin)
        #expect(pinch.described(.began, kind: .pinch).scale == 1.1)
    }

    @Test func aRotation_beginsOnceTheAngleTurnsBeyondItsSlop() {
        var rotation = Self.twoFingers(.rotation)
        #expect(rotation.move(10, 2, 300, 310) == nil)
        #expect(rotation.move(20, 2, 300, 330) == .begin)
        #expect((rotation.described(.began, kind: .rotation).rotation ?? 0) > 0.1)
    }

    @Test func aBegunPinch_endsWhenAFingerOfThePairLifts() {
        var pinch = Self.twoFingers(.pinch)
        _ = pinch.move(20, 2, 340, 300)
        #expect(pinch.lift(30, 1, 100, 300) == .end)
        #expect(pinch.status.isDone)
    }

    @Test func everyFingerLiftingBeforeItBegins_fails() {
        var pinch = Self.twoFingers(.pinch)
        #expect(
            pinch.frame(10) {
                _ = $0.lift(id: 1, x: 100, y: 300, cancelled: false)
                _ = $0.lift(id: 2, x: 300, y: 300, cancelled: false)
            } == .fail)
    }
}
