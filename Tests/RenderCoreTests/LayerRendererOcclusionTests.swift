import Testing

@testable import RenderCore

/// Fills skip what a later opaque background replaces, invisibly: a frame with an opaque view
/// on top is the frame without it with the view filled over it, also where a backdrop blur
/// read the pixels the view then covers.
@Suite struct LayerRendererOcclusionTests {
    /// `image` with an opaque box filled over it afterwards: what a frame with that box as its
    /// last layer must be.
    static func painted(
        _ image: Image, minX: Double, minY: Double, maxX: Double, maxY: Double, _ color: Color
    ) -> Image {
        var canvas = Canvas(image: image)
        let box = Rasterizer.fillRect(
            minX: minX, minY: minY, maxX: maxX, maxY: maxY, width: image.width, height: image.height)
        canvas.fill(box, with: .solid(color), clip: nil, opacity: 1)
        return canvas.image
    }

    /// A root with a background, a card (gradient, text, border, path shadow, a clipped
    /// sublayer) and a panel nested in a clipping view.
    static func scene() -> Layer {
        var card = Layer(name: "card", frame: Rect(x: 10.5, y: 12.25, width: 90, height: 60))
        card.backgroundColor = Color(hex: 0xFFFFFF)
        card.gradient = LinearGradient(colors: [Color(hex: 0x5AA0F0), Color(hex: 0x1A5FC0, alpha: 0.5)])
        card.borderWidth = 1.5
        card.borderColor = Color(hex: 0x000000, alpha: 0.4)
        card.shadow = Shadow(opacity: 0.4, offset: Size(2, 3), radius: 3, path: Path(rect: card.bounds))
        card.text = TextContent(string: "occlusion", fontSize: 14, inset: 6)
        card.masksToBounds = true
        var dot = Layer(name: "dot", frame: Rect(x: 60, y: 30, width: 50, height: 50))
        dot.backgroundColor = Color(hex: 0xE04040)
        dot.cornerRadius = 10
        card.sublayers = [dot]
        var view = Layer(name: "view", frame: Rect(x: 70, y: 40, width: 60, height: 70))
        view.masksToBounds = true
        view.backgroundColor = Color(hex: 0x202830)
        var panel = Layer(name: "panel", frame: Rect(x: -10, y: 20.5, width: 50, height: 80))
        panel.backgroundColor = Color(hex: 0x40C080)
        view.sublayers = [panel]
        var root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 160, height: 120))
        root.backgroundColor = Color(hex: 0xF2F2F7)
        root.sublayers = [card, view]
        return root
    }

    @Test func aFrameWithAnOpaqueViewOnTopIsTheFrameBelowWithTheViewFilledOver() throws {
        let renderer = LayerRenderer(font: try FontFace.systemJapanese())
        let below = try renderer.render(Self.scene(), width: 160, height: 120)
        var root = Self.scene()
        var top = Layer(name: "top", frame: Rect(x: 40.5, y: 30.5, width: 60, height: 50.25))
        top.backgroundColor = Color(hex: 0x336699)
        root.sublayers.append(top)
        let covered = try renderer.render(root, width: 160, height: 120)
        #expect(covered == Self.painted(below, minX: 40.5, minY: 30.5, maxX: 100.5, maxY: 80.75, top.backgroundColor!))
    }

    @Test func whatABackdropBlurReadsIsPaintedEvenWhereALaterViewCoversIt() throws {
        var stripes = Layer(name: "stripes", frame: Rect(x: 0, y: 0, width: 120, height: 80))
        stripes.sublayers = (0..<12).map { index in
            var stripe = Layer(name: "s\(index)", frame: Rect(x: Double(index) * 10, y: 0, width: 5, height: 80))
            stripe.backgroundColor = Color(hex: 0x000000)
            return stripe
        }
        stripes.backgroundColor = Color(hex: 0xFFFFFF)
        var glass = Layer(name: "glass", frame: Rect(x: 20, y: 10, width: 80, height: 60))
        glass.backdropBlur = .gaussian(sigma: 4)
        var root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 120, height: 80))
        root.sublayers = [stripes, glass]
        let renderer = LayerRenderer()
        let blurred = try renderer.render(root, width: 120, height: 80)
        var cover = Layer(name: "cover", frame: Rect(x: 50, y: 0, width: 70, height: 80))
        cover.backgroundColor = Color(hex: 0x336699)
        root.sublayers.append(cover)
        let covered = try renderer.render(root, width: 120, height: 80)
        #expect(covered == Self.painted(blurred, minX: 50, minY: 0, maxX: 120, maxY: 80, cover.backgroundColor!))
    }
}
