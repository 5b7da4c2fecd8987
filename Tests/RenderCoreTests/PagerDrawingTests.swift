import BusSchema
import Testing

@testable import RenderCore

/// The SmartNews-style pager's pull label, drawn in the area the pull opens under the header.
@Suite struct PagerDrawingTests {
    static func render(pull: Double, label: String) throws -> Image {
        try ComponentDrawingTests.render(
            "pager", config: "{\"page_count\":3,\"nav_height\":60,\"menu_height\":40}",
            state: """
                {"instance":"c1","page":0,"page_count":3,"header_offset":0,"progress":0,"loading":false,
                 "page_offset":0,"pull_offset":\(pull),"scroll_offset":\(-pull),"label":"\(label)"}
                """)
    }

    static func dark(_ image: Image, y: Range<Int>) -> Int {
        var count = 0
        for py in y { for px in 0..<200 where image.pixel(px, py).r < 120 { count += 1 } }
        return count
    }

    @Test func thePullLabelShowsInTheOpenedProgressArea() throws {
        // The header ends at y 100; a 90 pt pull opens y 100 … 190 above the pages.
        let image = try Self.render(pull: 90, label: "引き下げて更新")
        try GoldenImage.expectMatch(image, "pager-pulled")
        #expect(Self.dark(image, y: 104..<140) > 40, "the label under the tab strip")
        let released = try Self.render(pull: 130, label: "はなして更新")
        try GoldenImage.expectMatch(released, "pager-release")
        #expect(Self.dark(released, y: 104..<140) > 40)
        let idle = try Self.render(pull: 0, label: "Sample")
        #expect(idle.pixel(190, 110) == RGBA8(0xFD, 0xE2, 0xE4, 255), "page 0 right under the header")
    }
}
