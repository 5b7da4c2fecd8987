import Testing

@testable import RenderCore

@Suite struct AnimatorTests {
    typealias V = SIMD2<Double>

    func ended(_ property: Animator.Property, finished: Bool, at t: Double, id: Int?, duration: Double)
        -> Animator.Effect
    {
        .publishCompletion(
            Animator.Completion(
                layer: "m", property: property, finished: finished, atMs: t, animationID: id, durationMs: duration))
    }

    @Test func easeInOutIsSymmetricAndSlowAtBothEnds() {
        let curve = AnimationCurve.easeInOut
        #expect(curve.progress(0) == 0 && curve.progress(1) == 1)
        #expect(abs(curve.progress(0.5) - 0.5) < 1e-6)
        #expect(curve.progress(0.1) < 0.1 && curve.progress(0.9) > 0.9)
        #expect(abs(curve.progress(0.3) + curve.progress(0.7) - 1) < 1e-6)
    }

    @Test func valuesWithoutOptionsApplyAtOnce() {
        var animator = Animator()
        #expect(
            animator.handle(.targetReceived(layer: "m", values: [.position: V(10, 5)], options: nil, atMs: 0)).isEmpty)
        #expect(animator.value(layer: "m", .position, atMs: 0) == V(10, 5))
        #expect(animator.value(layer: "m", .size, atMs: 0) == nil)
        #expect(!animator.isAnimating)
    }

    @Test func animationInterpolatesFromScreenValueAfterItsDelayAndFinishesOnce() {
        var animator = Animator()
        _ = animator.handle(
            .targetReceived(layer: "m", values: [.position: V(0, 0), .opacity: V(1, 0)], options: nil, atMs: 0))
        let options = Animator.Options(id: 7, durationMs: 200, delayMs: 100, curve: .linear)
        _ = animator.handle(
            .targetReceived(
                layer: "m", values: [.position: V(100, 40), .opacity: V(0, 0)], options: options, atMs: 1000))
        #expect(animator.value(layer: "m", .position, atMs: 1050) == V(0, 0))  // still in the delay
        #expect(animator.value(layer: "m", .position, atMs: 1200) == V(50, 20))
        #expect(animator.value(layer: "m", .opacity, atMs: 1200)?.x == 0.5)
        #expect(animator.handle(.frameStarted(atMs: 1250)).isEmpty)
        #expect(
            animator.handle(.frameStarted(atMs: 1316)) == [
                ended(.opacity, finished: true, at: 1300, id: 7, duration: 200),
                ended(.position, finished: true, at: 1300, id: 7, duration: 200),
            ])
        #expect(animator.handle(.frameStarted(atMs: 1400)).isEmpty)
        #expect(animator.value(layer: "m", .position, atMs: 5000) == V(100, 40))
    }

    @Test func anAutoreversingAnimationGoesThereAndBackAfterItsDelayThenShowsTheModelValue() {
        var animator = Animator()
        _ = animator.handle(.targetReceived(layer: "m", values: [.position: V(0, 0)], options: nil, atMs: 0))
        let options = Animator.Options(id: 3, durationMs: 200, delayMs: 100, curve: .linear, autoreverses: true)
        #expect(options.endMs == 500, "the delay, there and back")
        _ = animator.handle(.targetReceived(layer: "m", values: [.position: V(100, 0)], options: options, atMs: 1000))
        #expect(animator.value(layer: "m", .position, atMs: 1050) == V(0, 0), "still in the delay")
        #expect(animator.value(layer: "m", .position, atMs: 1200) == V(50, 0), "half-way there")
        #expect(animator.value(layer: "m", .position, atMs: 1300) == V(100, 0), "there")
        #expect(animator.value(layer: "m", .position, atMs: 1450) == V(25, 0), "three quarters of the way back")
        #expect(animator.handle(.frameStarted(atMs: 1450)).isEmpty)
        #expect(animator.isAnimating)
        #expect(
            animator.handle(.frameStarted(atMs: 1510)) == [
                ended(.position, finished: true, at: 1500, id: 3, duration: 200)
            ])
        #expect(!animator.isAnimating)
        #expect(animator.value(layer: "m", .position, atMs: 1510) == V(100, 0), "the model value, as UIKit shows it")
    }

    @Test func anAutoreversingAnimationInterruptedOnItsWayBackRestartsFromWhereItIs() {
        var animator = Animator()
        _ = animator.handle(.targetReceived(layer: "m", values: [.opacity: V(1, 0)], options: nil, atMs: 0))
        let pulse = Animator.Options(id: 1, durationMs: 100, curve: .linear, autoreverses: true)
        _ = animator.handle(.targetReceived(layer: "m", values: [.opacity: V(0, 0)], options: pulse, atMs: 0))
        #expect(animator.value(layer: "m", .opacity, atMs: 150) == V(0.5, 0))
        let fade = Animator.Options(id: 2, durationMs: 100, curve: .linear)
        let effects = animator.handle(
            .targetReceived(layer: "m", values: [.opacity: V(0, 0)], options: fade, atMs: 150))
        #expect(effects == [ended(.opacity, finished: false, at: 150, id: 1, duration: 100)])
        #expect(animator.value(layer: "m", .opacity, atMs: 200) == V(0.25, 0))
    }

    @Test func newTargetMidFlightRestartsFromTheCurrentValueAndInterruptsTheOldAnimation() {
        var animator = Animator()
        _ = animator.handle(.targetReceived(layer: "m", values: [.rotation: V(0, 0)], options: nil, atMs: 0))
        let first = Animator.Options(id: 1, durationMs: 100, curve: .linear)
        _ = animator.handle(.targetReceived(layer: "m", values: [.rotation: V(1, 0)], options: first, atMs: 0))
        let second = Animator.Options(id: 2, durationMs: 100, curve: .linear)
        let effects = animator.handle(
            .targetReceived(layer: "m", values: [.rotation: V(-1, 0)], options: second, atMs: 50))
        #expect(effects == [ended(.rotation, finished: false, at: 50, id: 1, duration: 100)])
        #expect(animator.value(layer: "m", .rotation, atMs: 50)?.x == 0.5)  // no jump
        #expect(animator.value(layer: "m", .rotation, atMs: 100)?.x == -0.25)
        #expect(animator.isAnimating)
        #expect(
            animator.handle(.frameStarted(atMs: 150)) == [
                ended(.rotation, finished: true, at: 150, id: 2, duration: 100)
            ])
    }

    @Test func zeroDurationAnimationCompletesImmediately() {
        var animator = Animator()
        let options = Animator.Options(id: 3, durationMs: 0)
        let effects = animator.handle(.targetReceived(layer: "m", values: [.scale: V(2, 0)], options: options, atMs: 5))
        #expect(effects == [ended(.scale, finished: true, at: 5, id: 3, duration: 0)])
        #expect(animator.value(layer: "m", .scale, atMs: 5)?.x == 2)
    }

    @Test func animatedValuesApplyToALayer() {
        let layer = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
            .applying([.position: V(5, 0), .size: V(20, 10), .opacity: V(0.5, 0), .rotation: V(0, 0), .scale: V(2, 0)])
        #expect(layer.frame == Rect(x: 5, y: 0, width: 20, height: 10))
        #expect(layer.opacity == 0.5)
        #expect(layer.transform == .scale(2, 2))
    }
}
