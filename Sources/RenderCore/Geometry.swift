import Foundation

/// A point in points or pixels.
public struct Point: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
}

/// A size in points.
public struct Size: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public init(_ width: Double, _ height: Double) {
        self.width = width
        self.height = height
    }
}

/// A rectangle in points, origin at the top left, y pointing down (UIKit).
public struct Rect: Sendable, Hashable {
    public var origin: Point
    public var size: Size
    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x, y)
        size = Size(width, height)
    }
    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var width: Double { size.width }
    public var height: Double { size.height }
    /// The rectangle grown by `dx`, `dy` on each side (shrunk for negative values).
    public func insetBy(_ dx: Double, _ dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
    /// True when every coordinate is finite.
    var isFinite: Bool { [minX, minY, width, height].allSatisfy(\.isFinite) }
}

/// An affine map (x, y) ↦ (a·x + c·y + tx, b·x + d·y + ty), as CGAffineTransform.
public struct AffineTransform: Sendable, Hashable {
    public var a: Double
    public var b: Double
    public var c: Double
    public var d: Double
    public var tx: Double
    public var ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation.
    public static func translation(_ x: Double, _ y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// A rotation by `angle` radians; positive turns +x toward +y (clockwise on screen).
    public static func rotation(_ angle: Double) -> AffineTransform {
        let (s, co) = (sin(angle), cos(angle))
        return AffineTransform(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
    }

    /// The angle of a pure rotation (the identity's is 0), or nil for any other transform.
    public var rotationAngle: Double? {
        guard self.tx == 0, self.ty == 0, self.a == self.d, self.b == -self.c,
            abs(self.a * self.a + self.b * self.b - 1) < 1e-9
        else { return nil }
        return atan2(self.b, self.a)
    }

    /// A scale.
    public static func scale(_ sx: Double, _ sy: Double) -> AffineTransform {
        AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// Applies `self` first, then `other`.
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * other.a + b * other.c, b: a * other.b + b * other.d,
            c: c * other.a + d * other.c, d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
    }

    /// The inverse map, or nil when the transform is singular.
    public var inverted: AffineTransform? {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return nil }
        return AffineTransform(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// The image of a point.
    public func apply(_ p: Point) -> Point {
        Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
    }

    /// The geometric mean of the axis scale factors (how much lengths grow on average).
    var meanScale: Double { abs(a * d - b * c).squareRoot() }
}

/// A colour with straight alpha, channels in 0…1.
public struct Color: Sendable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from 0xRRGGBB and an alpha.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(
            red: Double(hex >> 16 & 0xFF) / 255, green: Double(hex >> 8 & 0xFF) / 255,
            blue: Double(hex & 0xFF) / 255, alpha: alpha)
    }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// Premultiplied channels in 0…255 as floats.
    var premultiplied: SIMD4<Float> {
        let a = Float(min(max(alpha, 0), 1))
        let rgb = SIMD4<Float>(Float(red), Float(green), Float(blue), 1)
            .clamped(lowerBound: .zero, upperBound: .one)
        return SIMD4(rgb.x * a, rgb.y * a, rgb.z * a, a) * 255
    }
}
