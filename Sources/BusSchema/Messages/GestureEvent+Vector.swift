extension GestureEvent.Vector {
    /// The vector (`x`, `y`): geometry builds these inline, in expressions, where a builder
    /// closure (``Buildable/init(_:)``) would take four lines for two numbers.
    @inlinable
    public init(x: Double, y: Double) {
        self.init(pair: (x, y))
    }
}
