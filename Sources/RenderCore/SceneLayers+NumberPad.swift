import BusSchema
import Foundation

/// LKNumberPad drawn from its state: ten keys in one row in the layout's order, and while a
/// finger is down the popup balloon over the touched key (LKNumberPadLayer).
extension SceneLayers {
    /// The source's colours and sizes (LKNumberPadView's defaults).
    enum NumberPadStyle {
        /// `keyboardColor`: white 0.95.
        static let keyFace = Color(red: 0.95, green: 0.95, blue: 0.95)
        /// `disabledKeyboardColor`: white 0.85.
        static let disabledKeyFace = Color(red: 0.85, green: 0.85, blue: 0.85)
        /// `textColor`: black.
        static let text = Color.black
        /// `disabledTextColor`: UIColor's lightGray, white 2/3.
        static let disabledText = Color(red: 2.0 / 3, green: 2.0 / 3, blue: 2.0 / 3)
        /// The popup's shadow colour, white 0.1.
        static let popupShadow = Color(red: 0.1, green: 0.1, blue: 0.1)
        /// The popup digit: Helvetica Bold 44 pt at the recommended size.
        static let popupFontSize = 44.0
        /// The recommended view width (320 × 54), for which the popup's sizes are given; on a
        /// wider pad the balloon scales with the keys.
        static let sourceWidth = 320.0
        /// The balloon's head (the part holding the digit): twice a key slot (a tenth of the
        /// view) wide, tall enough for the 44 pt digit, with rounded corners. The source draws
        /// these with constants it does not list; these sizes are ours.
        static let headWidth = 2 * sourceWidth / 10
        static let headHeight = 56.0
        static let headRadius = 10.0
        /// The curved neck from the head's width down to the key's.
        static let neckHeight = 14.0
        /// Space between keys and around the row.
        static let gap = 4.0
        static let keyRadius = 6.0
    }

    static func keys(_ state: NumberPadState?, config: Scene.Config.NumberPad, size: Size) -> [Layer] {
        let digits = (state?.layout ?? config.layout).digits
        let enabled = state.map { Set($0.enabled) }
        let gap = NumberPadStyle.gap
        let width = max(0, (size.width - gap * Double(digits.count + 1)) / Double(digits.count))
        let frames = digits.indices.map { index in
            Rect(x: gap + Double(index) * (width + gap), y: gap, width: width, height: max(0, size.height - 2 * gap))
        }
        var layers = zip(digits, frames).map { digit, frame in
            var key = Layer(name: "key\(digit)", frame: frame)
            let isEnabled = enabled?.contains(digit) ?? true
            key.cornerRadius = NumberPadStyle.keyRadius
            key.backgroundColor = isEnabled ? NumberPadStyle.keyFace : NumberPadStyle.disabledKeyFace
            key.shadow = Shadow(
                opacity: 0.3, offset: Size(0, 1), radius: 0.5,
                path: Path(roundedRect: key.bounds, cornerRadius: NumberPadStyle.keyRadius))
            let fontSize = min(frame.height * 0.5, width * 0.8)
            key.text = TextContent(
                string: "\(digit)", fontSize: fontSize,
                color: isEnabled ? NumberPadStyle.text : NumberPadStyle.disabledText,
                centred: true)
            return key
        }
        if let popup = state?.popup, let index = digits.firstIndex(of: popup.digit) {
            let scale = size.width / NumberPadStyle.sourceWidth
            layers.append(balloon(digit: popup.digit, kind: popup.kind, key: frames[index], scale: scale))
        }
        return layers
    }

    /// The popup over `key`: a head twice a key wide (flush with the key's outer side for the
    /// edge keys, centred over it otherwise), a neck curving in to the key's width, and the key
    /// itself, filled as one shape with the digit in bold in the head.
    static func balloon(digit: Int, kind: NumberPadState.PopupKind, key: Rect, scale: Double) -> Layer {
        let (headWidth, headHeight) = (NumberPadStyle.headWidth * scale, NumberPadStyle.headHeight * scale)
        let neck = NumberPadStyle.neckHeight * scale
        let headX =
            switch kind {
            case .left: key.minX
            case .inner: (key.minX + key.maxX - headWidth) / 2
            case .right: key.maxX - headWidth
            }
        let top = key.minY - neck - headHeight
        // The layer spans head to key bottom; the path is in its coordinates.
        let left = min(headX, key.minX)
        let bounds = Rect(x: left, y: top, width: max(headX + headWidth, key.maxX) - left, height: key.maxY - top)
        let head = Rect(x: headX - left, y: 0, width: headWidth, height: headHeight)
        let stem = Rect(x: key.minX - left, y: headHeight + neck, width: key.width, height: key.height)
        var path = Path(roundedRect: head, cornerRadius: NumberPadStyle.headRadius * scale)
        path.addRoundedRect(
            Rect(x: stem.minX, y: stem.minY - 1, width: stem.width, height: stem.height + 1),
            cornerRadius: NumberPadStyle.keyRadius)
        // The neck overlaps head and key by a point so the union has no seam.
        path.addPolygon(
            neckSide(from: Point(head.maxX, head.maxY - 1), to: Point(stem.maxX, stem.minY + 1))
                + neckSide(from: Point(head.minX, head.maxY - 1), to: Point(stem.minX, stem.minY + 1)).reversed())
        var layer = Layer(name: "popup", frame: bounds)
        layer.shape = ShapeContent(path: path, color: NumberPadStyle.keyFace)
        layer.shadow = Shadow(
            color: NumberPadStyle.popupShadow, opacity: 1, offset: Size(0, 1), radius: scale, path: path)
        var label = Layer(name: "digit", frame: head)
        label.text = TextContent(
            string: "\(digit)", fontSize: NumberPadStyle.popupFontSize * scale, color: NumberPadStyle.text, bold: true,
            centred: true)
        layer.sublayers = [label]
        return layer
    }

    /// One side of the neck, top to bottom: a cubic easing out of the head's corner, vertical
    /// where it meets the key (the source builds it with CGPathAddCurveToPoint).
    private static func neckSide(from start: Point, to end: Point) -> [Point] {
        let steps = 12
        let middle = (start.y + end.y) / 2
        let (c1, c2) = (Point(start.x, middle), Point(end.x, middle))
        return (0...steps).map { k in
            let t = Double(k) / Double(steps)
            let u = 1 - t
            let (a, b, c, d) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
            return Point(
                a * start.x + b * c1.x + c * c2.x + d * end.x, a * start.y + b * c1.y + c * c2.y + d * end.y)
        }
    }
}
