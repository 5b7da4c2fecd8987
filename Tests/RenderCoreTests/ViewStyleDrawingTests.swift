import BusSchema
import Testing

@testable import RenderCore

/// What any view declares in its scene is drawn, whatever it hosts: its corner radius, its drop
/// shadow, its inner shadow and its region blur (the demo frame's card, well and glass, declared).
@Suite struct ViewStyleDrawingTests {
    static let scene = """
        {"width": 300, "height": 200, "background": "#E8EEF4", "views": [
          \((0..<8).map { k in
            #"{"id": "stripe\#(k)", "frame": {"x": \#(160 + k * 16), "y": 0, "width": 8, "height": 120}, "background": "\#(k % 2 == 0 ? "#2B6CB0" : "#E53E3E")"}"#
          }.joined(separator: ",\n"))
          ,{"id": "card", "frame": {"x": 20, "y": 20, "width": 100, "height": 60}, "background": "#FFFFFF",
           "corner_radius": 12, "shadow": {"opacity": 0.5, "offset": {"x": 0, "y": 4}, "radius": 6}}
          ,{"id": "well", "frame": {"x": 20, "y": 110, "width": 100, "height": 60}, "background": "#F7FAFC",
           "corner_radius": 8, "inner_shadow": {"opacity": 0.6, "offset": {"x": 3, "y": 3}, "radius": 3}}
          ,{"id": "glass", "frame": {"x": 170, "y": 20, "width": 100, "height": 80}, "blur": {"level": "weak"},
           "corner_radius": 20}
        ]}
        """

    static func image() throws -> Image {
        let (_, root) = SceneLayers.build(scene: try Scene(json: Self.scene, file: "style.json"), states: [:])
        return try LayerRenderer().render(root, width: 300, height: 200)
    }

    static func luminance(_ pixel: RGBA8) -> Int { Int(pixel.r) + Int(pixel.g) + Int(pixel.b) }

    @Test func aDeclaredDropShadowDarkensBelowTheViewAndItsCornersAreRound() throws {
        let image = try Self.image()
        let background = Self.luminance(image.pixel(70, 100))
        #expect(Self.luminance(image.pixel(70, 83)) < background - 30, "the shadow falls below the card")
        #expect(image.pixel(70, 50) == RGBA8(255, 255, 255, 255))
        #expect(Self.luminance(image.pixel(20, 20)) < 3 * 250, "the card's very corner is cut away")
    }

    @Test func aDeclaredInnerShadowDarkensTheEdgesTheOffsetPointsAwayFrom() throws {
        let image = try Self.image()
        let centre = Self.luminance(image.pixel(70, 140))
        #expect(Self.luminance(image.pixel(21, 140)) < centre - 30, "the left edge is shaded")
        #expect(Self.luminance(image.pixel(70, 111)) < centre - 30, "the top edge is shaded")
        #expect(abs(Self.luminance(image.pixel(110, 160)) - centre) < 10, "the bottom right is not")
    }

    @Test func aDeclaredBlurMixesWhatLiesBehindTheViewInsideItsRoundedMaskOnly() throws {
        let image = try Self.image()
        func spread(y: Int) -> Int {
            let reds = (180..<260).map { Int(image.pixel($0, y).r) }
            return reds.max()! - reds.min()!
        }
        #expect(spread(y: 110) > 150, "below the glass the stripes are sharp")
        #expect(spread(y: 60) < spread(y: 110) / 3, "behind the glass they are blurred")
        // The mask's corner keeps the sharp stripes.
        #expect(image.pixel(171, 21) == image.pixel(171, 110))
    }

    @Test func aZoomViewDrawsItsOverlayOnceWithTheOverlaysDeclaredStyleAndTheTextOverTheTint() throws {
        let scene = try Scene(
            json: """
                {"width": 400, "height": 300, "views": [
                  {"id": "photo", "frame": {"x": 0, "y": 0, "width": 400, "height": 300},
                   "component": {"kind": "zoomView", "id": "zoom1", "config": {"overlays": ["caption"]}}},
                  {"id": "caption", "parent": "photo", "frame": {"x": 20, "y": 220, "width": 360, "height": 60},
                   "background": "#00000080", "corner_radius": 10, "blur": {"level": "strong", "corner_radius": 14}}]}
                """)
        let (_, root) = SceneLayers.build(scene: scene, states: [:])
        #expect(!root.sublayers.contains { $0.name == "caption" }, "drawn once, by the zoom view")
        let photo = try #require(root.sublayers.first { $0.name == "photo" })
        let overlay = try #require(photo.sublayers.first { $0.name == "overlay" })
        #expect(overlay.frame == Rect(x: 20, y: 220, width: 360, height: 60) && overlay.cornerRadius == 10)
        #expect(Array(overlay.sublayers.map(\.name).prefix(3)) == ["blur", "tint", "text"])
        #expect(overlay.sublayers[0].backdropBlur == .strong && overlay.sublayers[0].cornerRadius == 14)
        #expect(overlay.sublayers[1].backgroundColor == Color(hex: 0x000000, alpha: 128.0 / 255))
        #expect(overlay.backgroundColor == nil && overlay.text == nil && overlay.sublayers[2].text != nil)
    }
}
