import BusSchema
import Testing

@testable import RenderCore

/// The pull-to-refresh header as drawn over its table: whole past the header height, pushing
/// the rows down, a spinner in the arrow's place while refreshing.
@Suite struct PullToRefreshDrawingTests {
    /// The layers of a 200×200 table of 64 pt rows with a 60 pt header view at its top, attached
    /// to it (`scroll_view`), as in the demo scene, the header in state `header`.
    static func root(header: String) throws -> Layer {
        let scene = """
            {"width":200,"height":200,"background":"#ffffff","views":[
             {"id":"table","frame":{"x":0,"y":0,"width":200,"height":200},
              "component":{"kind":"slideTable","id":"t1","config":{"rows":10,"row_height":64}}},
             {"id":"tableHeader","frame":{"x":0,"y":0,"width":200,"height":60},
              "component":{"kind":"pullToRefresh","id":"h1","config":{"scroll_view":"table","header_height":60}}}]}
            """
        let table = #"{"instance":"t1","t_ms":0,"rows":10,"offsets":[0,0,0,0],"scroll_offset":0,"open_row":null}"#
        let states = ["t1": try JSONReader.parse(table), "h1": try JSONReader.parse(header)]
        let typed = try Scene(json: scene)
        return SceneLayers.build(scene: typed, states: try TypedStates.decode(states, scene: typed)).root
    }

    /// The table and header of ``root(header:)`` drawn.
    static func render(header: String) throws -> Image {
        try LayerRenderer(font: try FontFace.systemJapanese()).render(
            try Self.root(header: header), width: 200, height: 200)
    }

    static func header(
        phase: String, offset: Double, label: String, angle: Double, updatedAtMs: Double? = nil
    ) -> String {
        """
        {"instance":"h1","t_ms":0,"phase":"\(phase)","offset":\(offset),"threshold":80,"label":"\(label)",
         "arrow_angle":\(angle),"header_height":60\(updatedAtMs.map { ",\"updated_at_ms\":\($0)" } ?? "")}
        """
    }

    static let ink = RGBA8(0x8E, 0x8E, 0x93, 255)

    static let band = RGBA8(0xE5, 0xE5, 0xEA, 255)

    static func dark(_ image: Image, x: Range<Int>, y: Range<Int>, below: UInt8 = 120) -> Int {
        var count = 0
        for py in y { for px in x where image.pixel(px, py).r < below { count += 1 } }
        return count
    }

    @Test func pulledPastTheHeaderHeightTheHeaderStaysWholeAndTheRowsMoveDown() throws {
        let image = try Self.render(
            header: Self.header(phase: "overThreshold", offset: 120, label: "指をはなすと更新", angle: Double.pi))
        try GoldenImage.expectMatch(image, "pull-over-threshold")
        // The band is y 60 … 120, past the 60 pt header view's own frame.
        #expect(ComponentDrawingTests.near(image.pixel(190, 70), Self.band), "the band below the header view's frame")
        #expect(Self.dark(image, x: 56..<190, y: 78..<102) > 40, "the label, drawn whole")
        #expect(ComponentDrawingTests.near(image.pixel(28, 90), Self.ink), "the arrow")
        // Row 1 starts at the band's bottom: its separator at 120 + 63.5.
        #expect(image.pixel(100, 183).r < 240, "row 1's half-point separator, pushed down")
    }

    /// The arrow box is 16 × 30 around (28, 90): pointing up, its head's wide base is 13 pt
    /// below the top, wider than the shaft, and there is no head at the bottom.
    @Test func overTheThresholdTheArrowPointsUpAndTheLastUpdatedLineShowsUnderTheLabel() throws {
        // 2011-08-22 10:05 UTC, shown at the scene's default UTC offset.
        let image = try Self.render(
            header: Self.header(
                phase: "overThreshold", offset: 120, label: "指をはなすと更新", angle: Double.pi - 0.000_001,
                updatedAtMs: 1_314_007_500_000))
        try GoldenImage.expectMatch(image, "pull-over-threshold-updated")
        #expect(ComponentDrawingTests.near(image.pixel(22, 88), Self.ink), "the head's wide base, left of the shaft")
        #expect(ComponentDrawingTests.near(image.pixel(33, 88), Self.ink), "and right of it")
        #expect(ComponentDrawingTests.near(image.pixel(22, 102), Self.band), "no head at the bottom")
        #expect(ComponentDrawingTests.near(image.pixel(28, 102), Self.ink), "the shaft")
        #expect(Self.dark(image, x: 56..<190, y: 70..<90) > 40, "the label, moved up")
        #expect(Self.dark(image, x: 56..<190, y: 93..<111, below: 200) > 40, "the last-updated line under it")
        #expect(
            SceneLayers.dateTime(1_314_007_500_000, offsetMinutes: 540) == "2011/08/22 19:05",
            "at the scene's utc_offset_min")
    }

    /// Half-way through its turn (what the renderer draws at 50 ms of the 0.1 s turn), the
    /// arrow lies on its side, its head to the left: it turns clockwise, as its angle grows.
    @Test func halfWayThroughItsTurnTheArrowLiesOnItsSide() throws {
        let image = try Self.render(
            header: Self.header(phase: "overThreshold", offset: 120, label: "指をはなすと更新", angle: Double.pi / 2))
        try GoldenImage.expectMatch(image, "pull-arrow-turning")
        #expect(ComponentDrawingTests.near(image.pixel(18, 90), Self.ink), "the head, left of the box's centre")
        #expect(ComponentDrawingTests.near(image.pixel(28, 78), Self.band), "nothing above the centre")
        #expect(ComponentDrawingTests.near(image.pixel(38, 90), Self.ink), "the shaft's far end, right")
    }

    @Test func refreshingPushesTheRowsDownAndSpinsInsteadOfTheArrow() throws {
        let image = try Self.render(header: Self.header(phase: "refreshing", offset: 60, label: "更新中…", angle: 0))
        try GoldenImage.expectMatch(image, "pull-refreshing")
        #expect(ComponentDrawingTests.near(image.pixel(190, 5), Self.band), "the header over the top 60 pt")
        #expect(image.pixel(100, 123).r < 240, "row 1's separator below it: the row is not covered")
        // The spinner's right spoke; the arrow's lower end (x 20 … 36, down to y 45) is gone.
        #expect(Int(image.pixel(35, 30).r) < 0xE5 - 20, "a spoke right of the spinner's centre")
        #expect(ComponentDrawingTests.near(image.pixel(25, 40), Self.band), "no arrow")
    }
}
