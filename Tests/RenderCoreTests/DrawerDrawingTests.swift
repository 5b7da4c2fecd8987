import BusSchema
import Testing

@testable import RenderCore

/// The edge drawer as drawn (the source's SwipeMenu): closed, its panel slid out but for a 44 pt
/// tab at the edge with a menu mark in it; open, the whole panel over a dimmed view.
@Suite struct DrawerDrawingTests {
    static let view =
        ##","background":"#2c2c2e","shadow":{"color":"#000000","opacity":0.4,"offset":{"x":3,"y":0},"radius":4}"##
    static let panel = RGBA8(0x2C, 0x2C, 0x2E, 255)
    static let mark = RGBA8(0xC7, 0xC7, 0xCC, 255)

    static func render(progress: Double, edge: String = "left") throws -> Image {
        try ComponentDrawingTests.render(
            "drawer", config: #"{"width":150}"#, view: Self.view,
            state: """
                {"instance":"c1","t_ms":0,"open":\(progress > 0),"progress":\(progress),"listening_direction":"right",
                 "edge":"\(edge)","width":150,"tab":44}
                """, width: 200, height: 120)
    }

    @Test func theClosedMenuLeavesItsTabShowingAtTheEdgeWithAMenuMark() throws {
        let image = try Self.render(progress: 0)
        try GoldenImage.expectMatch(image, "drawer-closed")
        #expect(ComponentDrawingTests.near(image.pixel(5, 100), Self.panel), "the tab, against the left edge")
        #expect(ComponentDrawingTests.near(image.pixel(40, 100), Self.panel), "the tab is 44 points wide")
        #expect(ComponentDrawingTests.near(image.pixel(22, 22), Self.mark), "the mark's middle bar")
        #expect(ComponentDrawingTests.near(image.pixel(22, 18), Self.panel), "between the mark's bars")
        #expect(image.pixel(100, 100) == RGBA8(255, 255, 255, 255), "the view beside the tab: not dimmed")
        let tab = (0..<44).flatMap { x in (44..<120).map { y in image.pixel(x, y) } }
        #expect(tab.allSatisfy { ComponentDrawingTests.near($0, Self.panel) }, "no title shows in the tab")
        #expect(Int(image.pixel(46, 100).r) < 250, "the panel's shadow falls beside the tab")
    }

    @Test func theOpenMenuShowsTheWholePanelOverTheDimmedView() throws {
        let image = try Self.render(progress: 1)
        try GoldenImage.expectMatch(image, "drawer-open")
        #expect(ComponentDrawingTests.near(image.pixel(5, 100), Self.panel))
        #expect(ComponentDrawingTests.near(image.pixel(145, 100), Self.panel), "the panel is 150 points wide")
        #expect(ComponentDrawingTests.near(image.pixel(128, 22), Self.mark), "the mark rides at the panel's far end")
        #expect(ComponentDrawingTests.near(image.pixel(190, 100), RGBA8(153, 153, 153, 255)), "white under a 0.4 dim")
        let title = (24..<60).flatMap { x in (62..<84).map { y in image.pixel(x, y) } }
        #expect(title.contains { $0.r > 200 && $0.g > 200 }, "the first menu title in white")
    }

    @Test func aRightEdgeMenuKeepsItsTabAtTheRightEdge() throws {
        let image = try Self.render(progress: 0, edge: "right")
        #expect(ComponentDrawingTests.near(image.pixel(195, 100), Self.panel))
        #expect(ComponentDrawingTests.near(image.pixel(178, 22), Self.mark))
        #expect(image.pixel(60, 100) == RGBA8(255, 255, 255, 255))
    }
}
