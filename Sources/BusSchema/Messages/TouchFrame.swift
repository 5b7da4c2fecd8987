/// One contact in a touch frame.
public struct TouchContact: Sendable, Hashable {
    public enum Phase: String, Sendable, Hashable, CaseIterable {
        case began, moved, stationary, ended, cancelled
    }

    public enum Tool: String, Sendable, Hashable, CaseIterable {
        case finger, pen, palm
    }

    /// Stable for the life of the contact (the evdev tracking id or the script's id).
    public var id: Int
    public var phase: Phase
    /// Position in scene points.
    public var x: Double
    public var y: Double
    public var pressure: Double?
    /// Contact size (ABS_MT_TOUCH_MAJOR) in points.
    public var major: Double?
    public var tool: Tool?

    public init(
        id: Int, phase: Phase, x: Double, y: Double, pressure: Double? = nil, major: Double? = nil,
        tool: Tool? = nil
    ) {
        self.id = id
        self.phase = phase
        self.x = x
        self.y = y
        self.pressure = pressure
        self.major = major
        self.tool = tool
    }
}

/// Every contact of one device at one instant (schema `touch.frame` v1), on `touch/<device>/`.
public struct TouchFrame: ReusableBusMessage, Hashable {
    public static let schema = SchemaID("touch.frame", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("device", "string"), FieldSpec("frame", "integer"), FieldSpec("t_ns", "integer"),
        FieldSpec("contacts", "array"),
    ]

    public var device: String
    /// Per-device counter from 1.
    public var frame: UInt64
    /// Source timestamp in nanoseconds (device or recording time, not the bus clock).
    public var tNs: Int64
    public var contacts: [TouchContact]

    /// The most contacts a frame may carry (the schema's `maxItems`): far more fingers than any
    /// panel tracks, few enough that a declared count cannot make a decoder allocate much.
    public static let maxContacts = 256
    /// The largest contact id (the schema's `maximum`: exact in JSON).
    public static let maxContactID = 9_007_199_254_740_991

    public init(device: String, frame: UInt64, tNs: Int64, contacts: [TouchContact]) {
        self.device = device
        self.frame = frame
        self.tNs = tNs
        self.contacts = contacts
    }

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

    /// A frame with every field empty, to decode over.
    public static var empty: TouchFrame { TouchFrame(device: "", frame: 0, tNs: 0, contacts: []) }

    public init(from reader: inout MessagePackReader) throws {
        self = .empty
        try self.decode(from: &reader)
    }

    /// Decodes a payload into this frame, reusing its storage: a subscriber that decodes frame
    /// after frame into one value allocates nothing once the contact array is big enough.
    ///
    /// - Throws: ``CodecError`` for malformed bytes or a missing required field; the frame's
    ///   contents are unspecified then.
    public mutating func decode(from reader: inout MessagePackReader) throws {
        // Frames from ``encode(to:)`` take the specialised path; any other layout (key order,
        // unknown keys, other number forms) or any doubt takes the general one below, which
        // overwrites every field the fast path may have touched.
        if reader.scan({ self.decode(scanning: &$0) }) { return }
        var seen: UInt8 = 0
        try reader.readMap { reader, key in
            switch key {
            case "device":
                self.device = try reader.readString()
                seen |= 1
            case "frame":
                self.frame = try reader.readUInt()
                seen |= 2
            case "t_ns":
                // Never negative: differences of two times then cannot overflow.
                self.tNs = Int64(try reader.readInteger("t_ns", in: 0...Int.max))
                seen |= 4
            case "contacts":
                let start = reader.offset
                let count = try reader.readArrayHeader()
                guard count <= Self.maxContacts else {
                    throw CodecError(
                        .invalidValue, offset: start, context: "contacts: \(count) items, at most \(Self.maxContacts)")
                }
                self.contacts.removeAll(keepingCapacity: true)
                self.contacts.reserveCapacity(count)
                for _ in 0..<count { self.contacts.append(try TouchContact(from: &reader)) }
                seen |= 8
            default: try reader.skip()
            }
        }
        if seen != 15 {
            let missing = [(1, "device"), (2, "frame"), (4, "t_ns"), (8, "contacts")].first { seen & $0.0 == 0 }!
            throw CodecError(.missingField, offset: reader.offset, context: missing.1)
        }
    }
}

extension TouchContact {
    init(from reader: inout MessagePackReader) throws {
        var id: Int?
        var phase: Phase?
        var x: Double?
        var y: Double?
        var pressure: Double?
        var major: Double?
        var tool: Tool?
        try reader.readMap { reader, key in
            switch key {
            case "id": id = try reader.readInteger("contacts.id", in: 0...TouchFrame.maxContactID)
            case "phase": phase = try reader.readPhase()
            case "x": x = try reader.readNumber("contacts.x", in: .coordinate)
            case "y": y = try reader.readNumber("contacts.y", in: .coordinate)
            case "pressure": pressure = try reader.readNumber("contacts.pressure", in: .unit)
            case "major": major = try reader.readNumber("contacts.major", in: .size)
            case "tool": tool = try reader.readEnum(Tool.self, field: "contacts.tool")
            default: try reader.skip()
            }
        }
        self.init(
            id: try reader.require(id, "contacts.id"), phase: try reader.require(phase, "contacts.phase"),
            x: try reader.require(x, "contacts.x"), y: try reader.require(y, "contacts.y"),
            pressure: pressure, major: major, tool: tool)
    }
}

extension MessagePackReader {
    /// Reads a contact phase by matching its bytes: a String switch per contact was a visible
    /// share of decoding a touch frame.
    fileprivate mutating func readPhase() throws -> TouchContact.Phase {
        let start = self.offset
        let key = MessagePackKey(bytes: try self.readStringBytes(), offset: start)
        switch key {
        case "moved": return .moved
        case "stationary": return .stationary
        case "began": return .began
        case "ended": return .ended
        case "cancelled": return .cancelled
        default: throw CodecError(.invalidValue, offset: start, context: "contacts.phase: '\(key)'")
        }
    }
}
