extension Scene.Frame {
    /// The rectangle at (`x`, `y`) of `width` × `height` points: geometry builds frames inline, in
    /// expressions, where a builder closure (``Buildable/init(_:)``) would take six lines.
    @inlinable
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init()
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }
}
