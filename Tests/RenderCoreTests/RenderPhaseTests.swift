import Testing

@testable import RenderCore

/// Counts phase marks in order, as a service's stopwatch would see them.
private final class PhaseLog: RenderPhaseObserver {
    var marks: [String] = []
    func phaseBegan(_ phase: RenderPhase) { marks.append("begin \(phase)") }
    func phaseEnded(_ phase: RenderPhase) { marks.append("end \(phase)") }
}

@Suite struct RenderPhaseTests {
    @Test func everyShadowAndBackdropBlurIsBracketedByOneBeginAndEndMark() throws {
        var root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 60, height: 40))
        var card = Layer(name: "card", frame: Rect(x: 10, y: 10, width: 20, height: 10))
        card.backgroundColor = .white
        card.shadow = Shadow(opacity: 0.5, offset: Size(0, 2), radius: 3)
        var glass = Layer(name: "glass", frame: Rect(x: 30, y: 5, width: 20, height: 20))
        glass.backdropBlur = .gaussian(sigma: 4)
        root.sublayers = [card, glass]
        let log = PhaseLog()
        _ = try LayerRenderer().render(root, width: 60, height: 40, observer: log)
        #expect(log.marks == ["begin blur", "end blur", "begin blur", "end blur"])
    }

    @Test func aFrameWithoutShadowsOrBlursMarksNoPhase() throws {
        var root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 20, height: 20))
        root.backgroundColor = .black
        let log = PhaseLog()
        _ = try LayerRenderer().render(root, width: 20, height: 20, observer: log)
        #expect(log.marks.isEmpty)
    }
}
