import BusSchema

extension TouchScriptLine {
    /// A line of a hand-written touch script, every field given (the device is `d0` unless said).
    ///
    /// ```swift
    /// let lines = [TouchScriptLine.line(0, 0, .began, 100, 100), .line(80, 0, .ended, 100, 100)]
    /// ```
    ///
    /// - Parameters:
    ///   - tMs: Script time in milliseconds.
    ///   - id: The contact id.
    ///   - phase: The contact's phase.
    ///   - x: x in scene points.
    ///   - y: y in scene points.
    ///   - device: The device id.
    public static func line(
        _ tMs: Double, _ id: Int, _ phase: Phase, _ x: Double, _ y: Double, device: String = "d0"
    ) -> TouchScriptLine {
        TouchScriptLine {
            $0.tMs = tMs
            $0.device = device
            $0.id = id
            $0.phase = phase
            $0.x = x
            $0.y = y
        }
    }

    /// The lines of one contact's stroke: it begins at the first point, moves through the ones
    /// between and ends at the last.
    ///
    /// ```swift
    /// let drag = TouchScriptLine.stroke((0, 100, 100), (20, 109, 100), (40, 109, 100))
    /// ```
    ///
    /// - Parameters:
    ///   - points: Script time in milliseconds and position in scene points, two or more.
    ///   - id: The contact id.
    public static func stroke(_ points: (tMs: Double, x: Double, y: Double)..., id: Int = 0) -> [TouchScriptLine] {
        precondition(points.count >= 2, "a stroke begins and ends")
        return points.enumerated().map { index, point in
            let phase: Phase = index == 0 ? .began : index == points.count - 1 ? .ended : .moved
            return .line(point.tMs, id, phase, point.x, point.y)
        }
    }
}
