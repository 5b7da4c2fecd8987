/// The touch frame's fast paths: one writer reservation per frame, and a decoder specialised to
/// the key order ``TouchFrame/encode(to:)`` writes. The generated codec
/// (``TouchFrame/encodeReference(to:)``, ``TouchFrame/init(from:path:)``) remains the reference
/// they are tested against, and the general decoder for any other layout.
extension TouchFrame {
    /// The most contacts a frame may carry (the schema's `maxItems`): far more fingers than any
    /// panel tracks, few enough that a declared count cannot make a decoder allocate much.
    public static let maxContacts = 256
    /// The largest contact id (the schema's `maximum`: exact in JSON).
    public static let maxContactID = 9_007_199_254_740_991

    /// A frame with every field empty, to decode over.
    public static var empty: TouchFrame { TouchFrame() }

    public func encode(to writer: inout MessagePackWriter) {
        var device = self.device
        device.withUTF8 { utf8 in
            let device = UnsafeRawBufferPointer(utf8)
            // One reservation for the whole frame: the bounds are the largest form of each value.
            let bound = Self.frameBound + device.count + TouchContact.bound * self.contacts.count
            writer.withReserved(bound) { cursor in
                cursor.writeMapHeader(4)
                cursor.writeKey("device")
                cursor.writeString(device)
                cursor.writeKey("frame")
                cursor.write(self.frame)
                cursor.writeKey("t_ns")
                cursor.write(self.tNs)
                cursor.writeKey("contacts")
                cursor.writeArrayHeader(self.contacts.count)
                for contact in self.contacts { contact.encode(to: &cursor) }
            }
        }
    }

    public init(from reader: inout MessagePackReader) throws {
        self = .empty
        try self.decode(from: &reader)
    }

    /// Decodes a payload into this frame, reusing its storage: a subscriber that decodes frame
    /// after frame into one value allocates nothing once the contact array is big enough.
    ///
    /// - Throws: ``CodecError`` for malformed bytes or a value the schema does not allow; the
    ///   frame's contents are unspecified then.
    public mutating func decode(from reader: inout MessagePackReader) throws {
        // Frames from ``encode(to:)`` take the specialised path; any other layout (key order,
        // unknown keys, other number forms) or any doubt takes the general one.
        if reader.scan({ self.decode(scanning: &$0) }) { return }
        self = try TouchFrame(from: &reader, path: "")
    }

    /// The most bytes a frame takes besides its device name and contacts: the map header, the
    /// four keys, `device`'s string header, `frame` and `t_ns` as uint64s and the array header.
    static let frameBound = 1 + 7 + 5 + 6 + 9 + 5 + 9 + 9 + 5

    /// Decodes a frame laid out exactly as ``encode(to:)`` writes it; false for anything else.
    mutating func decode(scanning scanner: inout MessagePackScanner) -> Bool {
        // A subscriber sees the same device frame after frame: it keeps the String it already has.
        guard scanner.mapHeader() == 4, scanner.literal("device"), let device = scanner.string(reusing: self.device),
            !device.isEmpty
        else { return false }
        self.device = device
        guard scanner.literal("frame"), let frame = scanner.unsigned(), (1...TouchInput.maximumSeq).contains(frame),
            scanner.literal("t_ns"),
            let tNs = scanner.nonNegative(), scanner.literal("contacts"), let count = scanner.arrayHeader()
        else { return false }
        self.frame = frame
        self.tNs = tNs
        if self.contacts.count > count {
            self.contacts.removeLast(self.contacts.count - count)
        } else {
            while self.contacts.count < count { self.contacts.append(TouchContact()) }
        }
        return self.contacts.withUnsafeMutableBufferPointer { contacts in
            for index in 0..<count where !contacts[index].decode(scanning: &scanner) { return false }
            return true
        }
    }
}

extension TouchContact {
    /// The most bytes one contact takes: the map header, every key, `id` as an int64, the
    /// longest phase (`stationary`), three float64s plus pressure and major, the longest tool.
    static let bound = 1 + 3 + 9 + 6 + 11 + 2 + 9 + 2 + 9 + 9 + 9 + 6 + 9 + 5 + 7

    func encode(to cursor: inout MessagePackCursor) {
        let optionals = (self.pressure == nil ? 0 : 1) + (self.major == nil ? 0 : 1) + (self.tool == nil ? 0 : 1)
        cursor.writeMapHeader(4 + optionals)
        cursor.writeKey("id")
        cursor.write(Int64(self.id))
        cursor.writeKey("phase")
        switch self.phase {
        case .began: cursor.writeKey("began")
        case .moved: cursor.writeKey("moved")
        case .stationary: cursor.writeKey("stationary")
        case .ended: cursor.writeKey("ended")
        case .cancelled: cursor.writeKey("cancelled")
        }
        cursor.writeKey("x")
        cursor.write(self.x)
        cursor.writeKey("y")
        cursor.write(self.y)
        if let pressure = self.pressure {
            cursor.writeKey("pressure")
            cursor.write(pressure)
        }
        if let major = self.major {
            cursor.writeKey("major")
            cursor.write(major)
        }
        if let tool = self.tool {
            cursor.writeKey("tool")
            switch tool {
            case .finger: cursor.writeKey("finger")
            case .pen: cursor.writeKey("pen")
            case .palm: cursor.writeKey("palm")
            }
        }
    }

    /// Decodes a contact laid out as ``encode(to:)`` writes it, into this one; false otherwise,
    /// and for any value outside its range (the general decoder then names it).
    mutating func decode(scanning scanner: inout MessagePackScanner) -> Bool {
        guard let fields = scanner.mapHeader(), fields >= 4, scanner.literal("id"), let id = scanner.nonNegative(),
            id <= TouchFrame.maxContactID, scanner.literal("phase"), let phase = scanner.phase(),
            scanner.literal("x"), let x = scanner.float64(), NumberRange.coordinate.contains(x),
            scanner.literal("y"), let y = scanner.float64(), NumberRange.coordinate.contains(y)
        else { return false }
        var remaining = fields - 4
        var pressure: Double?
        var major: Double?
        var tool: Tool?
        if remaining > 0, scanner.literal("pressure") {
            guard let value = scanner.float64(), NumberRange.unit.contains(value) else { return false }
            pressure = value
            remaining -= 1
        }
        if remaining > 0, scanner.literal("major") {
            guard let value = scanner.float64(), NumberRange.size.contains(value) else { return false }
            major = value
            remaining -= 1
        }
        if remaining > 0, scanner.literal("tool") {
            guard let value = scanner.tool() else { return false }
            tool = value
            remaining -= 1
        }
        guard remaining == 0 else { return false }
        self = TouchContact {
            $0.id = Int(id)
            $0.phase = phase
            $0.x = x
            $0.y = y
            $0.pressure = pressure
            $0.major = major
            $0.tool = tool
        }
        return true
    }
}

extension MessagePackScanner {
    fileprivate mutating func phase() -> TouchContact.Phase? {
        if self.literal("moved") { return .moved }
        if self.literal("stationary") { return .stationary }
        if self.literal("began") { return .began }
        if self.literal("ended") { return .ended }
        if self.literal("cancelled") { return .cancelled }
        return nil
    }

    fileprivate mutating func tool() -> TouchContact.Tool? {
        if self.literal("finger") { return .finger }
        if self.literal("pen") { return .pen }
        if self.literal("palm") { return .palm }
        return nil
    }
}
