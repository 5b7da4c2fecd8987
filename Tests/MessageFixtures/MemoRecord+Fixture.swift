import BusSchema

extension MemoRecord {
    /// A live memo for tests: the fields tests vary are parameters, the rest are what a new memo
    /// has (scale 1, no rotation, not minimized, not trashed, created and updated at 0).
    ///
    /// ```swift
    /// let memo = MemoRecord.memo("m1", text: "milk", x: 40, y: 60) { $0.rotation = -0.25 }
    /// ```
    ///
    /// - Parameters:
    ///   - id: The memo id.
    ///   - text: The memo text.
    ///   - x: Left of the frame in board points.
    ///   - y: Top of the frame in board points.
    ///   - width: Unscaled width in points.
    ///   - height: Unscaled height in points.
    ///   - z: Stacking order.
    ///   - color: Palette colour.
    ///   - version: Per-memo version.
    ///   - more: Sets the fields the test needs beyond these.
    public static func memo(
        _ id: String, text: String = "", x: Double = 0, y: Double = 0, width: Double = 160, height: Double = 120,
        z: Int64 = 1, color: String = "yellow", version: Int64 = 1, _ more: (inout MemoRecord) -> Void = { _ in }
    ) -> MemoRecord {
        var memo = MemoRecord {
            $0.id = id
            $0.text = text
            $0.x = x
            $0.y = y
            $0.width = width
            $0.height = height
            $0.scale = 1
            $0.z = z
            $0.color = color
            $0.version = version
        }
        more(&memo)
        return memo
    }
}
