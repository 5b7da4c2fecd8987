import BusSchema
import ComponentCore
import MessageFixtures
import RenderCore
import Testing

/// The component host and the renderer read a slide table's rows from the one typed scene, so a
/// table whose scene leaves `row_height` to its default has the same rows in its states and in
/// its drawing: the row a swipe opens is the row drawn under the finger.
@Suite struct SlideTableGeometryTests {
    static let scene = try! Scene(
        json: """
            {"width": 320, "height": 600, "views": [{"id": "table", "frame": {"x": 0, "y": 0, "width": 320, "height": 600},
             "component": {"kind": "slideTable", "id": "t1", "config": {"rows": 30}},
             "recognizers": [{"name": "cellSwipe", "kind": "swipe", "settings": {"directions": ["left", "right"]}}]}]}
            """, file: "table.json")

    @Test(arguments: [3.0, 50.0, 130.0, 300.0, 590.0])
    func withoutARowHeight_theRowASwipeOpensIsTheRowDrawnUnderTheFinger(y: Double) throws {
        var host = ComponentHost(scene: ComponentScene(Self.scene))
        _ = host.start(at: SourceInstant(nanoseconds: 0), session: "s")
        let outputs = host.handle(
            .gesture(.swipe, .recognized, view: "table", x: 160, y: y, tMs: 100) {
                $0.direction = .right
                $0.name = "cellSwipe"
            })
        let state = try #require(
            outputs.compactMap { output -> SlideTableState? in
                guard case .state(.slideTable(let state)) = output else { return nil }
                return state
            }.last)
        let open = try #require(state.openRow, "the swipe at y \(y) opened no row")
        let (_, root) = SceneLayers.build(scene: Self.scene, states: ["t1": .slideTable(state)])
        let table = try #require(root.sublayers.first { $0.name == "table" })
        let fronts = table.sublayers.filter { $0.name.hasPrefix("front") }
        let under = try #require(fronts.first { $0.frame.minY <= y && y < $0.frame.maxY }, "no row drawn at y \(y)")
        #expect(under.name == "front\(open)", "the state opened row \(open), the drawing has \(under.name) at y \(y)")
        // Every drawn row has the height the machine divides by.
        guard case .slideTable(let config)? = Self.scene.views[0].component?.config else { return }
        #expect(fronts.allSatisfy { $0.frame.height == config.rowHeight })
    }
}
