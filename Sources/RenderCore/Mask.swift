/// Coverage (0…255) over a pixel rectangle of a canvas; outside `rect` coverage is 0.
public struct Mask: Sendable, Equatable {
    /// Where the mask lies on the canvas.
    public var rect: PixelRect
    /// `rect.width * rect.height` coverage bytes, row by row.
    public var bytes: [UInt8]

    /// An empty mask.
    public static let empty = Mask(rect: PixelRect(x: 0, y: 0, width: 0, height: 0), bytes: [])

    /// Coverage at canvas pixel (x, y).
    public func coverage(_ x: Int, _ y: Int) -> UInt8 {
        let (u, v) = (x - rect.x, y - rect.y)
        guard u >= 0, v >= 0, u < rect.width, v < rect.height else { return 0 }
        return bytes[v * rect.width + u]
    }

    /// The same coverage moved by whole pixels.
    func offsetBy(_ dx: Int, _ dy: Int) -> Mask {
        Mask(rect: PixelRect(x: rect.x + dx, y: rect.y + dy, width: rect.width, height: rect.height), bytes: bytes)
    }

    /// Whether coverage is 255 on every pixel of `area` (a clip that cuts nothing there).
    func isOpaque(over area: PixelRect) -> Bool {
        guard area.x >= rect.x, area.y >= rect.y, area.x + area.width <= rect.x + rect.width,
            area.y + area.height <= rect.y + rect.height
        else { return false }
        return bytes.withUnsafeBufferPointer { coverage in
            (area.y..<(area.y + area.height)).allSatisfy { y in
                let row = coverage.baseAddress! + (y - rect.y) * rect.width + area.x - rect.x
                return (0..<area.width).allSatisfy { row[$0] == 255 }
            }
        }
    }

    /// The product of two masks (the intersection of two clips).
    public func intersected(with other: Mask) -> Mask {
        let x0 = max(rect.x, other.rect.x)
        let y0 = max(rect.y, other.rect.y)
        let x1 = min(rect.x + rect.width, other.rect.x + other.rect.width)
        let y1 = min(rect.y + rect.height, other.rect.y + other.rect.height)
        guard x1 > x0, y1 > y0 else { return .empty }
        var out = Mask(
            rect: PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0),
            bytes: [UInt8](repeating: 0, count: (x1 - x0) * (y1 - y0)))
        for y in y0..<y1 {
            for x in x0..<x1 {
                out.bytes[(y - y0) * (x1 - x0) + (x - x0)] = UInt8(
                    (UInt32(coverage(x, y)) * UInt32(other.coverage(x, y)) + 127) / 255)
            }
        }
        return out
    }
}
