import Testing

@testable import RenderCore

@Suite struct AnimatorTests {
    @Test func easeInOutIsSymmetricAndSlowAtBothEnds() {
        let curve = AnimationCurve.easeInOut
        #expect(curve.progress(0) == 0 && curve.progress(1) == 1)
        #expect(abs(curve.progress(0.5) - 0.5) < 1e-6)
        #expect(curve.progress(0.1) < 0.1 && curve.progress(0.9) > 0.9)
        #expect(abs(curve.progress(0.3) + curve.progress(0.7) - 1) < 1e-6)
    }

    @Test func valuesWithoutOptionsApplyAtOnce() {
        var animator = Animator()
        #expect(animator.handle(.targetReceived(layer: "m", values: [.x: 10], options: nil, atMs: 0)).isEmpty)
        #expect(animator.value(layer: "m", .x, atMs: 0) == 10)
        #expect(animator.value(layer: "m", .y, atMs: 0) == nil)
    }

    @Test func animationInterpolatesFromScreenValueAfterItsDelayAndFinishesOnce() {
        var animator = Animator()
        _ = animator.handle(.targetReceived(layer: "m", values: [.x: 0, .opacity: 1], options: nil, atMs: 0))
        let options = Animator.Options(id: "a1", durationMs: 200, delayMs: 100, curve: .linear)
        _ = animator.handle(.targetReceived(layer: "m", values: [.x: 100, .opacity: 0], options: options, atMs: 1000))
        #expect(animator.value(layer: "m", .x, atMs: 1050) == 0)  // still in the delay
        #expect(animator.value(layer: "m", .x, atMs: 1200) == 50)
        #expect(animator.value(layer: "m", .opacity, atMs: 1200) == 0.5)
        #expect(animator.handle(.frameStarted(atMs: 1250)).isEmpty)
        #expect(animator.handle(.frameStarted(atMs: 1300)) == [.animationEnded(id: "a1", finished: true)])
        #expect(animator.handle(.frameStarted(atMs: 1400)).isEmpty)
        #expect(animator.value(layer: "m", .x, atMs: 5000) == 100)
    }

    @Test func newTargetMidFlightRestartsFromTheCurrentValueAndInterruptsTheOldAnimation() {
        var animator = Animator()
        _ = animator.handle(.targetReceived(layer: "m", values: [.rotation: 0], options: nil, atMs: 0))
        let first = Animator.Options(id: "first", durationMs: 100, curve: .linear)
        _ = animator.handle(.targetReceived(layer: "m", values: [.rotation: 1], options: first, atMs: 0))
        let second = Animator.Options(id: "second", durationMs: 100, curve: .linear)
        let effects = animator.handle(.targetReceived(layer: "m", values: [.rotation: -1], options: second, atMs: 50))
        #expect(effects == [.animationEnded(id: "first", finished: false)])
        #expect(animator.value(layer: "m", .rotation, atMs: 50) == 0.5)  // no jump
        #expect(animator.value(layer: "m", .rotation, atMs: 100) == -0.25)
        #expect(animator.handle(.frameStarted(atMs: 150)) == [.animationEnded(id: "second", finished: true)])
    }

    @Test func zeroDurationAnimationCompletesImmediately() {
        var animator = Animator()
        let options = Animator.Options(id: "now", durationMs: 0)
        let effects = animator.handle(.targetReceived(layer: "m", values: [.scale: 2], options: options, atMs: 5))
        #expect(effects == [.animationEnded(id: "now", finished: true)])
        #expect(animator.value(layer: "m", .scale, atMs: 5) == 2)
    }

    @Test func animatedValuesApplyToALayer() {
        let layer = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
            .applying([.x: 5, .width: 20, .opacity: 0.5, .rotation: 0, .scale: 2])
        #expect(layer.frame == Rect(x: 5, y: 0, width: 20, height: 10))
        #expect(layer.opacity == 0.5)
        #expect(layer.transform == .scale(2, 2))
    }
}
