/// The grid `arrange` lays minimized memos out on, in board points.
public struct ArrangeLayout: Sendable, Hashable {
    public var originX = 16.0
    public var originY = 16.0
    /// Distance between the left edges of neighbouring cells.
    public var stepX = 216.0
    /// Distance between the top edges of neighbouring rows.
    public var stepY = 56.0
    /// The board width used when the `arrange` command carries none (`width`).
    public var boardWidth = 1080.0

    public init() {}

    /// The top-left corner of the cell at `index` (row-major) on a board `boardWidth` wide.
    public func position(of index: Int, boardWidth: Double) -> (x: Double, y: Double) {
        let columns = max(1, Int((boardWidth - self.originX) / self.stepX))
        return (
            self.originX + Double(index % columns) * self.stepX, self.originY + Double(index / columns) * self.stepY
        )
    }
}
