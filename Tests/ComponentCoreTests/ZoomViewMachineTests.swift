import BusSchema
import Testing

@testable import ComponentCore

@Suite struct ZoomViewMachineTests {
    static func machine() -> ZoomViewMachine {
        ZoomViewMachine(
            instance: "zoom1",
            config: ZoomViewMachine.Config(
                minScale: 1, maxScale: 4, viewportWidth: 500, viewportHeight: 400, image: "a.png"))
    }

    static func state(_ effects: [ComponentEffect]) -> ZoomViewState? {
        guard case .zoomView(let state)? = Effects.states(effects).last else { return nil }
        return state
    }

    @Test func zoomView_pinch_zoomsAndHidesTheOverlayUntilItEnds() throws {
        var machine = Self.machine()
        let began = try #require(Self.state(machine.handle(.pinchBegan(x: 0, y: 0, at: ms(0)))))
        #expect(!began.overlayVisible)
        #expect(began.zooming == true)
        #expect(Self.state(machine.handle(.pinchChanged(scale: 2.5, x: 0, y: 0, at: ms(10))))?.scale == 2.5)
        let ended = try #require(Self.state(machine.handle(.pinchEnded(at: ms(20)))))
        #expect(ended.overlayVisible)
        #expect(ended.scale == 2.5)
    }

    static let snap = StateAnimation {
        $0.durationMs = 300
        $0.delayMs = 0
        $0.curve = .easeInOut
    }

    /// The view at (100, 50) in the scene, 500×400.
    static func placedMachine() -> ZoomViewMachine {
        ZoomViewMachine(
            instance: "zoom1",
            config: ZoomViewMachine.Config(
                minScale: 1, maxScale: 4, viewportWidth: 500, viewportHeight: 400, originX: 100, originY: 50))
    }

    @Test func zoomView_pinch_keepsTheImagePointUnderItsFingersAsTheySpreadAndMove() throws {
        var machine = Self.placedMachine()
        // Fingers centred on view point (250, 200): image point (250, 200) at scale 1.
        _ = machine.handle(.pinchBegan(x: 350, y: 250, at: ms(0)))
        let spread = try #require(Self.state(machine.handle(.pinchChanged(scale: 2, x: 350, y: 250, at: ms(10)))))
        #expect((spread.offsetX, spread.offsetY) == (250, 200), "image (250, 200) × 2 − view (250, 200)")
        let moved = try #require(Self.state(machine.handle(.pinchChanged(scale: 2, x: 300, y: 250, at: ms(20)))))
        #expect((moved.offsetX, moved.offsetY) == (300, 200), "the image point follows the fingers 50 pt left")
    }

    @Test func zoomView_pinchPastTheMaximum_snapsBackAboutTheFingers() throws {
        var machine = Self.placedMachine()
        _ = machine.handle(.pinchBegan(x: 350, y: 250, at: ms(0)))
        let over = try #require(Self.state(machine.handle(.pinchChanged(scale: 6, x: 350, y: 250, at: ms(10)))))
        #expect(over.scale > 4)
        let back = try #require(Self.state(machine.handle(.pinchEnded(at: ms(20)))))
        #expect(back.scale == 4)
        #expect((back.offsetX, back.offsetY) == (750, 600), "image (250, 200) still under the fingers at 4×")
        #expect(back.animation == Self.snap)
    }

    @Test func zoomView_doubleTap_zoomsInCentredOnTheTappedPointWithinTheBounds() throws {
        var machine = Self.placedMachine()
        // View point (300, 250): image (300, 250) goes to the centre (250, 200) at 2×.
        let zoomed = try #require(Self.state(machine.handle(.doubleTapRecognized(x: 400, y: 300, at: ms(0)))))
        #expect(zoomed.scale == 2)
        #expect((zoomed.offsetX, zoomed.offsetY) == (350, 300))
        _ = machine.handle(.doubleTapRecognized(x: 400, y: 300, at: ms(500)))
        // Near the corner the centre cannot be reached: the offset stops at the bounds.
        let corner = try #require(Self.state(machine.handle(.doubleTapRecognized(x: 590, y: 440, at: ms(1000)))))
        #expect((corner.offsetX, corner.offsetY) == (500, 400))
    }

    @Test func zoomView_pinchPastTheLimits_goesOnWithResistanceAndSnapsBackAnimated() throws {
        var machine = Self.machine()
        _ = machine.handle(.pinchBegan(x: 0, y: 0, at: ms(0)))
        let over = try #require(Self.state(machine.handle(.pinchChanged(scale: 6, x: 0, y: 0, at: ms(10)))))
        #expect(over.scale > 4 && over.scale < 5, "past the maximum, but by less than the bounce limit")
        let further = try #require(Self.state(machine.handle(.pinchChanged(scale: 100, x: 0, y: 0, at: ms(15)))))
        #expect(further.scale > over.scale && further.scale < 5)
        #expect(over.animation == nil, "the scale follows the fingers")
        let back = try #require(Self.state(machine.handle(.pinchEnded(at: ms(20)))))
        #expect(back.scale == 4)
        #expect(back.animation == Self.snap)
        _ = machine.handle(.pinchBegan(x: 0, y: 0, at: ms(100)))
        let under = try #require(Self.state(machine.handle(.pinchChanged(scale: 0.01, x: 0, y: 0, at: ms(110)))))
        #expect(under.scale < 1 && under.scale > 0.75)
        let up = try #require(Self.state(machine.handle(.pinchEnded(at: ms(120)))))
        #expect(up.scale == 1)
        #expect(up.offsetX == 0 && up.offsetY == 0)
        #expect(up.animation == Self.snap)
    }

    @Test func zoomView_pinchEndedWithinTheLimits_staysUnanimated() {
        var machine = Self.machine()
        _ = machine.handle(.pinchBegan(x: 0, y: 0, at: ms(0)))
        _ = machine.handle(.pinchChanged(scale: 2, x: 0, y: 0, at: ms(10)))
        let ended = Self.state(machine.handle(.pinchEnded(at: ms(20))))
        #expect(ended?.scale == 2)
        #expect(ended?.animation == nil)
    }

    @Test func zoomView_panWhenZoomed_movesWithinTheBounds() {
        var machine = Self.machine()
        _ = machine.handle(.pinchBegan(x: 0, y: 0, at: ms(0)))
        _ = machine.handle(.pinchChanged(scale: 2, x: 0, y: 0, at: ms(10)))
        _ = machine.handle(.pinchEnded(at: ms(20)))
        _ = machine.handle(.panBegan(at: ms(30)))
        let state = Self.state(machine.handle(.panChanged(translation: vector(-100, -5000), at: ms(40))))
        #expect(state?.offsetX == 100)
        #expect(state?.offsetY == 400)
    }

    /// The source hides its overlay from `scrollViewWillBeginDragging` to `WillEndDragging`, as
    /// it does from `WillBeginZooming` to `DidEndZooming`.
    @Test func zoomView_panWhenZoomed_hidesTheOverlayUntilTheFingerLifts() throws {
        var machine = Self.machine()
        _ = machine.handle(.doubleTapRecognized(x: 0, y: 0, at: ms(0)))
        let began = try #require(Self.state(machine.handle(.panBegan(at: ms(400)))))
        #expect(!began.overlayVisible)
        #expect(began.zooming == false)
        let moved = try #require(Self.state(machine.handle(.panChanged(translation: vector(-50, -20), at: ms(410)))))
        #expect(!moved.overlayVisible)
        let ended = try #require(Self.state(machine.handle(.panEnded(at: ms(420)))))
        #expect(ended.overlayVisible)
        #expect((ended.offsetX, ended.offsetY) == (moved.offsetX, moved.offsetY))
        _ = machine.handle(.panBegan(at: ms(500)))
        #expect(Self.state(machine.handle(.appWillResignActive(at: ms(510))))?.overlayVisible == true)
    }

    @Test func zoomView_panWhenUnzoomed_isIgnored() {
        var machine = Self.machine()
        #expect(machine.handle(.panBegan(at: ms(0))).isEmpty, "nothing to scroll: the overlay stays")
        #expect(machine.handle(.panChanged(translation: vector(-100, 0), at: ms(10))).isEmpty)
        #expect(machine.handle(.panEnded(at: ms(20))).isEmpty)
    }

    @Test func zoomView_doubleTap_togglesBetweenMinimumAndTwice() {
        var machine = Self.machine()
        #expect(Self.state(machine.handle(.doubleTapRecognized(x: 0, y: 0, at: ms(0))))?.scale == 2)
        #expect(Self.state(machine.handle(.doubleTapRecognized(x: 0, y: 0, at: ms(500))))?.scale == 1)
    }

    @Test func zoomView_doubleTapAndReset_carryTheZoomAnimation() {
        var machine = Self.machine()
        #expect(Self.state(machine.handle(.doubleTapRecognized(x: 0, y: 0, at: ms(0))))?.animation == Self.snap)
        #expect(Self.state(machine.handle(.resetRequested(at: ms(100))))?.animation == Self.snap)
        #expect(Self.state(machine.handle(.resetRequested(at: ms(200))))?.animation == nil, "already at the minimum")
    }

    @Test func zoomView_resetAndResignActive_endTheZoom() {
        var machine = Self.machine()
        _ = machine.handle(.pinchBegan(x: 0, y: 0, at: ms(0)))
        _ = machine.handle(.pinchChanged(scale: 3, x: 0, y: 0, at: ms(10)))
        #expect(Self.state(machine.handle(.appWillResignActive(at: ms(20))))?.overlayVisible == true)
        #expect(Self.state(machine.handle(.resetRequested(at: ms(30))))?.scale == 1)
    }

    @Test func zoomView_eventsThatDoNotFitTheState_areIgnored() {
        var machine = Self.machine()
        #expect(machine.handle(.pinchChanged(scale: 2, x: 0, y: 0, at: ms(0))).isEmpty)
        #expect(machine.handle(.pinchEnded(at: ms(0))).isEmpty)
        #expect(machine.handle(.panChanged(translation: vector(1, 1), at: ms(0))).isEmpty)
        #expect(machine.handle(.panEnded(at: ms(0))).isEmpty)
        #expect(machine.handle(.appWillResignActive(at: ms(0))).isEmpty)
        _ = machine.handle(.pinchBegan(x: 0, y: 0, at: ms(1)))
        #expect(machine.handle(.doubleTapRecognized(x: 0, y: 0, at: ms(2))).isEmpty)
        #expect(machine.handle(.panBegan(at: ms(2))).isEmpty)
    }
}
