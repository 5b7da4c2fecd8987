import BusSchema
import Testing

@testable import RenderCore

/// Slide cells as drawn: the revealed view shaded along its top and left edges (the source's
/// SlideView edge shadow), the open row's front plain white, a selected row's front with the
/// source's grey gradient and a pressed row's light grey.
@Suite struct SlideTableDrawingTests {
    @Test func theRevealedViewIsShadedAlongItsTopEdge() throws {
        let image = try ComponentDrawingTests.render(
            "slideTable", config: "{\"rows\":3,\"row_height\":60}",
            state: #"{"instance":"c1","t_ms":0,"rows":3,"open_row":1,"offsets":[0,150,0],"scroll_offset":0}"#,
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

    /// The source's BaseView: 0.9 white at 0.9 alpha over white at the top (0.91 → 232), 0.7
    /// white at 0.7 alpha at the bottom (0.79 → 201); lightGrayColor (2/3 → 170) while pressed.
    @Test func aSelectedRowHasTheGreyGradientAndAPressedRowIsLightGrey() throws {
        let image = try ComponentDrawingTests.render(
            "slideTable", config: "{\"rows\":3,\"row_height\":60}",
            state: """
                {"instance":"c1","t_ms":0,"rows":3,"open_row":null,"offsets":[0,0,0],"scroll_offset":0,
                 "selected_row":0,"highlighted_row":2}
                """,
            width: 200, height: 180)
        try GoldenImage.expectMatch(image, "slide-selected-pressed")
        #expect(ComponentDrawingTests.near(image.pixel(180, 1), RGBA8(231, 231, 231, 255), 3), "gradient top")
        #expect(ComponentDrawingTests.near(image.pixel(180, 58), RGBA8(202, 202, 202, 255), 3), "gradient bottom")
        #expect(image.pixel(180, 90) == RGBA8(255, 255, 255, 255), "an unselected row stays white")
        #expect(ComponentDrawingTests.near(image.pixel(180, 150), RGBA8(170, 170, 170, 255), 2), "pressed: light grey")
        let blue = image.pixel(180, 30)
        #expect(blue.r == blue.g && blue.g == blue.b, "grey, not the light blue of a selected-row drawing")
    }
}
