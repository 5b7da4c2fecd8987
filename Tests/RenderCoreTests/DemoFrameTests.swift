import Foundation
import Testing

@testable import RenderCore

@Suite struct DemoFrameTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/demo.png").path

    func render() throws -> Image {
        let renderer = LayerRenderer(blur: BlurKernel(threads: 2), font: try FontFace.systemJapanese())
        return try renderer.render(
            DemoScene.root(), width: Int(DemoScene.size.width), height: Int(DemoScene.size.height))
    }

    @Test func demoFrameMatchesTheGoldenWithinTolerance() throws {
        let image = try render()
        let golden = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.golden))))
        #expect(golden.width == image.width && golden.height == image.height)
        let differences = zip(image.bytes, golden.bytes).map { abs(Int($0) - Int($1)) }
        let off = differences.filter { $0 > 3 }.count
        #expect(Double(off) / Double(differences.count) < 0.005, "\(off) channel values differ by more than 3")
        #expect(differences.max() ?? 0 <= 64)
    }

    @Test func dropShadowDarkensBelowTheCard() throws {
        let image = try render()
        let below = image.pixel(80, 103)
        let background = image.pixel(150, 115)
        #expect(background == RGBA8(232, 238, 244, 255))
        #expect(Int(below.r) < Int(background.r) - 30)
    }

    @Test func innerShadowDarkensOnlyTheTopAndLeftEdges() throws {
        let image = try render()
        let centre = image.pixel(80, 170)
        #expect(Int(image.pixel(22, 132).r) < Int(centre.r) - 40)
        #expect(Int(image.pixel(80, 131).r) < Int(centre.r) - 40)
        #expect(Int(image.pixel(21, 170).r) < Int(centre.r) - 40)
        #expect(abs(Int(image.pixel(130, 200).r) - Int(centre.r)) <= 3)
    }

    @Test func regionBlurMixesTheStripesInsideItsRoundedMaskOnly() throws {
        let image = try render()
        let inside = image.pixel(240, 60)
        #expect(inside.r > 120 && inside.b > 120)  // red and blue stripes mixed
        #expect(image.pixel(181, 21) == RGBA8(232, 238, 244, 255))  // outside the rounded corner
        #expect(image.pixel(176, 110) == RGBA8(43, 108, 176, 255))  // below the region: a sharp stripe
    }

    @Test func rotatedMemoCarriesDarkJapaneseText() throws {
        let image = try render()
        var dark = 0
        for y in 130..<225 { for x in 165..<305 where image.pixel(x, y).r < 110 { dark += 1 } }
        #expect(dark > 300)
    }

    @Test func japaneseTextWrapsAnywhereAndLatinWrapsAtWords() {
        let units = TextLayout.units("牛乳 Buy milk")
        #expect(units.map { String(String.UnicodeScalarView($0)) } == ["牛", "乳", " ", "Buy", " ", "milk"])
    }

    @Test func nonFiniteGeometryIsAnErrorNotACrash() throws {
        var root = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        root.sublayers.append(Layer(frame: Rect(x: .nan, y: 0, width: 5, height: 5)))
        #expect(throws: RenderError.self) { try LayerRenderer().render(root, width: 10, height: 10) }
        var path = Path()
        path.addPolygon([Point(0, 0), Point(.infinity, 1), Point(1, 1)])
        #expect(throws: RenderError.self) { try Rasterizer.fill(path, width: 4, height: 4) }
    }
}
