import BusSchema
import Testing

@testable import ComponentCore

@Suite struct CanvasMachineTests {
    static func machine() -> CanvasMachine {
        CanvasMachine(
            instance: "canvas1",
            config: CanvasMachine.Config(strokeWidth: 4, strokeColor: "#1e3a8a", originX: 100, originY: 200))
    }

    static func state(_ effects: [ComponentEffect]) -> CanvasState? {
        guard case .canvas(let state)? = Effects.states(effects).last else { return nil }
        return state
    }

    @Test func canvas_touchDownBegan_startsAStrokeAtTheInstantTheFingerLands() throws {
        var machine = Self.machine()
        let state = try #require(Self.state(machine.handle(.touchBegan(x: 120, y: 230, at: ms(0)))))
        #expect(state.strokes.count == 1)
        #expect(state.strokes[0].points == [vector(20, 30)])
        #expect(state.strokes[0].width == 4)
        #expect(state.strokes[0].color == "#1e3a8a")
        #expect(state.active == .some(1))
    }

    @Test func canvas_stroke_followsTheFingerAndEndsOnLift() throws {
        var machine = Self.machine()
        _ = machine.handle(.touchBegan(x: 120, y: 230, at: ms(0)))
        _ = machine.handle(.touchMoved(x: 130, y: 240, at: ms(16)))
        let state = try #require(Self.state(machine.handle(.touchLifted(x: 140, y: 250, at: ms(32)))))
        #expect(state.strokes[0].points == [vector(20, 30), vector(30, 40), vector(40, 50)])
        #expect(state.active == .some(nil))
    }

    @Test func canvas_secondFinger_cancelsTheStroke() {
        var machine = Self.machine()
        _ = machine.handle(.touchBegan(x: 120, y: 230, at: ms(0)))
        _ = machine.handle(.touchMoved(x: 130, y: 240, at: ms(16)))
        let state = Self.state(machine.handle(.touchCancelled(at: ms(20))))
        #expect(state?.strokes.isEmpty == true)
        #expect(state?.active == .some(nil))
    }

    @Test func canvas_zoomed_mapsPointsBackByTheScale() {
        var machine = Self.machine()
        #expect(machine.handle(.zoomChanged(scale: 2, offsetX: 0, offsetY: 0, at: ms(0))).isEmpty)
        let state = Self.state(machine.handle(.touchBegan(x: 140, y: 260, at: ms(10))))
        #expect(state?.strokes[0].points == [vector(20, 30)])
        #expect(state?.zoomScale == 2)
    }

    /// The source maps a location in the scroll view's content (view point + content offset)
    /// by bounds ÷ content size: scrolled to (200, 100) at scale 2, view point (40, 60) shows
    /// content point (120, 80).
    @Test func canvas_zoomedAndScrolled_mapsPointsThroughTheContentOffset() {
        var machine = Self.machine()
        _ = machine.handle(.zoomChanged(scale: 2, offsetX: 200, offsetY: 100, at: ms(0)))
        _ = machine.handle(.touchBegan(x: 140, y: 260, at: ms(10)))
        let state = Self.state(machine.handle(.touchLifted(x: 160, y: 280, at: ms(20))))
        #expect(state?.strokes[0].points == [vector(120, 80), vector(130, 90)])
    }

    @Test func canvas_nonFiniteZoom_isIgnored() {
        var machine = Self.machine()
        _ = machine.handle(.zoomChanged(scale: 2, offsetX: 200, offsetY: 100, at: ms(0)))
        _ = machine.handle(.zoomChanged(scale: 3, offsetX: .nan, offsetY: 0, at: ms(1)))
        _ = machine.handle(.zoomChanged(scale: .infinity, offsetX: 0, offsetY: 0, at: ms(2)))
        let state = Self.state(machine.handle(.touchBegan(x: 140, y: 260, at: ms(10))))
        #expect(state?.strokes[0].points == [vector(120, 80)])
        #expect(state?.zoomScale == 2)
    }

    @Test func canvas_strokesKeepTheirIdsAndOrder() {
        var machine = Self.machine()
        for index in 0..<3 {
            let t = Double(index) * 100
            _ = machine.handle(.touchBegan(x: 110, y: 210, at: ms(t)))
            _ = machine.handle(.touchLifted(x: 150, y: 250, at: ms(t + 50)))
        }
        #expect(machine.snapshot(at: ms(400)).strokes.map(\.id) == [1, 2, 3])
        #expect(Self.state(machine.handle(.clearRequested(at: ms(500))))?.strokes.isEmpty == true)
    }

    @Test func canvas_eventsThatDoNotFitTheState_areIgnored() {
        var machine = Self.machine()
        #expect(machine.handle(.touchMoved(x: 1, y: 1, at: ms(0))).isEmpty)
        #expect(machine.handle(.touchLifted(x: 1, y: 1, at: ms(0))).isEmpty)
        #expect(machine.handle(.touchCancelled(at: ms(0))).isEmpty)
        _ = machine.handle(.touchBegan(x: 110, y: 210, at: ms(0)))
        #expect(machine.handle(.touchBegan(x: 120, y: 220, at: ms(1))).isEmpty)
        #expect(machine.handle(.zoomChanged(scale: 0, offsetX: 0, offsetY: 0, at: ms(2))).isEmpty)
    }
}
