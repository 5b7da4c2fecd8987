import BusSchema

extension GestureEvent {
    /// A gesture event for tests: what recognized it, where and when, and in `more` the fields of
    /// its kind (translation, name, direction…) the test needs.
    ///
    /// ```swift
    /// let tap = GestureEvent.gesture(.tap, .recognized, view: "memos", x: 10, y: 10, tMs: 5) { $0.name = "memoTap" }
    /// ```
    ///
    /// - Parameters:
    ///   - recognizer: The recognizer kind.
    ///   - state: The recognizer's state.
    ///   - view: The view it was recognized in.
    ///   - x: x in scene points.
    ///   - y: y in scene points.
    ///   - tMs: Source time in milliseconds.
    ///   - touches: How many touches.
    ///   - device: The device id.
    ///   - more: Sets the other fields.
    public static func gesture(
        _ recognizer: Kind, _ state: State, view: String, x: Double, y: Double, tMs: Double, touches: Int = 1,
        device: String = "d0", _ more: (inout GestureEvent) -> Void = { _ in }
    ) -> GestureEvent {
        var event = GestureEvent {
            $0.tMs = tMs
            $0.device = device
            $0.view = view
            $0.recognizer = recognizer
            $0.state = state
            $0.x = x
            $0.y = y
            $0.touches = touches
        }
        more(&event)
        return event
    }
}
