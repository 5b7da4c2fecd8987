import BusSchema

/// A rectangle of whole pixels: the type `render.image` sends its damage in, so the renderer's
/// rectangles go on the wire as they are.
public typealias PixelRect = RenderImage.Rect

extension PixelRect {
    /// Whether every pixel of `other` is in this rectangle.
    public func covers(_ other: PixelRect) -> Bool {
        x <= other.x && y <= other.y && x + width >= other.x + other.width && y + height >= other.y + other.height
    }

    /// The pixels in both rectangles, or nil when none.
    func intersection(_ other: PixelRect) -> PixelRect? {
        let x0 = max(x, other.x)
        let y0 = max(y, other.y)
        let x1 = min(x + width, other.x + other.width)
        let y1 = min(y + height, other.y + other.height)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The part of this rectangle inside `width`×`height`, or nil when nothing is left.
    public func clipped(width: Int, height: Int) -> PixelRect? {
        self.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
    }
}

extension PixelRect {
    /// The whole pixels the box `minX…maxX` × `minY…maxY` (canvas pixels) touches on a
    /// `width`×`height` canvas, nil when it touches none. The box is clamped to the canvas
    /// before converting, so far-away coordinates do not overflow Int.
    init?(covering minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double, width: Int, height: Int) {
        let x0 = Int(min(max(minX, 0), Double(width)).rounded(.down))
        let y0 = Int(min(max(minY, 0), Double(height)).rounded(.down))
        let x1 = Int(min(max(maxX, 0), Double(width)).rounded(.up))
        let y1 = Int(min(max(maxY, 0), Double(height)).rounded(.up))
        guard x1 > x0, y1 > y0 else { return nil }
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
