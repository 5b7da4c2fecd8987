import BusSchema
import Testing

@testable import RenderCore

/// LKNumberPad as drawn: the popup balloon over the touched key (left, inner and right shapes,
/// the digit in bold), the source's key colours, and the default key order.
@Suite struct NumberPadDrawingTests {
    /// Key slots: 4 pt gaps around 27.6 pt keys, 31.6 pt apart; the keys' tops at y 100.
    static func keyMinX(_ index: Int) -> Double { 4 + Double(index) * 31.6 }

    /// The source's recommended 320×54 pad at the bottom of a white 320×150 scene, so the
    /// balloon (about 70 pt above the key) has room above it.
    static func render(_ state: String?, config: String = "{}") throws -> Image {
        let scene = """
            {"width":320,"height":150,"background":"#ffffff","views":[{"id":"pad","frame":{"x":0,"y":96,
             "width":320,"height":54},"component":{"kind":"numberPad","id":"pad1","config":\(config)}}]}
            """
        let states = try state.map { ["pad1": try JSONReader.parse($0)] } ?? [:]
        let typed = try Scene(json: scene)
        let (_, root) = SceneLayers.build(scene: typed, states: try TypedStates.decode(states, scene: typed))
        return try LayerRenderer(font: try FontFace.systemJapanese()).render(root, width: 320, height: 150)
    }

    static func state(popup: (kind: String, digit: Int)?, enabled: [Int] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0]) -> String {
        let popupJSON = popup.map { "{\"kind\":\"\($0.kind)\",\"digit\":\($0.digit)}" } ?? "null"
        return """
            {"instance":"pad1","t_ms":0,"layout":"phone","enabled":\(enabled),"highlighted":\(popup.map { "\($0.digit)" } ?? "null"),
             "popup":\(popupJSON),"touched_string":"","sequential_string":""}
            """
    }

    static func grey(_ pixel: RGBA8, _ value: Int, tolerance: Int = 3) -> Bool {
        [pixel.r, pixel.g, pixel.b].allSatisfy { abs(Int($0) - value) <= tolerance } && pixel.a == 255
    }

    /// Dark (digit) pixels inside a rectangle of the frame.
    static func darkPixels(_ image: Image, x: Range<Int>, y: Range<Int>) -> Int {
        var count = 0
        for py in y { for px in x where image.pixel(px, py).r < 80 { count += 1 } }
        return count
    }

    @Test func anInnerKeyPopsUpACentredBalloonWithItsDigitInBold() throws {
        // Digit 5 is the fifth key (x 130.4 … 158): the head spans x 112 … 176, y 30 … 86.
        let image = try Self.render(Self.state(popup: ("inner", 5)))
        try GoldenImage.expectMatch(image, "numberpad-inner")
        #expect(Self.grey(image.pixel(117, 60), 242), "the head, left of the digit, in the key colour (white 0.95)")
        #expect(Self.grey(image.pixel(171, 60), 242), "the head, right of the digit")
        #expect(Self.grey(image.pixel(144, 93), 242), "the neck down to the key")
        #expect(Self.grey(image.pixel(100, 40), 255), "the scene beside the head")
        // A bold 44 pt "5" is a few hundred dark pixels; a regular face about half as many.
        let digit = Self.darkPixels(image, x: 120..<170, y: 30..<86)
        #expect(digit > 250, "\(digit) dark pixels of the digit in the head")
        let lifted = try Self.render(Self.state(popup: nil))
        #expect(Self.grey(lifted.pixel(117, 60), 255), "no balloon once the finger lifts")
        #expect(Self.darkPixels(lifted, x: 120..<170, y: 30..<86) == 0)
    }

    @Test func theEdgeKeysBalloonsGrowInwardOnly() throws {
        let left = try Self.render(Self.state(popup: ("left", 1)))
        try GoldenImage.expectMatch(left, "numberpad-left")
        // Key 1 spans x 4 … 31.6; its head x 4 … 68, flush with the key's left side.
        #expect(Self.grey(left.pixel(62, 60), 242), "the head reaches right, over the next key")
        #expect(Self.grey(left.pixel(1, 60), 255), "nothing left of the key")
        #expect(Self.darkPixels(left, x: 10..<62, y: 30..<86) > 250, "the digit 1 in the head")
        let right = try Self.render(Self.state(popup: ("right", 0)))
        try GoldenImage.expectMatch(right, "numberpad-right")
        // Key 0 spans x 288.4 … 316; its head x 252 … 316.
        #expect(Self.grey(right.pixel(258, 60), 242), "the head reaches left")
        #expect(Self.grey(right.pixel(318, 60), 255), "nothing right of the key")
    }

    @Test func keysUseTheSourcesFaceColoursAndDisabledKeysTurnGrey() throws {
        let image = try Self.render(Self.state(popup: nil, enabled: [1, 2, 3]))
        try GoldenImage.expectMatch(image, "numberpad-disabled")
        let enabledKey = Int(Self.keyMinX(2))
        let disabledKey = Int(Self.keyMinX(6))
        #expect(Self.grey(image.pixel(enabledKey + 3, 141), 242), "an enabled key: white 0.95")
        #expect(Self.grey(image.pixel(disabledKey + 3, 141), 217), "a disabled key: white 0.85")
        // The disabled digit is light grey (white 2/3 = 170): drawn, but never darker than that.
        var darkest = 255
        for y in 102..<144 {
            for x in (disabledKey + 2)..<(disabledKey + 26) { darkest = min(darkest, Int(image.pixel(x, y).r)) }
        }
        #expect((165...190).contains(darkest), "the disabled digit's darkest pixel is \(darkest)")
    }

    /// The dark pixels' rows and columns inside a rectangle of the frame.
    static func inkBounds(_ image: Image, x: Range<Int>, y: Range<Int>) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
        var (minX, maxX, minY, maxY) = (Int.max, Int.min, Int.max, Int.min)
        for py in y {
            for px in x where image.pixel(px, py).r < 80 {
                (minX, maxX, minY, maxY) = (min(minX, px), max(maxX, px), min(minY, py), max(maxY, py))
            }
        }
        return minX <= maxX ? (minX...maxX, minY...maxY) : nil
    }

    @Test(arguments: [(920.0, 100.0), (320.0, 54.0), (320.0, 100.0)])
    func everyKeysDigitIsCentredInItsKey(width: Double, height: Double) throws {
        // The demo's pad is 920 × 100: wide keys, where a label inset by half the spare width
        // would sit at the keys' bottom edge.
        let scene = try Scene(
            json: """
                {"width":\(width),"height":\(height),"background":"#ffffff","views":[{"id":"pad","frame":{"x":0,"y":0,
                 "width":\(width),"height":\(height)},"component":{"kind":"numberPad","id":"pad1","config":{}}}]}
                """)
        let (_, root) = SceneLayers.build(scene: scene, states: [:])
        let image = try LayerRenderer(font: try FontFace.systemJapanese()).render(
            root, width: Int(width), height: Int(height))
        for key in root.sublayers[0].sublayers {
            let frame = key.frame
            let ink = try #require(
                Self.inkBounds(image, x: Int(frame.minX)..<Int(frame.maxX), y: Int(frame.minY)..<Int(frame.maxY)),
                "\(key.name) has a digit")
            let inkCentre = (
                x: Double(ink.x.lowerBound + ink.x.upperBound + 1) / 2,
                y: Double(ink.y.lowerBound + ink.y.upperBound + 1) / 2
            )
            let keyCentre = (x: (frame.minX + frame.maxX) / 2, y: (frame.minY + frame.maxY) / 2)
            #expect(
                abs(inkCentre.x - keyCentre.x) <= frame.width * 0.08, "\(key.name): digit at x \(ink.x) in \(frame)")
            #expect(
                abs(inkCentre.y - keyCentre.y) <= frame.height * 0.08, "\(key.name): digit at y \(ink.y) in \(frame)")
        }
    }

    @Test func withoutALayoutKeysRunFromOneToNineThenZero() throws {
        // The state machine's default and the drawing's are one (NumberPadState.Layout.standard).
        let scene = try Scene(
            json: """
                {"width":320,"height":54,"views":[{"id":"pad","frame":{"x":0,"y":0,"width":320,"height":54},
                 "component":{"kind":"numberPad","id":"pad1","config":{}}}]}
                """)
        let (_, root) = SceneLayers.build(scene: scene, states: [:])
        let keys = root.sublayers[0].sublayers.sorted { $0.frame.minX < $1.frame.minX }.map(\.name)
        #expect(keys == NumberPadState.Layout.standard.digits.map { "key\($0)" })
        #expect(keys.first == "key1" && keys.last == "key0")
    }
}
