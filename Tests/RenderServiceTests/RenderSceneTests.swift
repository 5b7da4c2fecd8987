import BusSchema
import Foundation
import RenderCore
import RenderService
import Testing

@Suite struct RenderSceneTests {
    static let scene = try! JSONReader.parse(
        """
        {"width": 400, "height": 300, "views": [
          {"id": "board", "frame": {"x": 0, "y": 0, "width": 400, "height": 300},
           "component": {"kind": "memoBoard", "id": "b1"}}]}
        """)

    static func memo(_ id: String, x: Double = 10, trashed: Bool = false) -> String {
        """
        {"id": "\(id)", "text": "メモ", "x": \(x), "y": 20, "width": 100, "height": 80, "scale": 1,
         "rotation": 0, "z": 1, "color": "yellow", "minimized": false, "trashed_at": \(trashed ? "1767225900000" : "null")}
        """
    }

    static func change(_ kind: String, _ memo: String) throws -> Value {
        try JSONReader.parse(#"{"seq": 1, "change": "\#(kind)", "memo": \#(memo)}"#)
    }

    static func board(_ memos: [String], animation: String? = nil) throws -> Value {
        try JSONReader.parse(
            """
            {"instance": "b1", "t_ms": 0, "memos": [\(memos.joined(separator: ","))], "selected": null,
             "arrange_order": "created", "background": null\(animation.map { #", "animation": \#($0)"# } ?? "")}
            """)
    }

    /// The board's memo layers (its background left out).
    static func memoLayers(_ scene: RenderScene, atMs now: Double = 0) throws -> [Layer] {
        let board = try #require(try scene.layers(atMs: now)).root.sublayers.first { $0.name == "board" }
        return board?.sublayers.filter { $0.name != SceneLayers.MemoBoardLayer.background } ?? []
    }

    @Test func theMemoStoreFillsABoardThatHasNoStateYet() throws {
        var scene = RenderScene(scene: try Scene(value: Self.scene))
        try scene.applyMemoChange(try Self.change("upsert", Self.memo("m1")))
        try scene.applyMemoChange(try Self.change("upsert", Self.memo("m2")))
        #expect(try Self.memoLayers(scene).map(\.name) == ["m1", "m2"])
        try scene.applyMemoChange(try Self.change("delete", Self.memo("m1")))
        try scene.applyMemoChange(try Self.change("upsert", Self.memo("m2", trashed: true)))
        #expect(try Self.memoLayers(scene).isEmpty)
        #expect(scene.stateSeq == 4)
    }

    @Test func aBoardStateWinsOverTheStoreContents() throws {
        var scene = RenderScene(scene: try Scene(value: Self.scene))
        try scene.applyMemoChange(try Self.change("upsert", Self.memo("m1")))
        _ = try scene.applyState(try Self.board([Self.memo("m9")]), atMs: 0)
        #expect(try Self.memoLayers(scene).map(\.name) == ["m9"])
        #expect(scene.stateSeq == 2)
    }

    @Test func aMinimizedMemoIsDrawnAsAnUprightStripNotItsAnimatedFullSize() throws {
        var scene = RenderScene(scene: try Scene(value: Self.scene))
        let turned = Self.memo("m1").replacingOccurrences(of: #""rotation": 0"#, with: #""rotation": 0.5"#)
            .replacingOccurrences(of: #""scale": 1"#, with: #""scale": 1.5"#)
        _ = try scene.applyState(try Self.board([turned]), atMs: 0)
        let open = try #require(try Self.memoLayers(scene).first)
        #expect(open.frame.height == 80 && open.transform != .identity)
        let folded = turned.replacingOccurrences(of: #""minimized": false"#, with: #""minimized": true"#)
        _ = try scene.applyState(try Self.board([folded]), atMs: 10)
        let strip = try #require(try Self.memoLayers(scene, atMs: 10).first)
        #expect(strip.frame.height == SceneLayers.minimizedMemoHeight)
        #expect(strip.transform == .identity, "a strip lies upright, unscaled")
    }

    @Test func aStateThatCannotBeAppliedChangesNothing() throws {
        var scene = RenderScene(scene: try Scene(value: Self.scene))
        #expect(throws: RenderScene.StateError.self) { try scene.applyState(.map(["x": .int(1)]), atMs: 0) }
        #expect(throws: RenderScene.StateError.self) { try scene.applyState(.array([]), atMs: 0) }
        #expect(throws: RenderScene.StateError.self) {
            try scene.applyState(try Self.board([], animation: #"{"duration_ms": 100, "curve": "bouncy"}"#), atMs: 0)
        }
        #expect(throws: RenderScene.StateError.self) { try scene.applyMemoChange(.map(["change": .string("rename")])) }
        #expect(throws: RenderScene.StateError.self) { try scene.applyScene(.map(["width": .int(0)])) }
        #expect(scene.stateSeq == 0)
        #expect(scene.hasScene)
    }

    @Test func noSceneMeansNothingToDrawUntilOneArrives() throws {
        var scene = RenderScene(scene: nil)
        #expect(try scene.layers(atMs: 0) == nil)
        try scene.applyScene(Self.scene)
        #expect(try scene.layers(atMs: 0)?.size == Size(400, 300))
    }

    @Test func anAnimatedMoveRunsAcrossFramesAndEndsWithAFinishedCompletion() throws {
        var scene = RenderScene(scene: try Scene(value: Self.scene))
        #expect(try scene.applyState(try Self.board([Self.memo("m1", x: 0)]), atMs: 0).isEmpty)
        let animation = #"{"duration_ms": 100, "curve": "linear"}"#
        #expect(
            try scene.applyState(try Self.board([Self.memo("m1", x: 100)], animation: animation), atMs: 1000).isEmpty)
        #expect(scene.isAnimating)
        #expect(try Self.memoLayers(scene, atMs: 1050).first?.frame.minX == 50)
        #expect(scene.frameStarted(atMs: 1050).isEmpty)
        let completions = scene.frameStarted(atMs: 1100)
        let position = try #require(completions.first { $0.property == .position })
        #expect(position.layer == "board/m1" && position.finished && position.atMs == 1100)
        #expect(!scene.isAnimating)
        #expect(try Self.memoLayers(scene, atMs: 1100).first?.frame.minX == 100)
    }

    @Test func aNewTargetMidFlightInterruptsAndRestartsFromTheValueOnScreen() throws {
        var scene = RenderScene(scene: try Scene(value: Self.scene))
        _ = try scene.applyState(try Self.board([Self.memo("m1", x: 0)]), atMs: 0)
        let animation = #"{"duration_ms": 100, "curve": "linear"}"#
        _ = try scene.applyState(try Self.board([Self.memo("m1", x: 100)], animation: animation), atMs: 0)
        let interrupted = try scene.applyState(
            try Self.board([Self.memo("m1", x: 0)], animation: #"{"duration_ms": 100, "curve": "linear"}"#),
            atMs: 50)
        #expect(interrupted.contains { $0.property == .position && !$0.finished })
        #expect(try Self.memoLayers(scene, atMs: 50).first?.frame.minX == 50)
        #expect(try Self.memoLayers(scene, atMs: 100).first?.frame.minX == 25)
    }
}
