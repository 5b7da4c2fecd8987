import BusSchema
import Foundation
import Testing

@testable import ComponentCore

@Suite struct ScrollViewMachineTests {
    static func machine(paging: Bool = false, bounces: Bool = true, maxScale: Double = 3) -> ScrollViewMachine {
        ScrollViewMachine(
            instance: "scroll1",
            config: ScrollViewMachine.Config(
                viewportWidth: 300, viewportHeight: 500, contentWidth: paging ? 1200 : 300, contentHeight: 2000,
                paging: paging, bounces: bounces, minScale: 1, maxScale: maxScale))
    }

    static func state(_ effects: [ComponentEffect]) -> ScrollViewState? {
        guard case .scrollView(let state)? = Effects.states(effects).last else { return nil }
        return state
    }

    /// Fires timers until the machine asks for none; returns the last state.
    static func settle(_ machine: inout ScrollViewMachine, from effects: [ComponentEffect]) -> ScrollViewState? {
        var last = Self.state(effects)
        var timer = Effects.timer(effects)
        var frames = 0
        while let at = timer, frames < 2000 {
            let next = machine.handle(.timeElapsed(ms(at)))
            last = Self.state(next) ?? last
            timer = Effects.timer(next)
            frames += 1
        }
        return last
    }

    @Test func scrollView_panChanged_movesOffsetOppositeTheFinger() throws {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(at: ms(0)))
        let state = try #require(Self.state(machine.handle(.panChanged(translation: vector(0, -120), at: ms(16)))))
        #expect(state.offsetY == 120)
        #expect(state.dragging)
        #expect(!state.decelerating)
    }

    @Test func scrollView_dragPastTheTop_rubberBandsLessThanTheFinger() throws {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(at: ms(0)))
        let state = try #require(Self.state(machine.handle(.panChanged(translation: vector(0, 200), at: ms(16)))))
        #expect(state.offsetY < 0)
        #expect(state.offsetY > -200)
        #expect(abs(state.offsetY - -ScrollAxis.rubberBand(200, dimension: 500)) < 1e-9)
    }

    @Test func scrollView_withoutBounces_clampsAtTheEdge() throws {
        var machine = Self.machine(bounces: false)
        _ = machine.handle(.panBegan(at: ms(0)))
        let state = try #require(Self.state(machine.handle(.panChanged(translation: vector(0, 200), at: ms(16)))))
        #expect(state.offsetY == 0)
    }

    @Test func scrollView_release_deceleratesAtRate0998PerMs() throws {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(at: ms(0)))
        _ = machine.handle(.panChanged(translation: vector(0, -100), at: ms(100)))
        let released = machine.handle(.panEnded(velocity: vector(0, -1000), at: ms(100)))
        let first = try #require(Self.state(released))
        #expect(first.decelerating)
        #expect(!first.dragging)
        #expect(first.overlaysVisible)
        let timer = try #require(Effects.timer(released))
        #expect(timer == 116.667)
        let next = try #require(Self.state(machine.handle(.timeElapsed(ms(timer)))))
        let dt = 16.667
        let expectedVelocity = 1000 * pow(0.998, dt)
        #expect(abs((next.velocity?.y ?? 0) - expectedVelocity) < 1e-6)
        let expectedOffset = 100 + 1.0 * (pow(0.998, dt) - 1) / log(0.998)
        #expect(abs(next.offsetY - expectedOffset) < 1e-6)
    }

    @Test func scrollView_deceleration_comesToRestInsideTheBounds() throws {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(at: ms(0)))
        _ = machine.handle(.panChanged(translation: vector(0, -300), at: ms(100)))
        let last = try #require(
            Self.settle(&machine, from: machine.handle(.panEnded(velocity: vector(0, -800), at: ms(100)))))
        #expect(!last.decelerating)
        #expect(last.velocity == nil)
        // Total travel after release is v / -ln(rate): 0.8 pt/ms / 0.002 ≈ 400 pt.
        #expect(last.offsetY > 650 && last.offsetY < 710)
    }

    @Test func scrollView_releasePastTheTop_springsBackToTheEdge() throws {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(at: ms(0)))
        _ = machine.handle(.panChanged(translation: vector(0, 150), at: ms(100)))
        let last = try #require(
            Self.settle(&machine, from: machine.handle(.panEnded(velocity: vector(0, 0), at: ms(100)))))
        #expect(last.offsetY == 0)
        #expect(!last.decelerating)
    }

    @Test func scrollView_flingIntoTheBottom_overshootsThenSettlesAtTheEdge() throws {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(at: ms(0)))
        _ = machine.handle(.panChanged(translation: vector(0, -1400), at: ms(100)))
        var overshot = false
        var effects = machine.handle(.panEnded(velocity: vector(0, -3000), at: ms(100)))
        while let at = Effects.timer(effects) {
            effects = machine.handle(.timeElapsed(ms(at)))
            if let state = Self.state(effects), state.offsetY > 1500 { overshot = true }
        }
        #expect(overshot)
        #expect(machine.offset.y == 1500)
    }

    @Test func scrollView_paging_fastReleaseFlipsToTheNextPage() throws {
        var machine = Self.machine(paging: true)
        _ = machine.handle(.panBegan(at: ms(0)))
        _ = machine.handle(.panChanged(translation: vector(-60, 0), at: ms(50)))
        let last = try #require(
            Self.settle(&machine, from: machine.handle(.panEnded(velocity: vector(-600, 0), at: ms(50)))))
        #expect(last.offsetX == 300)
        #expect(last.page == 1)
    }

    @Test func scrollView_paging_slowShortDragReturnsToThePage() throws {
        var machine = Self.machine(paging: true)
        _ = machine.handle(.panBegan(at: ms(0)))
        _ = machine.handle(.panChanged(translation: vector(-60, 0), at: ms(50)))
        let last = try #require(
            Self.settle(&machine, from: machine.handle(.panEnded(velocity: vector(-50, 0), at: ms(50)))))
        #expect(last.offsetX == 0)
        #expect(last.page == 0)
    }

    @Test func scrollView_overlays_hideWhileDraggingAndZoomingAndReturnAfter() throws {
        var machine = Self.machine()
        #expect(try #require(Self.state(machine.handle(.panBegan(at: ms(0))))).overlaysVisible == false)
        #expect(try #require(Self.state(machine.handle(.panEnded(velocity: vector(0, 0), at: ms(10))))).overlaysVisible)
        let zooming = try #require(Self.state(machine.handle(.pinchBegan(at: ms(20)))))
        #expect(zooming.zooming)
        #expect(!zooming.overlaysVisible)
        #expect(try #require(Self.state(machine.handle(.pinchEnded(at: ms(30))))).overlaysVisible)
    }

    @Test func scrollView_pinchPastMaxScale_resistsThenClampsOnEnd() throws {
        var machine = Self.machine(maxScale: 2)
        _ = machine.handle(.pinchBegan(at: ms(0)))
        let stretched = try #require(Self.state(machine.handle(.pinchChanged(scale: 4, at: ms(10)))))
        #expect(stretched.zoomScale > 2 && stretched.zoomScale < 4)
        let ended = try #require(Self.state(machine.handle(.pinchEnded(at: ms(20)))))
        #expect(ended.zoomScale == 2)
        #expect(!ended.zooming)
    }

    @Test func scrollView_withoutZoomRange_ignoresPinch() {
        var machine = Self.machine(maxScale: 1)
        #expect(machine.handle(.pinchBegan(at: ms(0))).isEmpty)
    }

    @Test func scrollView_resetZoom_returnsToMinimumScale() throws {
        var machine = Self.machine()
        _ = machine.handle(.pinchBegan(at: ms(0)))
        _ = machine.handle(.pinchChanged(scale: 2, at: ms(10)))
        _ = machine.handle(.pinchEnded(at: ms(20)))
        let reset = try #require(Self.settle(&machine, from: machine.handle(.zoomResetRequested(at: ms(30)))))
        #expect(reset.zoomScale == 1)
    }

    @Test func scrollView_appWillResignActive_endsTheDrag() throws {
        var machine = Self.machine()
        _ = machine.handle(.panBegan(at: ms(0)))
        _ = machine.handle(.panChanged(translation: vector(0, 100), at: ms(10)))
        let state = try #require(Self.state(machine.handle(.appWillResignActive(at: ms(20)))))
        #expect(!state.dragging)
        #expect(state.overlaysVisible)
    }

    @Test func scrollView_eventsThatDoNotFitTheState_areIgnored() {
        var machine = Self.machine()
        #expect(machine.handle(.panChanged(translation: vector(0, 10), at: ms(0))).isEmpty)
        #expect(machine.handle(.panEnded(velocity: vector(0, 10), at: ms(0))).isEmpty)
        #expect(machine.handle(.panCancelled(at: ms(0))).isEmpty)
        #expect(machine.handle(.pinchChanged(scale: 2, at: ms(0))).isEmpty)
        #expect(machine.handle(.pinchEnded(at: ms(0))).isEmpty)
        #expect(machine.handle(.timeElapsed(ms(5))).isEmpty)
        #expect(machine.handle(.appWillResignActive(at: ms(5))).isEmpty)
        _ = machine.handle(.panBegan(at: ms(10)))
        #expect(machine.handle(.panBegan(at: ms(11))).isEmpty)
        #expect(machine.handle(.timeElapsed(ms(12))).isEmpty)
        #expect(machine.handle(.zoomResetRequested(at: ms(12))).isEmpty)
    }
}
