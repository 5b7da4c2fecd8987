/// The gesture event's decoder specialised to the key order ``GestureEvent/encode(to:)`` writes;
/// the generated general decoder, ``GestureEvent/init(from:path:)``, remains the reference.
extension GestureEvent {
    /// An event with every field empty, to decode over.
    public static var empty: GestureEvent {
        GestureEvent { $0.state = .failed }
    }

    public init(from reader: inout MessagePackReader) throws {
        self = .empty
        try self.decode(from: &reader)
    }

    /// Decodes an event into this one, keeping its device, view and name strings where the new
    /// event has the same.
    ///
    /// - Throws: ``CodecError`` for malformed bytes or a value the schema does not allow.
    public mutating func decode(from reader: inout MessagePackReader) throws {
        // Events from ``encode(to:)`` take the specialised path; any other layout (key order,
        // unknown keys, float32s, long strings) takes the general one, which overwrites every field.
        if reader.scan({ self.decode(scanning: &$0) }) { return }
        self = try GestureEvent(from: &reader, path: "")
    }

    /// Decodes an event laid out exactly as ``encode(to:)`` writes it; false for anything else,
    /// and for any number outside its range (the general decoder then names the field).
    /// Strings equal to this event's are kept, not made again (see ``decode(messagePack:)``).
    mutating func decode(scanning scanner: inout MessagePackScanner) -> Bool {
        let previousName = self.name ?? ""
        guard let fields = scanner.mapHeader(), fields >= 8, scanner.literal("t_ms"),
            let tMs = scanner.number(in: Limits.tMs), scanner.literal("device"),
            let device = scanner.string(reusing: self.device), !device.isEmpty, scanner.literal("view"),
            let view = scanner.string(reusing: self.view), !view.isEmpty, scanner.literal("recognizer"),
            let recognizer = scanner.kind(),
            scanner.literal("state"), let state = scanner.state(), scanner.literal("x"),
            let x = scanner.number(in: Limits.location), scanner.literal("y"),
            let y = scanner.number(in: Limits.location), scanner.literal("touches"), let touches = scanner.signed(),
            touches >= Limits.touches.lowerBound, touches <= Limits.touches.upperBound
        else { return false }
        self = GestureEvent {
            $0.tMs = tMs
            $0.device = device
            $0.view = view
            $0.recognizer = recognizer
            $0.state = state
            $0.x = x
            $0.y = y
            $0.touches = Int(touches)
        }
        // The optional fields, each where the encoder puts it if present.
        var left = fields - 8
        guard scanner.optional("direction", into: &self.direction, left: &left, { $0.direction() }),
            scanner.optional("translation", into: &self.translation, left: &left, { $0.vector() }),
            scanner.optional("velocity", into: &self.velocity, left: &left, { $0.vector() }),
            scanner.optional("scale", into: &self.scale, left: &left, { $0.number(in: Limits.scale) }),
            scanner.optional("rotation", into: &self.rotation, left: &left, { $0.number(in: Limits.rotation) }),
            scanner.optional("edge", into: &self.edge, left: &left, { $0.edge() }),
            scanner.optional(
                "name", into: &self.name, left: &left, { $0.string(reusing: previousName) }),
            scanner.optional("scale_velocity", into: &self.scaleVelocity, left: &left, { $0.number(in: Limits.rate) }),
            scanner.optional(
                "rotation_velocity", into: &self.rotationVelocity, left: &left, { $0.number(in: Limits.rate) }),
            scanner.optional("input", into: &self.input, left: &left, { $0.input(reusing: device) })
        else { return false }
        return left == 0
    }
}

extension MessagePackScanner {
    /// Reads optional field `key` into `field` if it comes next and `left` fields remain; false
    /// only if the key is there and its value is not what `read` expects.
    @inline(__always)
    fileprivate mutating func optional<T>(
        _ key: StaticString, into field: inout T?, left: inout Int, _ read: (inout MessagePackScanner) -> T?
    ) -> Bool {
        guard left > 0, self.literal(key) else { return true }
        guard let value = read(&self) else { return false }
        field = value
        left -= 1
        return true
    }

    /// An input as the encoder writes it, within the schema's bounds; anything else (a bad
    /// value included) is left to the general decoder, which names the error.
    fileprivate mutating func input(reusing device: String) -> TouchInput? {
        guard self.mapHeader() == 3, self.literal("device"), let device = self.string(reusing: device),
            self.literal("seq"), let seq = self.signed(), self.literal("source_time_ns"), let time = self.signed()
        else { return nil }
        return TouchInput.valid(device: device, seq: seq, sourceTimeNs: time)
    }

    fileprivate mutating func vector() -> GestureEvent.Vector? {
        let motion = GestureEvent.Limits.motion
        guard self.mapHeader() == 2, self.literal("x"), let x = self.number(in: motion), self.literal("y"),
            let y = self.number(in: motion)
        else { return nil }
        return GestureEvent.Vector(x: x, y: y)
    }

    /// A number within `range`; nil for anything else.
    @inline(__always)
    fileprivate mutating func number(in range: NumberRange) -> Double? {
        guard let value = self.number(), range.contains(value) else { return nil }
        return value
    }

    // Each enum's wire names; anything else is left to the general decoder, which names the error.

    fileprivate mutating func kind() -> GestureEvent.Kind? {
        switch self.word() {
        case "pan"?: .pan
        case "touchDown"?: .touchDown
        case "pinch"?: .pinch
        case "rotation"?: .rotation
        case "swipe"?: .swipe
        case "tap"?: .tap
        case "doubleTap"?: .doubleTap
        case "longPress"?: .longPress
        case "edgePan"?: .edgePan
        default: nil
        }
    }

    fileprivate mutating func state() -> GestureEvent.State? {
        switch self.word() {
        case "changed"?: .changed
        case "began"?: .began
        case "ended"?: .ended
        case "recognized"?: .recognized
        case "failed"?: .failed
        case "cancelled"?: .cancelled
        default: nil
        }
    }

    fileprivate mutating func direction() -> GestureEvent.Direction? {
        switch self.word() {
        case "left"?: .left
        case "right"?: .right
        case "up"?: .up
        case "down"?: .down
        default: nil
        }
    }

    fileprivate mutating func edge() -> GestureEvent.Edge? {
        switch self.word() {
        case "left"?: .left
        case "right"?: .right
        case "top"?: .top
        case "bottom"?: .bottom
        default: nil
        }
    }
}
