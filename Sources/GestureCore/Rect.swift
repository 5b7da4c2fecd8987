/// An axis-aligned rectangle in scene points, origin top-left, y down.
public struct Rect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the point lies inside (edges included, so a full-screen rect holds every on-screen point).
    public func contains(x: Double, y: Double) -> Bool {
        x >= self.x && x <= self.x + self.width && y >= self.y && y <= self.y + self.height
    }
}
