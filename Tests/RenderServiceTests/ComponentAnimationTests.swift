import BusSchema
import GestureCore
import RenderCore
import RenderService
import Testing

@testable import ComponentCore

/// The source instant `value` ms after the epoch (the machines' clock).
func ms(_ value: Double) -> SourceInstant { SourceInstant(milliseconds: value) }

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

    static func drawer() -> DrawerMachine {
        DrawerMachine(
            instance: "drawer1",
            config: DrawerMachine.Config(
                edge: .left, width: 200, frame: GestureCore.Rect(x: 0, y: 0, width: 300, height: 200)))
    }

    @Test func anOpenedDrawerWaitsOutTheDelayThenSlidesItsPanelInOverTheDurationAndFinishes() throws {
        var machine = Self.drawer()
        var scene = RenderScene(scene: try Scene(value: Self.scene))
        for state in try Self.payloads([.publishState(.drawer(machine.snapshot(at: ms(0))))]) {
            _ = try scene.applyState(state, atMs: 0)
        }
        #expect(try Self.panel(scene, atMs: 0).frame.minX == 44 - 200, "closed, its tab showing")
        let opened = try Self.payloads(machine.handle(.swipeRecognized(.right, at: ms(100))))
        #expect(opened.count == 1)
        #expect(opened[0]["animation"]?["duration_ms"]?.doubleValue == 100)
        #expect(opened[0]["animation"]?["delay_ms"]?.doubleValue == 200)
        #expect(try scene.applyState(opened[0], atMs: 1000).isEmpty)
        #expect(scene.isAnimating)
        #expect(try Self.panel(scene, atMs: 1199).frame.minX == -156, "still closed through the delay")
        let midway = try Self.panel(scene, atMs: 1250).frame.minX
        #expect(abs(midway + 78) < 1e-6, "ease-in-out is half-way at half the slide")
        #expect(try Self.panel(scene, atMs: 1220).frame.minX < -130, "ease-in starts slowly")
        let dim = try #require(try scene.layers(atMs: 1250)?.root.sublayers[0].sublayers.first { $0.name == "dim" })
        #expect(abs(dim.opacity - 0.2) < 1e-9, "the dim fades in with the panel")
        let finished = scene.frameStarted(atMs: 1300)
        #expect(finished.contains { $0.layer == "menu/panel" && $0.property == .position && $0.finished })
        #expect(!scene.isAnimating)
        // The machine's settled state at the end confirms the target and interrupts nothing.
        let settled = try Self.payloads(machine.handle(.timeElapsed(ms(400))))
        #expect(try scene.applyState(settled[0], atMs: 1290).isEmpty)
        #expect(try Self.panel(scene, atMs: 1300).frame.minX == 0)
    }

    @Test func closingMidFlightRestartsFromWhereThePanelIsOnScreen() throws {
        var machine = Self.drawer()
        var scene = RenderScene(scene: try Scene(value: Self.scene))
        _ = try scene.applyState(try Self.payloads([.publishState(.drawer(machine.snapshot(at: ms(0))))])[0], atMs: 0)
        _ = try scene.applyState(try Self.payloads(machine.handle(.openRequested(at: ms(0))))[0], atMs: 0)
        let onScreen = try Self.panel(scene, atMs: 250).frame.minX
        let closing = try Self.payloads(machine.handle(.closeRequested(at: ms(250))))
        let interrupted = try scene.applyState(closing[0], atMs: 250)
        #expect(interrupted.contains { $0.layer == "menu/panel" && !$0.finished })
        #expect(try Self.panel(scene, atMs: 250).frame.minX == onScreen, "no jump")
        #expect(try Self.panel(scene, atMs: 449).frame.minX == onScreen, "held through the delay")
        #expect(try Self.panel(scene, atMs: 550).frame.minX == -156)
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
            rows: 4, rowHeight: 50, rowWidth: 400, top: 0, viewportHeight: 200, openDuration: .milliseconds(200),
            closeDuration: .milliseconds(100))
        var machine = SlideTableMachine(instance: "table1", config: config)
        var scene = RenderScene(scene: try Scene(value: Self.table))
        _ = try scene.applyState(
            try Self.payloads([.publishState(.slideTable(machine.snapshot(at: ms(0))))])[0], atMs: 0)
        let opened = try Self.payloads(machine.handle(.swipeRecognized(.right, y: 75, at: ms(0))))
        #expect(opened[0]["animation"]?["duration_ms"]?.doubleValue == 200)
        _ = try scene.applyState(opened[0], atMs: 0)
        #expect(try Self.front(scene, row: 1, atMs: 0).frame.minX == 0, "starts where it is on screen")
        #expect(abs(try Self.front(scene, row: 1, atMs: 100).frame.minX - 200) < 1e-6)
        let root = try #require(try scene.layers(atMs: 100)).root
        #expect(root.sublayers[0].sublayers.contains { $0.name == "actions1" }, "the buttons show under the slide")
        #expect(scene.frameStarted(atMs: 200).contains { $0.layer == "table/front1" && $0.finished })
        #expect(try Self.front(scene, row: 1, atMs: 200).frame.minX == 400)
        _ = try scene.applyState(try Self.payloads(machine.handle(.timeElapsed(ms(200))))[0], atMs: 200)
        let closed = try Self.payloads(machine.handle(.swipeRecognized(.left, y: 75, at: ms(500))))
        #expect(closed[0]["animation"]?["duration_ms"]?.doubleValue == 100)
        _ = try scene.applyState(closed[0], atMs: 500)
        #expect(abs(try Self.front(scene, row: 1, atMs: 550).frame.minX - 200) < 1e-6, "settles back over 100 ms")
        _ = scene.frameStarted(atMs: 600)
        #expect(try Self.front(scene, row: 1, atMs: 600).frame.minX == 0)
    }

    /// The source closes the open row in 0.1 s while the swiped one opens in 0.2 s.
    @Test func whenOneRowClosesAsAnotherOpensEachSlidesOverItsOwnDuration() throws {
        var machine = SlideTableMachine(
            instance: "table1", config: SlideTableMachine.Config(rows: 4, rowHeight: 50, rowWidth: 400))
        var scene = RenderScene(scene: try Scene(value: Self.table))
        _ = try Self.apply(machine.handle(.swipeRecognized(.right, y: 25, at: ms(0))), to: &scene, atMs: 0)
        _ = scene.frameStarted(atMs: 200)
        _ = try Self.apply(machine.handle(.timeElapsed(ms(200))), to: &scene, atMs: 200)
        #expect(try Self.front(scene, row: 0, atMs: 200).frame.minX == 400)
        _ = try Self.apply(machine.handle(.swipeRecognized(.right, y: 125, at: ms(1000))), to: &scene, atMs: 1000)
        #expect(abs(try Self.front(scene, row: 0, atMs: 1050).frame.minX - 200) < 1e-6, "half-way shut at 50 ms")
        #expect(abs(try Self.front(scene, row: 2, atMs: 1100).frame.minX - 200) < 1e-6, "half-way open at 100 ms")
        #expect(scene.frameStarted(atMs: 1100).contains { $0.layer == "table/front0" && $0.finished })
        #expect(try Self.front(scene, row: 0, atMs: 1100).frame.minX == 0)
        _ = scene.frameStarted(atMs: 1200)
        #expect(try Self.front(scene, row: 2, atMs: 1200).frame.minX == 400)
    }

    /// A 60 pt pull-to-refresh header's machine, and a render scene of a `height` pt view showing it.
    static func refresh(height: Double) throws -> (PullToRefreshMachine, RenderScene) {
        let scene = try JSONReader.parse(
            """
            {"width": 300, "height": \(height), "views": [
              {"id": "header", "frame": {"x": 0, "y": 0, "width": 300, "height": \(height)},
               "component": {"kind": "pullToRefresh", "id": "refresh1", "config": {"header_height": 60}}}]}
            """)
        let machine = PullToRefreshMachine(instance: "refresh1", config: PullToRefreshMachine.Config(headerHeight: 60))
        return (machine, RenderScene(scene: try Scene(value: scene)))
    }

    @Test func aPullReleasedBelowTheThresholdSnapsTheHeaderBackUp() throws {
        var (machine, renderScene) = try Self.refresh(height: 60)
        func header(atMs now: Double) throws -> Double {
            try Self.pagerLayer(renderScene, "header", atMs: now).frame.minY
        }
        for effect in [
            machine.handle(.panBegan(atTop: true, at: ms(0))),
            machine.handle(.panChanged(translationY: 40, at: ms(10))),
        ] {
            for state in try Self.payloads(effect) { _ = try renderScene.applyState(state, atMs: 10) }
        }
        let pulled = try header(atMs: 10)
        #expect(pulled > -60, "the header is pulled into view")
        let released = try Self.payloads(machine.handle(.panEnded(at: ms(20))))
        #expect(released[0]["animation"]?["duration_ms"]?.doubleValue == 200, "the source hides it in 0.2 s")
        _ = try renderScene.applyState(released[0], atMs: 20)
        #expect(try header(atMs: 20) == pulled, "snapping starts from where it is")
        let midway = try header(atMs: 120)
        #expect(midway < pulled && midway > -60, "half-way up at half time")
        #expect(renderScene.frameStarted(atMs: 220).contains { $0.layer == "header/header" && $0.finished })
        #expect(try header(atMs: 220) == -60, "back out of view")
    }

    @Test func withTheFingerHeldStillPastTheThresholdTheArrowTurnsOverATenthOfASecondFrameByFrame() throws {
        var (machine, renderScene) = try Self.refresh(height: 200)
        func arrow(atMs now: Double) throws -> Layer { try Self.pagerLayer(renderScene, "arrow", atMs: now) }
        func angle(atMs now: Double) throws -> Double { try #require(try arrow(atMs: now).transform.rotationAngle) }
        _ = try Self.apply(machine.handle(.panBegan(atTop: true, at: ms(0))), to: &renderScene, atMs: 0)
        _ = try Self.apply(machine.handle(.panChanged(translationY: 40, at: ms(10))), to: &renderScene, atMs: 10)
        #expect(try angle(atMs: 10) == 0, "pointing down while pulling")
        // Past the threshold at 1000 ms; then the finger stays still: no more states come.
        _ = try Self.apply(machine.handle(.panChanged(translationY: 400, at: ms(20))), to: &renderScene, atMs: 1000)
        #expect(machine.handle(.timeElapsed(ms(60))).isEmpty, "the machine samples nothing")
        let up = PullToRefreshMachine.headingUpAngle
        #expect(try angle(atMs: 1000) == 0, "the turn starts where the arrow is")
        let early = try angle(atMs: 1025)
        #expect(early > 0 && early < up / 4, "ease-in: slow at first")
        #expect(abs(try angle(atMs: 1050) - up / 2) < 1e-6, "half-way at half time")
        #expect(try angle(atMs: 1075) > 3 * up / 4)
        // The frame half-way shows it on its side, its head left of the box's centre (the
        // pull is 400 pt rubber-banded; the arrow's box centre is at x 28, the band's middle).
        let shown = try arrow(atMs: 1050)
        let image = try LayerRenderer(font: try FontFace.systemJapanese())
            .render(try #require(try renderScene.layers(atMs: 1050)).root, width: 300, height: 200)
        let centre = (
            x: Int(shown.frame.minX + shown.frame.width / 2), y: Int(shown.frame.minY + shown.frame.height / 2)
        )
        #expect(image.pixel(centre.x - 10, centre.y).r < 0xB0, "the head, on the left")
        #expect(image.pixel(centre.x, centre.y - 10).r > 0xD0, "nothing above the centre")
        // A small move on the way confirms the target and does not restart the turn.
        _ = try Self.apply(machine.handle(.panChanged(translationY: 410, at: ms(70))), to: &renderScene, atMs: 1060)
        #expect(abs(try angle(atMs: 1050) - up / 2) < 1e-6)
        let ended = renderScene.frameStarted(atMs: 1100)
        #expect(ended.contains { $0.layer == "header/arrow" && $0.property == .rotation && $0.finished })
        #expect(abs(try angle(atMs: 1100) - up) < 1e-9, "pointing up, by the source's π − ε")
    }

    @Test func aStatesAutoreversingDelayedAnimationIsRunThereAndBackAndABadFlagIsRefused() throws {
        var scene = RenderScene(scene: try Scene(value: Self.table))
        func state(_ offset: Double, animation: String?) throws -> Value {
            try JSONReader.parse(
                """
                {"instance": "table1", "t_ms": 0, "rows": 4, "open_row": null, "offsets": [\(offset), 0, 0, 0]
                 \(animation.map { ", \"animation\": \($0)" } ?? "")}
                """)
        }
        _ = try scene.applyState(try state(0, animation: nil), atMs: 0)
        let pulse = #"{"duration_ms": 100, "delay_ms": 50, "curve": "linear", "autoreverses": true}"#
        _ = try scene.applyState(try state(200, animation: pulse), atMs: 1000)
        #expect(try Self.front(scene, row: 0, atMs: 1040).frame.minX == 0, "in the delay")
        #expect(try Self.front(scene, row: 0, atMs: 1150).frame.minX == 200, "there")
        #expect(try Self.front(scene, row: 0, atMs: 1200).frame.minX == 100, "half-way back")
        #expect(scene.frameStarted(atMs: 1200).isEmpty, "still running")
        #expect(
            scene.frameStarted(atMs: 1260).contains { $0.layer == "table/front0" && $0.finished && $0.atMs == 1250 })
        let bad = #"{"duration_ms": 100, "autoreverses": 1}"#
        #expect(throws: RenderScene.StateError.self) { try scene.applyState(try state(0, animation: bad), atMs: 2000) }
    }

    static let pagerScene = try! JSONReader.parse(
        """
        {"width": 300, "height": 400, "views": [
          {"id": "pager", "frame": {"x": 0, "y": 0, "width": 300, "height": 400},
           "component": {"kind": "pager", "id": "pager1",
                         "config": {"page_count": 3, "nav_height": 60, "menu_height": 40}}}]}
        """)

    /// A pager machine and a render scene showing its first state.
    static func pager() throws -> (PagerMachine, RenderScene) {
        let machine = PagerMachine(
            instance: "pager1",
            config: PagerMachine.Config(
                pageCount: 3, pageWidth: 300, contentHeight: 2000, viewportHeight: 300))
        var scene = RenderScene(scene: try Scene(value: Self.pagerScene))
        _ = try scene.applyState(try Self.payloads([.publishState(.pager(machine.snapshot(at: ms(0))))])[0], atMs: 0)
        return (machine, scene)
    }

    /// The first view's sublayer `name` at `now`.
    static func pagerLayer(_ scene: RenderScene, _ name: String, atMs now: Double) throws -> Layer {
        let root = try #require(try scene.layers(atMs: now)).root
        return try #require(root.sublayers[0].sublayers.first { $0.name == name })
    }

    /// Applies every state `effects` publish at `now`; returns the completions.
    static func apply(_ effects: [ComponentEffect], to scene: inout RenderScene, atMs now: Double) throws
        -> [Animator.Completion]
    {
        try Self.payloads(effects).flatMap { try scene.applyState($0, atMs: now) }
    }

    @Test func aReleasedPanSnapsThePagesFromWhereTheFingerLeftThemAndFinishes() throws {
        var (machine, scene) = try Self.pager()
        _ = try Self.apply(machine.handle(.panBegan(at: ms(0))), to: &scene, atMs: 0)
        _ = try Self.apply(
            machine.handle(.panChanged(translation: GestureEvent.Vector(x: -120, y: 0), at: ms(10))), to: &scene,
            atMs: 10)
        #expect(try Self.pagerLayer(scene, "page0", atMs: 10).frame.minX == -120, "the pages follow the finger")
        let released = machine.handle(
            .panEnded(
                translation: GestureEvent.Vector(x: -120, y: 0), velocity: GestureEvent.Vector(x: -900, y: 0),
                at: ms(20)))
        #expect(try Self.payloads(released)[0]["animation"]?["duration_ms"]?.doubleValue == 300)
        #expect(try Self.apply(released, to: &scene, atMs: 20).isEmpty)
        #expect(try Self.pagerLayer(scene, "page0", atMs: 20).frame.minX == -120, "the snap starts where they are")
        let midway = try Self.pagerLayer(scene, "page0", atMs: 170).frame.minX
        #expect(abs(midway + 210) < 1e-6, "ease-in-out is half-way at half time")
        let next = try Self.pagerLayer(scene, "page1", atMs: 170).frame.minX
        #expect(abs(next - midway - 300) < 1e-6, "the pages move together")
        let indicator = try Self.pagerLayer(scene, "indicator", atMs: 170).frame.minX
        #expect(indicator > 40 && indicator < 100, "the tab indicator slides with the pages")
        let finished = scene.frameStarted(atMs: 320)
        #expect(finished.contains { $0.layer == "pager/page0" && $0.property == .position && $0.finished })
        #expect(try Self.pagerLayer(scene, "page0", atMs: 320).frame.minX == -300)
        #expect(!scene.isAnimating)
    }

    @Test func aNewPageMidSnapRestartsFromWhereThePagesAreAndInterruptsTheFirstSnap() throws {
        var (machine, scene) = try Self.pager()
        _ = try Self.apply(machine.handle(.swipeRecognized(.left, at: ms(0))), to: &scene, atMs: 0)
        let onScreen = try Self.pagerLayer(scene, "page0", atMs: 100).frame.minX
        #expect(onScreen < 0 && onScreen > -300)
        let retargeted = try Self.apply(machine.handle(.pageRequested(2, at: ms(100))), to: &scene, atMs: 100)
        #expect(retargeted.contains { $0.layer == "pager/page0" && $0.property == .position && !$0.finished })
        #expect(try Self.pagerLayer(scene, "page0", atMs: 100).frame.minX == onScreen, "no jump")
        let later = try Self.pagerLayer(scene, "page0", atMs: 250).frame.minX
        #expect(later < onScreen && later > -600, "on its way to page 2")
        #expect(scene.frameStarted(atMs: 400).contains { $0.layer == "pager/page0" && $0.finished })
        #expect(try Self.pagerLayer(scene, "page0", atMs: 400).frame.minX == -600)
    }

    @Test func aScrollEndedWithTheMenuPartWaySnapsItBackIntoView() throws {
        var (machine, scene) = try Self.pager()
        _ = try Self.apply(machine.handle(.panBegan(at: ms(0))), to: &scene, atMs: 0)
        let up = GestureEvent.Vector(x: 0, y: -15)
        _ = try Self.apply(machine.handle(.panChanged(translation: up, at: ms(10))), to: &scene, atMs: 10)
        // The menu (under the 60 pt progress area) moves up; the progress area stays.
        #expect(try Self.pagerLayer(scene, "tabs", atMs: 10).frame.minY == 45)
        #expect(try Self.pagerLayer(scene, "nav", atMs: 10).frame.minY == 0)
        _ = try Self.apply(
            machine.handle(.panEnded(translation: up, velocity: GestureEvent.Vector(x: 0, y: 0), at: ms(20))),
            to: &scene, atMs: 20)
        #expect(try Self.pagerLayer(scene, "tabs", atMs: 20).frame.minY == 45, "the snap starts where it is")
        let menu = try Self.pagerLayer(scene, "tabs", atMs: 170).frame.minY
        let pages = try Self.pagerLayer(scene, "page0", atMs: 170).frame.minY
        #expect(menu > 45 && menu < 60, "the menu comes back down")
        #expect(abs(pages - (40 + menu)) < 1e-6, "the pages stay under the menu")
        #expect(scene.frameStarted(atMs: 320).contains { $0.layer == "pager/tabs" && $0.finished })
        #expect(try Self.pagerLayer(scene, "tabs", atMs: 320).frame.minY == 60)
    }

    @Test func aFinishedLoadsBarFadesOutOverThreeTenthsOfASecondThenGoes() throws {
        var (machine, scene) = try Self.pager()
        _ = try Self.apply(machine.handle(.panBegan(at: ms(0))), to: &scene, atMs: 0)
        _ = try Self.apply(
            machine.handle(.panChanged(translation: GestureEvent.Vector(x: 0, y: 600), at: ms(10))), to: &scene,
            atMs: 10)
        let released = machine.handle(
            .panEnded(
                translation: GestureEvent.Vector(x: 0, y: 600), velocity: GestureEvent.Vector(x: 0, y: 0), at: ms(20)))
        _ = try Self.apply(released, to: &scene, atMs: 20)
        _ = scene.frameStarted(atMs: 1000)
        _ = try Self.apply(machine.handle(.refreshDone(at: ms(1000))), to: &scene, atMs: 1000)
        #expect(try Self.pagerLayer(scene, "progress", atMs: 1000).opacity == 1, "the fade starts from the shown bar")
        let midway = try Self.pagerLayer(scene, "progress", atMs: 1150).opacity
        #expect(abs(midway - 0.5) < 1e-6, "ease-in-out is half-way at half time")
        _ = scene.frameStarted(atMs: 1300)
        #expect(try Self.pagerLayer(scene, "progress", atMs: 1300).opacity == 0)
        _ = try Self.apply(machine.handle(.timeElapsed(ms(1300))), to: &scene, atMs: 1300)
        let root = try #require(try scene.layers(atMs: 1300)).root
        #expect(!root.sublayers[0].sublayers.contains { $0.name == "progress" }, "reset to zero width")
    }

    static let zoomScene = try! JSONReader.parse(
        """
        {"width": 300, "height": 200, "views": [
          {"id": "zoom", "frame": {"x": 0, "y": 0, "width": 300, "height": 200},
           "component": {"kind": "zoomView", "id": "zoom1", "config": {}}}]}
        """)

    @Test func aDoubleTapZoomsTheImageInAcrossFramesAndAPinchPastTheLimitSnapsBack() throws {
        var machine = ZoomViewMachine(
            instance: "zoom1", config: ZoomViewMachine.Config(viewportWidth: 300, viewportHeight: 200))
        var scene = RenderScene(scene: try Scene(value: Self.zoomScene))
        _ = try Self.apply([.publishState(.zoomView(machine.snapshot(at: ms(0))))], to: &scene, atMs: 0)
        func layer(_ name: String, atMs now: Double) throws -> Layer {
            let root = try #require(try scene.layers(atMs: now)).root
            return try #require(root.sublayers[0].sublayers.first { $0.name == name })
        }
        _ = try Self.apply(machine.handle(.doubleTapRecognized(x: 0, y: 0, at: ms(0))), to: &scene, atMs: 0)
        #expect(try layer("image", atMs: 0).frame.width == 300, "starts at the scale on screen")
        let image = try layer("image", atMs: 150).frame.width
        #expect(abs(image - 450) < 1e-6, "scale 1.5 half-way to 2")
        let sun = try layer("sun", atMs: 150).frame
        #expect(abs(sun.minX - 0.7 * image) < 1e-6 && abs(sun.width - 0.12 * image) < 1e-6, "the sun zooms with it")
        #expect(
            scene.frameStarted(atMs: 300).contains { $0.layer == "zoom/image" && $0.property == .size && $0.finished })
        #expect(try layer("image", atMs: 300).frame.width == 600)
        _ = try Self.apply(machine.handle(.pinchBegan(x: 0, y: 0, at: ms(1000))), to: &scene, atMs: 1000)
        _ = try Self.apply(machine.handle(.pinchChanged(scale: 4, x: 0, y: 0, at: ms(1010))), to: &scene, atMs: 1010)
        let over = try layer("image", atMs: 1010).frame.width
        #expect(over > 1200, "past the maximum scale of 4")
        _ = try Self.apply(machine.handle(.pinchEnded(at: ms(1020))), to: &scene, atMs: 1020)
        let back = try layer("image", atMs: 1170).frame.width
        #expect(back < over && back > 1200, "snapping back")
        _ = scene.frameStarted(atMs: 1320)
        #expect(try layer("image", atMs: 1320).frame.width == 1200)
    }

    static let captionedZoomScene = try! JSONReader.parse(
        """
        {"width": 300, "height": 200, "views": [
          {"id": "zoom", "frame": {"x": 0, "y": 0, "width": 300, "height": 200},
           "component": {"kind": "zoomView", "id": "zoom1", "config": {"overlays": ["caption"]}}},
          {"id": "caption", "frame": {"x": 20, "y": 140, "width": 260, "height": 44}}]}
        """)

    @Test func draggingAZoomedImageHidesItsCaptionUntilTheFingerLifts() throws {
        var machine = ZoomViewMachine(
            instance: "zoom1", config: ZoomViewMachine.Config(viewportWidth: 300, viewportHeight: 200))
        var scene = RenderScene(scene: try Scene(value: Self.captionedZoomScene))
        let renderer = LayerRenderer(font: try FontFace.systemJapanese())
        _ = try Self.apply(machine.handle(.doubleTapRecognized(x: 0, y: 0, at: ms(0))), to: &scene, atMs: 0)
        _ = scene.frameStarted(atMs: 400)
        /// A pixel inside the caption's band, left of its text.
        func probe(atMs now: Double) throws -> RGBA8 {
            let (size, root) = try #require(try scene.layers(atMs: now))
            let image = try renderer.render(root, width: Int(size.width), height: Int(size.height))
            return image.pixel(24, 180)
        }
        let shown = try probe(atMs: 400)
        _ = try Self.apply(machine.handle(.panBegan(at: ms(500))), to: &scene, atMs: 500)
        _ = try Self.apply(
            machine.handle(.panChanged(translation: GestureEvent.Vector(x: 0, y: 0), at: ms(510))), to: &scene,
            atMs: 510)
        let dragging = try probe(atMs: 510)
        #expect(Int(dragging.g) > Int(shown.g) + 20, "the caption's dark band is gone: \(dragging) vs \(shown)")
        _ = try Self.apply(machine.handle(.panEnded(at: ms(520))), to: &scene, atMs: 520)
        #expect(try probe(atMs: 520) == shown, "back on lift")
    }
}
