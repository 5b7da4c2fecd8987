/// The demo frame used by the golden test and the render benchmark: a drop shadow, an inner
/// shadow on the top and left edges, a rounded region blur, a gradient-selected table row and
/// a rotated memo with Japanese text.
public enum DemoScene {
    /// The scene's size in points.
    public static let size = Size(320, 240)

    /// The layer tree.
    public static func root() -> Layer {
        var root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: size.width, height: size.height))
        root.backgroundColor = Color(hex: 0xE8EEF4)
        // Stripes so that blurs are visible.
        for k in 0..<8 {
            var stripe = Layer(name: "stripe\(k)", frame: Rect(x: 170 + Double(k) * 18, y: 0, width: 9, height: 120))
            stripe.backgroundColor = k % 2 == 0 ? Color(hex: 0x2B6CB0) : Color(hex: 0xE53E3E)
            root.sublayers.append(stripe)
        }
        var card = Layer(name: "card", frame: Rect(x: 20, y: 20, width: 120, height: 80))
        card.backgroundColor = .white
        card.cornerRadius = 12
        card.shadow = Shadow(opacity: 0.5, offset: Size(0, 4), radius: 6)
        var row = Layer(name: "selectedRow", frame: Rect(x: 0, y: 30, width: 120, height: 24))
        row.gradient = LinearGradient(colors: [Color(hex: 0x5AA0F0), Color(hex: 0x1A5FC0)])
        card.sublayers.append(row)
        root.sublayers.append(card)

        // Inner shadow: a clipped container and a sublayer whose shadow path is a frame around a
        // reversed hole the size of the container, offset down and right so the top and left
        // edges darken.
        var well = Layer(name: "well", frame: Rect(x: 20, y: 130, width: 120, height: 80))
        well.backgroundColor = Color(hex: 0xF7FAFC)
        well.cornerRadius = 8
        well.masksToBounds = true
        var edge = Layer(name: "innerShadow", frame: well.bounds)
        var frame = Path(rect: well.bounds.insetBy(-20, -20))
        frame.addRoundedRect(well.bounds, cornerRadius: 8, reversed: true)
        edge.shadow = Shadow(opacity: 0.6, offset: Size(3, 3), radius: 3, path: frame)
        well.sublayers.append(edge)
        root.sublayers.append(well)

        var glass = Layer(name: "regionBlur", frame: Rect(x: 180, y: 20, width: 120, height: 80))
        glass.backdropBlur = .weak
        glass.cornerRadius = 20
        root.sublayers.append(glass)

        var memo = Layer(name: "memo", frame: Rect(x: 170, y: 130, width: 130, height: 90))
        memo.backgroundColor = Color(hex: 0xFFF3A0)
        memo.transform = .rotation(-0.12)
        memo.shadow = Shadow(opacity: 0.35, offset: Size(0, 3), radius: 4)
        memo.borderWidth = 1
        memo.borderColor = Color(hex: 0xD4B84A)
        memo.text = TextContent(
            string: "買い物メモ：牛乳、卵、パン。Buy milk today", fontSize: 15, color: Color(hex: 0x333333), inset: 8)
        root.sublayers.append(memo)
        return root
    }
}
