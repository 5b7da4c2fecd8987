/// A gesture recognizer's state change (schema `gesture.event` v1), on
/// `gesture/<device>/<view>/<recognizer>/`; also what `gesture-recognizer replay` prints.
public struct GestureEvent: ReusableBusMessage, Hashable {
    public static let schema = SchemaID("gesture.event", major: 1, minor: 1)
    public static let fields: [FieldSpec] = [
        FieldSpec("t_ms", "number"), FieldSpec("device", "string"), FieldSpec("view", "string"),
        FieldSpec("recognizer", "string"), FieldSpec("state", "string"), FieldSpec("x", "number"),
        FieldSpec("y", "number"), FieldSpec("touches", "integer"),
        FieldSpec("direction", "string", required: false), FieldSpec("translation", "object", required: false),
        FieldSpec("velocity", "object", required: false), FieldSpec("scale", "number", required: false),
        FieldSpec("rotation", "number", required: false), FieldSpec("edge", "string", required: false),
        FieldSpec("name", "string", required: false), FieldSpec("scale_velocity", "number", required: false),
        FieldSpec("rotation_velocity", "number", required: false), FieldSpec("input", "object", required: false),
    ]

    /// The recognizer kinds (DESIGN.md spelling).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case tap, doubleTap, longPress, pan, swipe, pinch, rotation, edgePan, touchDown
    }

    /// The UIKit state a recognizer reached.
    public enum State: String, Sendable, Hashable, CaseIterable {
        case began, changed, ended, cancelled, failed, recognized
    }

    public enum Direction: String, Sendable, Hashable, CaseIterable {
        case left, right, up, down
    }

    public enum Edge: String, Sendable, Hashable, CaseIterable {
        case left, right, top, bottom
    }

    /// A 2-D vector in points (translation) or points per second (velocity).
    public struct Vector: Sendable, Hashable {
        public var x: Double
        public var y: Double

        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// Time of the touch frame (or timer) that caused the event, in ms on the touch source's clock.
    public var tMs: Double
    public var device: String
    public var view: String
    public var recognizer: Kind
    public var state: State
    /// Gesture location (centroid of the touches) in scene points.
    public var x: Double
    public var y: Double
    public var touches: Int
    public var direction: Direction?
    public var translation: Vector?
    /// Points per second.
    public var velocity: Vector?
    public var scale: Double?
    /// Radians since the start; positive turns +x toward +y.
    public var rotation: Double?
    public var edge: Edge?
    /// The recognizer's instance name in the scene.
    public var name: String?
    public var scaleVelocity: Double?
    public var rotationVelocity: Double?
    /// The touch frame that caused the event (the newest of its device, for a timer's event).
    public var input: TouchInput?

    public init(
        tMs: Double, device: String, view: String, recognizer: Kind, state: State, x: Double, y: Double,
        touches: Int, direction: Direction? = nil, translation: Vector? = nil, velocity: Vector? = nil,
        scale: Double? = nil, rotation: Double? = nil, edge: Edge? = nil, name: String? = nil,
        scaleVelocity: Double? = nil, rotationVelocity: Double? = nil, input: TouchInput? = nil
    ) {
        self.tMs = tMs
        self.device = device
        self.view = view
        self.recognizer = recognizer
        self.state = state
        self.x = x
        self.y = y
        self.touches = touches
        self.direction = direction
        self.translation = translation
        self.velocity = velocity
        self.scale = scale
        self.rotation = rotation
        self.edge = edge
        self.name = name
        self.scaleVelocity = scaleVelocity
        self.rotationVelocity = rotationVelocity
        self.input = input
    }

    public func encode(to writer: inout MessagePackWriter) {
        var optionals = 0
        if self.direction != nil { optionals += 1 }
        if self.translation != nil { optionals += 1 }
        if self.velocity != nil { optionals += 1 }
        if self.scale != nil { optionals += 1 }
        if self.rotation != nil { optionals += 1 }
        if self.edge != nil { optionals += 1 }
        if self.name != nil { optionals += 1 }
        if self.scaleVelocity != nil { optionals += 1 }
        if self.rotationVelocity != nil { optionals += 1 }
        if self.input != nil { optionals += 1 }
        writer.writeMapHeader(8 + optionals)
        writer.writeKey("t_ms")
        writer.writeNumber(self.tMs)
        writer.writeKey("device")
        writer.write(self.device)
        writer.writeKey("view")
        writer.write(self.view)
        writer.write("recognizer", self.recognizer)
        writer.write("state", self.state)
        writer.writeKey("x")
        writer.writeNumber(self.x)
        writer.writeKey("y")
        writer.writeNumber(self.y)
        writer.writeKey("touches")
        writer.write(self.touches)
        if let direction = self.direction { writer.write("direction", direction) }
        if let translation = self.translation { Self.write("translation", translation, to: &writer) }
        if let velocity = self.velocity { Self.write("velocity", velocity, to: &writer) }
        if let scale = self.scale {
            writer.writeKey("scale")
            writer.writeNumber(scale)
        }
        if let rotation = self.rotation {
            writer.writeKey("rotation")
            writer.writeNumber(rotation)
        }
        if let edge = self.edge { writer.write("edge", edge) }
        if let name = self.name {
            writer.writeKey("name")
            writer.write(name)
        }
        if let scaleVelocity = self.scaleVelocity {
            writer.writeKey("scale_velocity")
            writer.writeNumber(scaleVelocity)
        }
        if let rotationVelocity = self.rotationVelocity {
            writer.writeKey("rotation_velocity")
            writer.writeNumber(rotationVelocity)
        }
        if let input = self.input { writer.writeField("input", input) }
    }

    private static func write(_ key: String, _ vector: Vector, to writer: inout MessagePackWriter) {
        writer.write(key)
        writer.writeMapHeader(2)
        writer.writeKey("x")
        writer.writeNumber(vector.x)
        writer.writeKey("y")
        writer.writeNumber(vector.y)
    }

    /// The range of each number (the schema's `minimum`/`maximum`): the decoders refuse a value
    /// outside it, and ``clampNumbers()`` keeps a recognizer's output within it.
    public enum Limits {
        public static let tMs = NumberRange.timeMs
        public static let location = NumberRange.coordinate
        /// Translations and velocities, per component.
        public static let motion = NumberRange.motion
        public static let scale = NumberRange.scale
        public static let rotation = NumberRange.angle
        /// `scale_velocity` and `rotation_velocity`.
        public static let rate = NumberRange.motion
        public static let touches = 0...TouchFrame.maxContacts
    }

    /// Moves every number into its range (NaN to the value nearest 0), so what a recognizer
    /// publishes always decodes: its velocity over a nanosecond or its scale from a zero span
    /// would otherwise be refused by every subscriber.
    public mutating func clampNumbers() {
        self.tMs = Limits.tMs.clamp(self.tMs)
        self.x = Limits.location.clamp(self.x)
        self.y = Limits.location.clamp(self.y)
        self.touches = min(max(self.touches, Limits.touches.lowerBound), Limits.touches.upperBound)
        let motion = { (vector: Vector) in Vector(x: Limits.motion.clamp(vector.x), y: Limits.motion.clamp(vector.y)) }
        self.translation = self.translation.map(motion)
        self.velocity = self.velocity.map(motion)
        self.scale = self.scale.map(Limits.scale.clamp)
        self.rotation = self.rotation.map(Limits.rotation.clamp)
        self.scaleVelocity = self.scaleVelocity.map(Limits.rate.clamp)
        self.rotationVelocity = self.rotationVelocity.map(Limits.rate.clamp)
    }

    /// An event with every field empty, to decode over.
    public static var empty: GestureEvent {
        GestureEvent(tMs: 0, device: "", view: "", recognizer: .tap, state: .failed, x: 0, y: 0, touches: 0)
    }

    public init(from reader: inout MessagePackReader) throws {
        self = .empty
        try self.decode(from: &reader)
    }

    /// Decodes an event into this one, keeping its device, view and name strings where the new
    /// event has the same.
    ///
    /// - Throws: ``CodecError`` for malformed bytes or a missing required field.
    public mutating func decode(from reader: inout MessagePackReader) throws {
        // Events from ``encode(to:)`` take the specialised path (GestureEvent+FastPath.swift); any
        // other layout (key order, unknown keys, float32s, long strings) takes the general one,
        // which overwrites every field the fast path may have touched.
        if reader.scan({ self.decode(scanning: &$0) }) { return }
        var tMs: Double?
        var device: String?
        var view: String?
        var recognizer: Kind?
        var state: State?
        var x: Double?
        var y: Double?
        var touches: Int?
        var event = GestureEvent.empty
        try reader.readMap { reader, key in
            switch key {
            case "t_ms": tMs = try reader.readNumber("t_ms", in: Limits.tMs)
            case "device": device = try reader.readString()
            case "view": view = try reader.readString()
            case "recognizer": recognizer = try reader.readEnum(Kind.self, field: "recognizer")
            case "state": state = try reader.readEnum(State.self, field: "state")
            case "x": x = try reader.readNumber("x", in: Limits.location)
            case "y": y = try reader.readNumber("y", in: Limits.location)
            case "touches": touches = try reader.readInteger("touches", in: Limits.touches)
            case "direction": event.direction = try reader.readEnum(Direction.self, field: "direction")
            case "translation": event.translation = try Self.readVector(&reader, field: "translation")
            case "velocity": event.velocity = try Self.readVector(&reader, field: "velocity")
            case "scale": event.scale = try reader.readNumber("scale", in: Limits.scale)
            case "rotation": event.rotation = try reader.readNumber("rotation", in: Limits.rotation)
            case "edge": event.edge = try reader.readEnum(Edge.self, field: "edge")
            case "name": event.name = try reader.readString()
            case "scale_velocity": event.scaleVelocity = try reader.readNumber("scale_velocity", in: Limits.rate)
            case "rotation_velocity":
                event.rotationVelocity = try reader.readNumber("rotation_velocity", in: Limits.rate)
            case "input": event.input = try TouchInput(from: &reader, path: "input")
            default: try reader.skip()
            }
        }
        event.tMs = try reader.require(tMs, "t_ms")
        event.device = try reader.require(device, "device")
        event.view = try reader.require(view, "view")
        event.recognizer = try reader.require(recognizer, "recognizer")
        event.state = try reader.require(state, "state")
        event.x = try reader.require(x, "x")
        event.y = try reader.require(y, "y")
        event.touches = try reader.require(touches, "touches")
        self = event
    }

    /// Reads only `t_ms` of an encoded event (the source time of the frame that caused it): what
    /// a latency probe needs, at a fraction of a full decode.
    ///
    /// Where ``encode(to:)`` puts it, first in the map, it is read without reading on (a probe
    /// does not check the rest; a consumer that decodes events does). Any other layout is read
    /// through, every other field skipped.
    /// - Returns: nil if the map has no `t_ms`.
    /// - Throws: ``CodecError`` if `payload`, read through, is not one MessagePack map, or `t_ms` is
    ///   not a number.
    public static func tMs(inMessagePack payload: [UInt8]) throws -> Double? {
        try payload.withUnsafeBytes { raw in
            var reader = MessagePackReader(raw)
            var first: Double?
            if reader.scan({ scanner in
                guard scanner.mapHeader() != nil, scanner.literal("t_ms"), let tMs = scanner.number() else {
                    return false
                }
                first = tMs
                return true
            }) {
                return first
            }
            var tMs: Double?
            try reader.readMap { reader, key in
                switch key {
                case "t_ms": tMs = try reader.readDouble()
                default: try reader.skip()
                }
            }
            try reader.expectEnd()
            return tMs
        }
    }

    private static func readVector(_ reader: inout MessagePackReader, field: String) throws -> Vector {
        var x: Double?
        var y: Double?
        try reader.readMap { reader, key in
            switch key {
            case "x": x = try reader.readNumber("\(field).x", in: Limits.motion)
            case "y": y = try reader.readNumber("\(field).y", in: Limits.motion)
            default: try reader.skip()
            }
        }
        return Vector(x: try reader.require(x, "\(field).x"), y: try reader.require(y, "\(field).y"))
    }
}
