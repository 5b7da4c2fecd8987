import Foundation

/// A path made of closed polygons (curves are flattened when added), filled with the
/// non-zero winding rule: a subpath running the other way cuts a hole.
public struct Path: Sendable, Hashable {
    /// The closed polygons, in order.
    public private(set) var subpaths: [[Point]] = []

    public init() {}

    /// A rectangle, clockwise on screen (y down).
    public init(rect: Rect) {
        addRect(rect)
    }

    /// A rounded rectangle, clockwise on screen.
    public init(roundedRect rect: Rect, cornerRadius: Double) {
        addRoundedRect(rect, cornerRadius: cornerRadius)
    }

    /// Adds a closed polygon.
    public mutating func addPolygon(_ points: [Point]) {
        if points.count >= 3 { subpaths.append(points) }
    }

    /// Adds a rectangle; `reversed` runs it counter-clockwise (a hole inside a clockwise shape).
    public mutating func addRect(_ rect: Rect, reversed: Bool = false) {
        addRoundedRect(rect, cornerRadius: 0, reversed: reversed)
    }

    /// Adds a rounded rectangle with circular corners of `cornerRadius` (clamped to half a side).
    public mutating func addRoundedRect(_ rect: Rect, cornerRadius: Double, reversed: Bool = false) {
        let r = max(0, min(cornerRadius, rect.width / 2, rect.height / 2))
        var points: [Point] = []
        if r == 0 {
            points = [
                Point(rect.minX, rect.minY), Point(rect.maxX, rect.minY), Point(rect.maxX, rect.maxY),
                Point(rect.minX, rect.maxY),
            ]
        } else {
            let steps = max(4, Int(min(r * 0.75, 256).rounded(.up)))
            let corners = [
                (Point(rect.maxX - r, rect.minY + r), -Double.pi / 2), (Point(rect.maxX - r, rect.maxY - r), 0.0),
                (Point(rect.minX + r, rect.maxY - r), Double.pi / 2), (Point(rect.minX + r, rect.minY + r), Double.pi),
            ]
            for (centre, start) in corners {
                for k in 0...steps {
                    let angle = start + Double.pi / 2 * Double(k) / Double(steps)
                    points.append(Point(centre.x + r * cos(angle), centre.y + r * sin(angle)))
                }
            }
        }
        addPolygon(reversed ? points.reversed() : points)
    }

    /// Adds an ellipse inscribed in `rect`.
    public mutating func addEllipse(in rect: Rect) {
        let steps = max(16, Int(min(max(rect.width, rect.height) * 1.5, 1024).rounded(.up)))
        let (cx, cy) = (rect.minX + rect.width / 2, rect.minY + rect.height / 2)
        addPolygon(
            (0..<steps).map { k in
                let angle = 2 * Double.pi * Double(k) / Double(steps)
                return Point(cx + rect.width / 2 * cos(angle), cy + rect.height / 2 * sin(angle))
            })
    }

    /// The path mapped through `transform`.
    public func applying(_ transform: AffineTransform) -> Path {
        var path = Path()
        path.subpaths = subpaths.map { $0.map(transform.apply) }
        return path
    }

    /// True when every coordinate is finite (NaN or infinite points are rejected, not drawn).
    var isFinite: Bool { subpaths.allSatisfy { $0.allSatisfy { $0.x.isFinite && $0.y.isFinite } } }
}
