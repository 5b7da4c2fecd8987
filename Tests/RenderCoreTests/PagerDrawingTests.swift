import BusSchema
import Testing

@testable import RenderCore

/// The SmartNews-style pager's progress area and pull label, drawn as the source lays them out.
@Suite struct PagerDrawingTests {
    static func render(pull: Double, label: String) throws -> Image {
        try ComponentDrawingTests.render(
            "pager", config: "{\"page_count\":3,\"nav_height\":60,\"menu_height\":40}",
            state: """
                {"instance":"c1","t_ms":0,"page":0,"page_count":3,"header_offset":0,"progress":0,"loading":false,
                 "page_offset":0,"pull_offset":\(pull),"scroll_offset":\(-pull),"label":"\(label)"}
                """)
    }

    static func dark(_ image: Image, y: Range<Int>) -> Int {
        var count = 0
        for py in y { for px in 0..<200 where image.pixel(px, py).r < 120 { count += 1 } }
        return count
    }

    /// Light pixels (the white label) in rows `y` over the progress area's red.
    static func light(_ image: Image, y: Range<Int>) -> Int {
        var count = 0
        for py in y { for px in 0..<200 where image.pixel(px, py).g > 160 { count += 1 } }
        return count
    }

    /// The source's layout: the progress area (60 pt here) grows with the pull, its label at
    /// its bottom in the navigation bar's place; the menu (40 pt) and the pages follow it down.
    @Test func thePullGrowsTheProgressAreaWithItsLabelAndPushesTheMenuDown() throws {
        // A 90 pt pull: the progress area is y 0 … 150, the label in its bottom 44 pt (106 …
        // 150), the menu 150 … 190.
        let image = try Self.render(pull: 90, label: "引き下げて更新")
        try GoldenImage.expectMatch(image, "pager-pulled")
        let red = RGBA8(0xD7, 0x26, 0x3D, 255)
        #expect(ComponentDrawingTests.near(image.pixel(190, 100), red), "the grown progress area")
        #expect(Self.light(image, y: 108..<148) > 40, "the label at its bottom")
        #expect(Self.light(image, y: 0..<100) == 0, "nothing above it")
        #expect(ComponentDrawingTests.near(image.pixel(190, 170), RGBA8(255, 255, 255, 255)), "the menu, pushed down")
        let released = try Self.render(pull: 130, label: "はなして更新")
        try GoldenImage.expectMatch(released, "pager-release")
        #expect(Self.light(released, y: 148..<188) > 40)
        let idle = try Self.render(pull: 0, label: "Sample")
        #expect(Self.light(idle, y: 18..<58) > 20, "the title in the navigation bar")
        #expect(idle.pixel(190, 110) == RGBA8(0xFD, 0xE2, 0xE4, 255), "page 0 right under the menu")
    }
}
