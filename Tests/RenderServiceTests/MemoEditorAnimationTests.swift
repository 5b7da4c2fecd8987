import BusSchema
import Foundation
import RenderCore
import RenderService
import Testing

/// The memo editor opening in the render worker: with the state's animation the editor's memo
/// grows from where the memo lies to the editor's frame while the veil and the bar fade in;
/// without one it is drawn open at once.
@Suite struct MemoEditorAnimationTests {
    /// A 400×300 board (editor frame: 24 pt margins, 352×252 at (24, 24)).
    static let scene = RenderSceneTests.scene
    static let editor = SceneLayers.editorFrame(size: Size(400, 300))

    static func board(editing: String?, animation: String? = nil, extra: String = "") throws -> Value {
        let memo = RenderSceneTests.memo("m1", x: 40)
        let open = editing.map { #""\#($0)""# } ?? "null"
        return try JSONReader.parse(
            """
            {"instance": "b1", "t_ms": 0, "memos": [\(memo)], "selected": null, "arrange_order": "created",
             "background": null, "editing": \(open)\(animation.map { #", "animation": \#($0)"# } ?? "")\(extra)}
            """)
    }

    static func layer(_ name: String, _ scene: RenderScene, atMs now: Double) throws -> Layer? {
        try RenderSceneTests.memoLayers(scene, atMs: now).first { $0.name == name }
    }

    @Test func theEditorGrowsFromTheMemoAndFadesInOverTheStatesAnimation() throws {
        var scene = RenderScene(scene: try Scene(value: Self.scene))
        _ = try scene.applyState(try Self.board(editing: nil), atMs: 0)
        let completions = try scene.applyState(
            try Self.board(editing: "m1", animation: #"{"duration_ms": 300, "curve": "linear"}"#), atMs: 1000)
        #expect(completions.isEmpty)
        let names = SceneLayers.MemoBoardLayer.self
        // At the start the editor's memo lies over m1 (100×80 at (40, 20)): centred on it, scaled to its width.
        let start = try #require(try Self.layer(names.editor, scene, atMs: 1000))
        let centre = (start.frame.minX + start.frame.width / 2, start.frame.minY + start.frame.height / 2)
        #expect(abs(centre.0 - 90) < 0.01 && abs(centre.1 - 60) < 0.01)
        #expect(abs(start.transform.a - 100 / Self.editor.width) < 0.001)
        #expect(try Self.layer(names.veil, scene, atMs: 1000)?.opacity == 0)
        #expect(try Self.layer(names.editorBar, scene, atMs: 1000)?.opacity == 0)
        #expect(scene.isAnimating)
        let half = try #require(try Self.layer(names.editor, scene, atMs: 1150))
        #expect(half.transform.a > start.transform.a + 0.1 && half.transform.a < 0.99, "growing")
        #expect(abs((try Self.layer(names.veil, scene, atMs: 1150)?.opacity ?? 0) - 0.5) < 0.01, "fading in")
        let ended = scene.frameStarted(atMs: 1300)
        #expect(Set(ended.map(\.layer)) == ["board/editor.memo", "board/editor.veil", "board/editor.bar"])
        #expect(ended.allSatisfy { $0.finished && $0.durationMs == 300 })
        let open = try #require(try Self.layer(names.editor, scene, atMs: 1300))
        #expect(open.frame == Self.editor && open.transform == .identity)
        #expect(try Self.layer(names.editorBar, scene, atMs: 1300)?.opacity == 1)
        #expect(!scene.isAnimating)
    }

    @Test func withoutAnAnimationTheEditorIsDrawnOpenAtOnce() throws {
        var scene = RenderScene(scene: try Scene(value: Self.scene))
        _ = try scene.applyState(try Self.board(editing: "m1"), atMs: 0)
        let open = try #require(try Self.layer(SceneLayers.MemoBoardLayer.editor, scene, atMs: 0))
        #expect(open.frame == Self.editor && open.transform == .identity)
        #expect(try Self.layer(SceneLayers.MemoBoardLayer.veil, scene, atMs: 0)?.opacity == 1)
        #expect(!scene.isAnimating)
    }

    @Test func anAnimatedStateMovesOnlyTheMemosItChanged() throws {
        var scene = RenderScene(scene: try Scene(value: Self.scene))
        _ = try scene.applyState(try Self.board(editing: nil), atMs: 0)
        _ = try scene.applyState(try Self.board(editing: "m1", animation: #"{"duration_ms": 300}"#), atMs: 10)
        let ended = scene.frameStarted(atMs: 400)
        #expect(!ended.contains { $0.layer == "board/m1" }, "m1 did not move: no animation, no completion")
    }
}
