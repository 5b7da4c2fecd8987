import BusSchema
import GestureCore
import InputCore
import MessageFixtures
import Testing

@Suite struct PinchTests {
    @Test func pinchBeginsAfterTheSpanChangesBy16pt() {
        // Chromium ScaleGestureDetector span_slop 16: 16 pt of span change is not yet a pinch.
        let small = Replay.events(Replay.generator.pinch(x: 200, y: 200, fromSpan: 100, toSpan: 116))
        #expect(small.named("pinch").states == [.failed])
        let large = Replay.events(Replay.generator.pinch(x: 200, y: 200, fromSpan: 100, toSpan: 118))
        #expect(large.named("pinch").first?.state == .began)
        #expect(large.named("pinch").last?.state == .ended)
    }

    @Test func spreadingScalesUpAndSqueezingScalesDown() {
        // Chromium PinchZoom scenarios: scale is span / start span.
        let out = Replay.events(Replay.generator.pinch(x: 200, y: 200, fromSpan: 100, toSpan: 200)).named("pinch")
        let spread = out.last
        #expect(abs((spread?.scale ?? 0) - 2) < 1e-9)
        #expect((spread?.scaleVelocity ?? 0) > 0)
        #expect(out.allSatisfy { $0.touches == 2 })
        let squeeze = Replay.events(Replay.generator.pinch(x: 200, y: 200, fromSpan: 200, toSpan: 50)).named("pinch")
        let last = squeeze.last
        #expect(abs((last?.scale ?? 0) - 0.25) < 1e-9)
        #expect((last?.scaleVelocity ?? 0) < 0)
        #expect(last.map { ($0.x, $0.y) } ?? (0, 0) == (200, 200))
    }

    @Test func oneFingerNeverPinches() {
        #expect(Replay.events(Replay.generator.swipe(.right, x: 10, y: 10)).named("pinch").states == [.failed])
    }
}

@Suite struct RotationTests {
    @Test func turningPlusXTowardPlusYIsPositive() {
        // DESIGN.md sign: positive turns +x toward +y (clockwise on screen).
        let clockwise = Replay.events(Replay.generator.rotate(x: 200, y: 200, radians: 1)).named("rotation")
        #expect(clockwise.first?.state == .began)
        let last = clockwise.last
        #expect(abs((last?.rotation ?? 0) - 1) < 1e-9)
        #expect((last?.rotationVelocity ?? 0) > 0)
        let counter = Replay.events(Replay.generator.rotate(x: 200, y: 200, radians: -1)).named("rotation")
        #expect(abs((counter.last?.rotation ?? 0) + 1) < 1e-9)
    }

    @Test func rotationBeginsAfterATenthOfARadian() {
        let small = Replay.events(Replay.generator.rotate(x: 200, y: 200, radians: 0.09)).named("rotation")
        #expect(small.states == [.failed])
        let large = Replay.events(Replay.generator.rotate(x: 200, y: 200, radians: 0.12)).named("rotation")
        #expect(large.first?.state == .began)
    }

    @Test func rotationPastHalfATurnStaysContinuous() {
        // The angle is unwrapped: a 4 rad turn reports 4, not 4 − 2π.
        let turn = Replay.events(Replay.generator.rotate(x: 200, y: 200, radians: 4, durationMs: 800)).named("rotation")
        #expect(abs((turn.last?.rotation ?? 0) - 4) < 1e-9)
    }
}

@Suite struct TouchDownTests {
    @Test func beginsAtTheFirstFrameOfATouchThatNeverMoves() {
        // Seed behaviour: no slop, no delay.
        let events = Replay.events(Replay.generator.longPress(x: 30, y: 40, holdMs: 300))
        let down = events.named("touchDown")
        #expect(down.states == [.began, .ended])
        #expect(down.map(\.tMs) == [0, 300])
        #expect(events.first { $0.state != .failed }?.name == "touchDown")
    }

    @Test func changesAsItMovesAndEndsOnLift() {
        let down = Replay.events(Replay.generator.pan(fromX: 0, fromY: 0, toX: 3, toY: 0, durationMs: 24))
            .named("touchDown")
        #expect(down.states == [.began, .changed, .changed, .ended])
    }

    @Test func secondFingerCancelsIt() {
        // Seed behaviour: a second finger cancels touch-down.
        let events = Replay.events(Replay.generator.pinch(x: 200, y: 200, fromSpan: 100, toSpan: 200, t0: 0))
        #expect(events.named("touchDown").states == [.failed])
        let staggered = Replay.events([
            TouchScriptLine.line(0, 0, .began, 100, 100), TouchScriptLine.line(50, 1, .began, 200, 100),
            TouchScriptLine.line(90, 0, .ended, 100, 100), TouchScriptLine.line(95, 1, .ended, 200, 100),
        ])
        #expect(staggered.named("touchDown").states == [.began, .cancelled])
        #expect(staggered.named("touchDown").last?.tMs == 50)
    }
}
