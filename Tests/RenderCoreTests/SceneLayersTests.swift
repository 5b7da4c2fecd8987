import BusSchema
import Testing

@testable import RenderCore

@Suite struct SceneLayersTests {
    static let scene = """
        {"name":"t","width":200,"height":150,"background":"#102030","views":[
         {"id":"board","frame":{"x":0,"y":0,"width":200,"height":100},"component":{"kind":"memoBoard","id":"b1"}},
         {"id":"pad","frame":{"x":0,"y":100,"width":200,"height":50},"z":1,
          "component":{"kind":"numberPad","id":"p1","config":{"layout":"startWithZero"}}}]}
        """
    static let board = """
        {"instance":"b1","t_ms":0,"selected":null,"arrange_order":"created","background":null,"memos":[
         {"id":"m1","x":10,"y":10,"width":80,"height":60,"scale":1,"rotation":0,"z":1,"color":"pink","minimized":false,"text":"牛乳"},
         {"id":"m2","x":100,"y":10,"width":80,"height":60,"scale":1,"rotation":0,"z":2,"color":"blue","text":"x",
          "minimized":true}]}
        """

    @Test func memosBecomeColouredLayersAndMinimizedOnesFoldToAStrip() throws {
        let scene = try Scene(json: Self.scene)
        let (size, root) = SceneLayers.build(
            scene: scene, states: try TypedStates.decode(["b1": try JSONReader.parse(Self.board)], scene: scene))
        #expect(size == Size(200, 150))
        let board = root.sublayers[0]
        #expect(board.sublayers.map(\.name) == ["background", "m1", "m2"])
        #expect(board.sublayers[1].backgroundColor == Color(hex: 0xFFD1DC))
        #expect(board.sublayers[2].frame == Rect(x: 100, y: 10, width: 80, height: SceneLayers.minimizedMemoHeight))
        let image = try LayerRenderer().render(root, width: 200, height: 150)
        #expect(image.pixel(80, 60) == RGBA8(255, 209, 220, 255))
        #expect(image.pixel(170, 30) == RGBA8(205, 231, 255, 255))  // the folded memo's strip
        #expect(image.pixel(150, 50) == RGBA8(200, 155, 94, 255))  // the board's cork below the strip
    }

    @Test func numberPadDrawsTenKeysInTheConfiguredOrder() throws {
        let (_, root) = SceneLayers.build(scene: try Scene(json: Self.scene), states: [:])
        #expect(root.sublayers[1].sublayers.map(\.name) == (0...9).map { "key\($0)" })
    }

    @Test func sceneWithoutSizeIsRefusedBeforeAnythingIsDrawn() throws {
        #expect(throws: SceneError(path: "$.width", rule: .required, "required property is missing")) {
            try Scene(json: "{\"views\":[]}")
        }
    }
}
