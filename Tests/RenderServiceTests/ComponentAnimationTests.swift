import BusSchema
import ComponentCore
import RenderCore
import RenderService
import Testing

/// Components animated end to end at the core level: a ComponentCore machine's state (through
/// MessagePack, as on the bus) carries the target and an `animation`, and the render worker's
/// scene moves the layers there across frames, from what is on screen.
@Suite struct ComponentAnimationTests {
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

    static let table = try! JSONReader.parse(
        """
        {"width": 400, "height": 200, "views": [
          {"id": "table", "frame": {"x": 0, "y": 0, "width": 400, "height": 200},
           "component": {"kind": "slideTable", "id": "table1", "config": {"rows": 4, "row_height": 50}}}]}
        """)

    static func front(_ scene: RenderScene, row: Int, atMs now: Double) throws -> Layer {
        let root = try #require(try scene.layers(atMs: now)).root
        return try #require(root.sublayers[0].sublayers.first { $0.name == "front\(row)" })
    }

    @Test func aSwipedCellSlidesOpenOverItsOpenDurationAndSettlesBackOnClose() throws {
        let config = SlideTableMachine.Config(
            rows: 4, rowHeight: 50, rowWidth: 400, top: 0, viewportHeight: 200, openDurationMs: 200,
            closeDurationMs: 100)
        var machine = SlideTableMachine(instance: "table1", config: config)
        var scene = try RenderScene(scene: Self.table)
        _ = try scene.applyState(try Self.payloads([.publishState(.slideTable(machine.snapshot(tMs: 0)))])[0], atMs: 0)
        let opened = try Self.payloads(machine.handle(.swipeRecognized(.right, y: 75, tMs: 0)))
        #expect(opened[0]["animation"]?["duration_ms"]?.doubleValue == 200)
        _ = try scene.applyState(opened[0], atMs: 0)
        #expect(try Self.front(scene, row: 1, atMs: 0).frame.minX == 0, "starts where it is on screen")
        #expect(abs(try Self.front(scene, row: 1, atMs: 100).frame.minX - 200) < 1e-6)
        let root = try #require(try scene.layers(atMs: 100)).root
        #expect(root.sublayers[0].sublayers.contains { $0.name == "actions1" }, "the buttons show under the slide")
        #expect(scene.frameStarted(atMs: 200).contains { $0.layer == "table/front1" && $0.finished })
        #expect(try Self.front(scene, row: 1, atMs: 200).frame.minX == 400)
        _ = try scene.applyState(try Self.payloads(machine.handle(.timeElapsed(200)))[0], atMs: 200)
        let closed = try Self.payloads(machine.handle(.swipeRecognized(.left, y: 75, tMs: 500)))
        #expect(closed[0]["animation"]?["duration_ms"]?.doubleValue == 100)
        _ = try scene.applyState(closed[0], atMs: 500)
        #expect(abs(try Self.front(scene, row: 1, atMs: 550).frame.minX - 200) < 1e-6, "settles back over 100 ms")
        _ = scene.frameStarted(atMs: 600)
        #expect(try Self.front(scene, row: 1, atMs: 600).frame.minX == 0)
    }

    @Test func aPullReleasedBelowTheThresholdSnapsTheHeaderBackUp() throws {
        let scene = try JSONReader.parse(
            """
            {"width": 300, "height": 60, "views": [
              {"id": "header", "frame": {"x": 0, "y": 0, "width": 300, "height": 60},
               "component": {"kind": "pullToRefresh", "id": "refresh1", "config": {"header_height": 60}}}]}
            """)
        var machine = PullToRefreshMachine(instance: "refresh1", config: PullToRefreshMachine.Config(headerHeight: 60))
        var renderScene = try RenderScene(scene: scene)
        func header(atMs now: Double) throws -> Double {
            let root = try #require(try renderScene.layers(atMs: now)).root
            return try #require(root.sublayers[0].sublayers.first { $0.name == "header" }).frame.minY
        }
        for effect in [
            machine.handle(.panBegan(atTop: true, tMs: 0)), machine.handle(.panChanged(translationY: 40, tMs: 10)),
        ] {
            for state in try Self.payloads(effect) { _ = try renderScene.applyState(state, atMs: 10) }
        }
        let pulled = try header(atMs: 10)
        #expect(pulled > -60, "the header is pulled into view")
        let released = try Self.payloads(machine.handle(.panEnded(tMs: 20)))
        #expect(released[0]["animation"]?["duration_ms"]?.doubleValue == 300)
        _ = try renderScene.applyState(released[0], atMs: 20)
        #expect(try header(atMs: 20) == pulled, "snapping starts from where it is")
        let midway = try header(atMs: 170)
        #expect(midway < pulled && midway > -60, "half-way up at half time")
        #expect(renderScene.frameStarted(atMs: 320).contains { $0.layer == "header/header" && $0.finished })
        #expect(try header(atMs: 320) == -60, "back out of view")
    }
}
