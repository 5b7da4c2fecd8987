import BusSchema
import ComponentCore
import RenderCore
import RenderService
import Testing

/// A drawer toggled in ComponentCore slides on screen in the render worker's scene: the state
/// carries the target and an `animation`, the scene moves the panel there across frames.
@Suite struct DrawerAnimationTests {
    static let scene = try! JSONReader.parse(
        """
        {"width": 300, "height": 200, "views": [
          {"id": "menu", "frame": {"x": 0, "y": 0, "width": 300, "height": 200}, "background": "#2c2c2e",
           "component": {"kind": "drawer", "id": "drawer1", "config": {"edge": "left", "width": 200}}}]}
        """)

    /// The payloads of the states `effects` publish, through MessagePack as on the bus.
    static func payloads(_ effects: [ComponentEffect]) throws -> [Value] {
        try effects.compactMap { effect in
            guard case .publishState(let state) = effect else { return nil }
            var writer = MessagePackWriter()
            state.encode(to: &writer)
            return try Value(messagePack: writer.bytes)
        }
    }

    static func panel(_ scene: RenderScene, atMs now: Double) throws -> Layer {
        let root = try #require(try scene.layers(atMs: now)).root
        return try #require(root.sublayers.first { $0.name == "menu" }?.sublayers.first { $0.name == "panel" })
    }

    @Test func anOpenedDrawerSlidesItsPanelInOverTheMachinesDurationAndFinishes() throws {
        var machine = DrawerMachine(instance: "drawer1", config: DrawerMachine.Config(edge: .left, width: 200))
        var scene = try RenderScene(scene: Self.scene)
        for state in try Self.payloads([.publishState(.drawer(machine.snapshot(tMs: 0)))]) {
            _ = try scene.applyState(state, atMs: 0)
        }
        #expect(try Self.panel(scene, atMs: 0).frame.minX == -200)
        let opened = try Self.payloads(machine.handle(.swipeRecognized(.right, tMs: 100)))
        #expect(opened.count == 1)
        #expect(opened[0]["animation"]?["duration_ms"]?.doubleValue == 250)
        #expect(try scene.applyState(opened[0], atMs: 1000).isEmpty)
        #expect(scene.isAnimating)
        let midway = try Self.panel(scene, atMs: 1125).frame.minX
        #expect(abs(midway + 100) < 1e-6, "ease-in-out is half-way at half time")
        #expect(try Self.panel(scene, atMs: 1050).frame.minX < -150, "ease-in starts slowly")
        let dim = try #require(try scene.layers(atMs: 1125)?.root.sublayers[0].sublayers.first { $0.name == "dim" })
        #expect(abs(dim.opacity - 0.2) < 1e-9, "the dim fades in with the panel")
        let finished = scene.frameStarted(atMs: 1250)
        #expect(finished.contains { $0.layer == "menu/panel" && $0.property == .position && $0.finished })
        #expect(!scene.isAnimating)
        // The machine's settled state at the end confirms the target and interrupts nothing.
        let settled = try Self.payloads(machine.handle(.timeElapsed(350)))
        #expect(try scene.applyState(settled[0], atMs: 1240).isEmpty)
        #expect(try Self.panel(scene, atMs: 1300).frame.minX == 0)
    }

    @Test func closingMidFlightRestartsFromWhereThePanelIsOnScreen() throws {
        var machine = DrawerMachine(instance: "drawer1", config: DrawerMachine.Config(edge: .left, width: 200))
        var scene = try RenderScene(scene: Self.scene)
        _ = try scene.applyState(try Self.payloads([.publishState(.drawer(machine.snapshot(tMs: 0)))])[0], atMs: 0)
        _ = try scene.applyState(try Self.payloads(machine.handle(.openRequested(tMs: 0)))[0], atMs: 0)
        let onScreen = try Self.panel(scene, atMs: 125).frame.minX
        let closing = try Self.payloads(machine.handle(.closeRequested(tMs: 125)))
        let interrupted = try scene.applyState(closing[0], atMs: 125)
        #expect(interrupted.contains { $0.layer == "menu/panel" && !$0.finished })
        #expect(try Self.panel(scene, atMs: 125).frame.minX == onScreen, "no jump")
        #expect(try Self.panel(scene, atMs: 375).frame.minX == -200)
    }
}
