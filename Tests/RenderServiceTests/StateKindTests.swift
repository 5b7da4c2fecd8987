import BusSchema
import RenderCore
import RenderService
import Testing

/// The render worker decodes each component state once, into the type of its instance's kind,
/// and draws from the typed state: a state of another kind, or one that does not decode, is
/// refused (the service counts it as a bad payload) and the instance keeps what it had.
@Suite struct StateKindTests {
    static let scene = try! Scene(
        json: """
            {"width": 300, "height": 200, "views": [
              {"id": "menu", "frame": {"x": 0, "y": 0, "width": 300, "height": 200}, "background": "#2c2c2e",
               "component": {"kind": "drawer", "id": "drawer1", "config": {"edge": "left", "width": 200}}}]}
            """, file: "drawer.json")

    /// A drawer state for `instance` (without `progress` when it is nil).
    static func drawer(progress: Double?, instance: String = "drawer1") throws -> Value {
        try JSONReader.parse(
            """
            {"instance": "\(instance)", "t_ms": 0, "open": \((progress ?? 0) > 0),
             \(progress.map { "\"progress\": \($0)," } ?? "") "listening_direction": "right"}
            """)
    }

    static let pager = try! JSONReader.parse(
        """
        {"instance": "drawer1", "t_ms": 0, "page": 0, "page_count": 3, "header_offset": 0, "progress": 0,
         "label": "", "loading": false}
        """)

    /// The drawer's dim: its opacity shows which state is drawn.
    static func dim(_ scene: RenderScene) throws -> Double {
        let root = try #require(try scene.layers(atMs: 0)).root
        return try #require(root.sublayers.first { $0.name == "menu" }?.sublayers.first { $0.name == "dim" }).opacity
    }

    @Test func aStateOfAnotherKindThanItsInstanceIsRefusedAndTheInstanceKeepsItsState() throws {
        var scene = RenderScene(scene: Self.scene)
        _ = try scene.applyState(try Self.drawer(progress: 1), schema: "state.drawer", atMs: 0)
        #expect(try Self.dim(scene) == 0.4)
        let error = try #require(throws: RenderScene.StateError.self) {
            try scene.applyState(Self.pager, schema: "state.pager", atMs: 0)
        }
        #expect(error.description.contains("pager") && error.description.contains("drawer"), "\(error)")
        #expect(scene.stateSeq == 1, "the refused state is not counted as applied")
        #expect(try Self.dim(scene) == 0.4, "the drawer's own state is still drawn")
    }

    @Test func aStateThatDoesNotDecodeAsItsKindIsRefusedAndNothingElseChanges() throws {
        var scene = RenderScene(scene: Self.scene)
        _ = try scene.applyState(try Self.drawer(progress: 0.5), atMs: 0)
        // Without a schema, the scene's kind decides: a pager's fields do not make a drawer.
        let error = try #require(throws: RenderScene.StateError.self) {
            try scene.applyState(Self.pager, atMs: 0)
        }
        #expect(error.description.contains("drawer state of 'drawer1'"), "\(error)")
        let missing = try Self.drawer(progress: nil)
        #expect(throws: RenderScene.StateError.self) { try scene.applyState(missing, schema: "state.drawer", atMs: 0) }
        #expect(try Self.dim(scene) == 0.2, "the last good state is drawn")
    }

    @Test func aStateForAnInstanceOutsideTheSceneNeedsItsSchemaAndWaitsForItsView() throws {
        var scene = RenderScene(scene: nil)
        let other = try Self.drawer(progress: 1, instance: "drawer2")
        #expect(throws: RenderScene.StateError.self) { try scene.applyState(other, atMs: 0) }
        _ = try scene.applyState(other, schema: "state.drawer", atMs: 0)
        #expect(scene.hasComponentStates)
    }

    @Test func theDrawingTreatsAStateOfTheWrongKindAsNoState() throws {
        let pager = try ComponentState(kind: .pager, payload: Self.pager)
        let wrong = SceneLayers.build(scene: Self.scene, states: ["drawer1": pager]).root
        let none = SceneLayers.build(scene: Self.scene, states: [:]).root
        #expect(wrong == none)
    }
}
