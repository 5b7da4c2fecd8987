import BusSchema

/// An axis-aligned rectangle in scene points, origin top-left, y down: the scene's frame type.
public typealias Rect = Scene.Frame

extension Scene.Frame {
    /// Whether the point lies inside (edges included, so a full-screen rect holds every on-screen point).
    public func contains(x: Double, y: Double) -> Bool {
        x >= self.x && x <= self.x + self.width && y >= self.y && y <= self.y + self.height
    }
}
