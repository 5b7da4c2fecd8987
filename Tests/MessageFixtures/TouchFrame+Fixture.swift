import BusSchema

extension TouchFrame {
    /// A touch frame for tests, every field given.
    ///
    /// ```swift
    /// let frame = TouchFrame.frame("d0", 7, tNs: 1, contacts: [.contact(1, .began, x: 2, y: 3)])
    /// ```
    ///
    /// - Parameters:
    ///   - device: The device id.
    ///   - frame: The frame number (from 1).
    ///   - tNs: Source time in nanoseconds.
    ///   - contacts: The contacts in the frame.
    public static func frame(_ device: String, _ frame: UInt64, tNs: Int64, contacts: [TouchContact]) -> TouchFrame {
        TouchFrame {
            $0.device = device
            $0.frame = frame
            $0.tNs = tNs
            $0.contacts = contacts
        }
    }
}

extension TouchContact {
    /// A contact for tests: id, phase and position, and in `more` the optional fields (pressure,
    /// major, tool) the test needs.
    ///
    /// ```swift
    /// let pen = TouchContact.contact(1, .moved, x: 200, y: 300) { $0.tool = .pen }
    /// ```
    ///
    /// - Parameters:
    ///   - id: The contact id.
    ///   - phase: The contact's phase in this frame.
    ///   - x: x in scene points.
    ///   - y: y in scene points.
    ///   - more: Sets the optional fields.
    public static func contact(
        _ id: Int, _ phase: Phase, x: Double, y: Double, _ more: (inout TouchContact) -> Void = { _ in }
    ) -> TouchContact {
        var contact = TouchContact {
            $0.id = id
            $0.phase = phase
            $0.x = x
            $0.y = y
        }
        more(&contact)
        return contact
    }
}
