import BusSchema
import Testing

@testable import RenderCore

/// Slide cells as drawn: the revealed view shaded along its top and left edges (the source's
/// SlideView edge shadow), the open row's front plain white.
@Suite struct SlideTableDrawingTests {
    @Test func theRevealedViewIsShadedAlongItsTopEdge() throws {
        let image = try ComponentDrawingTests.render(
            "slideTable", config: "{\"rows\":3,\"row_height\":60}",
            state: "{\"instance\":\"c1\",\"rows\":3,\"open_row\":1,\"offsets\":[0,150,0],\"scroll_offset\":0}",
            width: 200, height: 180)
        try GoldenImage.expectMatch(image, "slide-open")
        let green = RGBA8(0x34, 0xC7, 0x59, 255)
        // Row 1 spans y 60 … 120; its front is slid to x 150, the green button shows at x < 100.
        #expect(ComponentDrawingTests.near(image.pixel(50, 110), green), "the button, clear of the edge")
        let edge = image.pixel(50, 62)
        #expect(Int(edge.g) < Int(green.g) - 30, "shaded just under the top edge: \(edge)")
        #expect(Int(image.pixel(50, 64).g) < Int(image.pixel(50, 75).g), "the shade fades downward")
        #expect(image.pixel(180, 90) == RGBA8(255, 255, 255, 255), "the open front: white, no gradient")
    }
}
