import BusSchema
import Testing

@testable import RenderCore

/// The FloatyMemo+ board as drawn from its state: the editor open over a veiled board, the
/// pulled-down search bar with the matching memo highlighted and the others dimmed, and the
/// configured background image under the memos.
@Suite struct MemoBoardDrawingTests {
    /// A `width`×`height` board (instance `b1`) with `state`, and `images` by path.
    static func render(
        _ state: String, width: Int = 240, height: Int = 240, images: [String: ImageContent] = [:]
    ) throws -> Image {
        let scene = """
            {"width":\(width),"height":\(height),"views":[{"id":"memos","frame":{"x":0,"y":0,"width":\(width),
             "height":\(height)},"component":{"kind":"memoBoard","id":"b1","config":{"client":"b1"}}}]}
            """
        let typed = try Scene(json: scene, file: "test")
        let (_, root) = SceneLayers.build(
            scene: typed, states: try TypedStates.decode(["b1": try JSONReader.parse(state)], scene: typed),
            images: images)
        return try LayerRenderer(font: try FontFace.systemJapanese()).render(root, width: width, height: height)
    }

    /// Two memos: m1 yellow at (20, 150), m2 pink at (110, 60), both 80×60, with `extra` fields.
    static func board(_ extra: String, background: String = "null") -> String {
        """
        {"instance":"b1","t_ms":0,"selected":null,"arrange_order":"created","background":\(background),"memos":[
         {"id":"m1","x":20,"y":150,"width":80,"height":60,"scale":1,"rotation":0,"z":1,"color":"yellow",
          "minimized":false,"text":"牛乳"},
         {"id":"m2","x":110,"y":60,"width":80,"height":60,"scale":1,"rotation":0,"z":2,"color":"pink",
          "minimized":false,"text":"会議"}]\(extra)}
        """
    }

    static let yellow = RGBA8(0xFF, 0xF3, 0xA0, 255)
    static let pink = RGBA8(0xFF, 0xD1, 0xDC, 255)

    @Test func theEditorShowsTheMemoEnlargedUnderItsBarOverAVeiledBoard() throws {
        let image = try Self.render(Self.board(#","editing":"m1""#))
        try GoldenImage.expectMatch(image, "memo-editor")
        // The editor is the board less 24 pt a side: (24, 25) 192×190, its bar the top 44 pt.
        #expect(ComponentDrawingTests.near(image.pixel(200, 200), Self.yellow), "m1's colour, enlarged")
        #expect(image.pixel(6, 6).r < 140, "the board outside the editor, veiled")
        let bar = image.pixel(30, 28)
        #expect(bar.r > 235 && bar.g > 235 && bar.b > 225, "the bar over the memo's top")
        var blue = 0
        for y in 25..<69 {
            for x in 150..<216 where Int(image.pixel(x, y).b) > Int(image.pixel(x, y).r) + 60 { blue += 1 }
        }
        #expect(blue > 20, "the blue 完了 button")
        // m2 (pink, on the board behind the veil) is not drawn over the editor.
        #expect(!ComponentDrawingTests.near(image.pixel(150, 80), Self.pink, 20))
    }

    @Test func aSearchPullsTheBarDownHighlightsTheMatchAndDimsTheOthers() throws {
        let search =
            #","search":{"query":"会議","matches":[{"memo_id":"m2","trashed":false,"ranges":[[0,2]]},"#
            + #"{"memo_id":"m9","trashed":true,"ranges":[[0,2]]}]}"#
        let image = try Self.render(Self.board(search))
        try GoldenImage.expectMatch(image, "memo-search")
        let bar = image.pixel(4, 22)
        #expect(bar.b > bar.r && (160...215).contains(bar.r), "the blue-grey search bar at the top")
        #expect(image.pixel(60, 22) == RGBA8(255, 255, 255, 255) || image.pixel(100, 22).r == 255, "its white field")
        let ring = image.pixel(111, 90)
        #expect(ring.r > 230 && (110...180).contains(ring.g) && ring.b < 80, "the match's orange ring")
        #expect(ComponentDrawingTests.near(image.pixel(180, 112), Self.pink), "the match itself, not dimmed")
        let dimmed = image.pixel(90, 200)
        #expect(dimmed.g < 200 && dimmed.r > 200, "m1 dimmed over the cork")
    }

    @Test func anEditorWithASearchRunningShowsTheEditorAlone() throws {
        let both =
            #","editing":"m1","search":{"query":"会議","matches":[{"memo_id":"m2","trashed":false,"ranges":[[0,2]]}]}"#
        let image = try Self.render(Self.board(both))
        let scene = try Scene(
            json: #"{"width":240,"height":240,"views":[{"id":"v","frame":{"x":0,"y":0,"width":240,"height":240},"#
                + #""component":{"kind":"memoBoard","id":"b1","config":{}}}]}"#, file: "test")
        let (_, root) = SceneLayers.build(
            scene: scene, states: try TypedStates.decode(["b1": try JSONReader.parse(Self.board(both))], scene: scene))
        let names = root.sublayers[0].sublayers.map(\.name)
        #expect(names.contains(SceneLayers.MemoBoardLayer.editor))
        #expect(!names.contains(SceneLayers.MemoBoardLayer.searchBar), "one overlay at a time")
        #expect(image.pixel(4, 4).b < image.pixel(4, 4).r, "no search bar above the veil")
    }

    @Test func theConfiguredBackgroundImageFillsTheBoardUnderTheMemos() throws {
        // A 4×6 image of four colours, filling a 120×160 board: 30 pt a pixel, 10 pt cut off top and bottom.
        let colors: [RGBA8] = [
            RGBA8(0xE5, 0x39, 0x35, 255), RGBA8(0x43, 0xA0, 0x47, 255), RGBA8(0x1E, 0x88, 0xE5, 255),
            RGBA8(0xFD, 0xD8, 0x35, 255),
        ]
        var picture = try Image(width: 4, height: 6)
        for y in 0..<6 { for x in 0..<4 { picture.setPixel(x, y, colors[(y < 3 ? 0 : 2) + (x < 2 ? 0 : 1)]) } }
        let state = Self.board("", background: #""boards/four.png""#).replacingOccurrences(
            of: #""x":110,"y":60"#, with: #""x":500,"y":60"#)
        let image = try Self.render(
            state, width: 120, height: 160, images: ["boards/four.png": try ImageContent(picture)])
        try GoldenImage.expectMatch(image, "memo-background-image")
        #expect(image.pixel(10, 20) == colors[0], "top left")
        #expect(image.pixel(110, 20) == colors[1], "top right")
        #expect(image.pixel(110, 140) == colors[3], "bottom right")
        #expect(image.pixel(5, 100) == colors[2], "bottom left")
        #expect(ComponentDrawingTests.near(image.pixel(90, 200 - 45), Self.yellow), "m1 over the image")
    }
}
