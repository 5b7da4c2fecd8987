/// A scene colour, written `#RRGGBB` or `#RRGGBBAA`.
public struct SceneColor: Sendable, Hashable, CustomStringConvertible {
    /// `0xRRGGBB`.
    public var rgb: UInt32
    /// Opacity 0…1 (the `AA` byte over 255; 1 without one).
    public var alpha: Double
    /// How the scene spelled it, kept so it reaches states as written.
    private var spelling: String?

    public init(rgb: UInt32, alpha: Double = 1) {
        self.rgb = rgb & 0xFF_FFFF
        self.alpha = alpha
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA`; nil for anything else.
    public init?(hex text: String) {
        let digits = text.utf8.dropFirst()
        guard text.hasPrefix("#"), digits.count == 6 || digits.count == 8,
            digits.allSatisfy({ (48...57).contains($0) || (65...70).contains($0) || (97...102).contains($0) }),
            let value = UInt32(String(text.dropFirst()), radix: 16)
        else { return nil }
        if digits.count == 6 {
            self.init(rgb: value)
        } else {
            self.init(rgb: value >> 8, alpha: Double(value & 0xFF) / 255)
        }
        self.spelling = text
    }

    public static let black = SceneColor(rgb: 0)
    public static let white = SceneColor(rgb: 0xFF_FFFF)

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque (as the scene spelled it, if it came from one).
    public var description: String {
        if let spelling { return spelling }
        let rgb = String(self.rgb, radix: 16, uppercase: true)
        let six = String(repeating: "0", count: 6 - rgb.count) + rgb
        guard self.alpha < 1 else { return "#" + six }
        let byte = String(UInt8((self.alpha * 255).rounded()), radix: 16, uppercase: true)
        return "#" + six + (byte.count == 1 ? "0" : "") + byte
    }
}

extension SceneColor {
    /// Equal when they are the same colour, however spelled.
    public static func == (lhs: SceneColor, rhs: SceneColor) -> Bool {
        lhs.rgb == rhs.rgb && lhs.alpha == rhs.alpha
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(self.rgb)
        hasher.combine(self.alpha)
    }
}
