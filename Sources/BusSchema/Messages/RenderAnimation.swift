/// An animation that finished or was interrupted by a new target (schema `render.animation`
/// v1), on `render/animation/`: UIView's completion block, as a message.
public struct RenderAnimation: BusMessage, Hashable {
    public static let schema = SchemaID("render.animation", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("layer", "string"), FieldSpec("property", "string"), FieldSpec("finished", "boolean"),
        FieldSpec("t_ms", "number"), FieldSpec("animation_id", "integer", required: false),
        FieldSpec("duration_ms", "number", required: false),
    ]

    /// The animated property.
    public enum Property: String, Sendable, Hashable, CaseIterable {
        case position, size, opacity, rotation, scale
    }

    /// The animated layer: the view id, or view id/sublayer name.
    public var layer: String
    public var property: Property
    /// True when it ran to the end, false when a new target interrupted it.
    public var finished: Bool
    /// Completion time in ms on the render worker's clock.
    public var tMs: Double
    /// The animation id from the state change that started it.
    public var animationID: Int?
    /// The planned duration in ms.
    public var durationMs: Double?

    public init(
        layer: String, property: Property, finished: Bool, tMs: Double, animationID: Int? = nil,
        durationMs: Double? = nil
    ) {
        self.layer = layer
        self.property = property
        self.finished = finished
        self.tMs = tMs
        self.animationID = animationID
        self.durationMs = durationMs
    }

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(4 + (self.animationID == nil ? 0 : 1) + (self.durationMs == nil ? 0 : 1))
        writer.writeKey("layer")
        writer.write(self.layer)
        writer.write("property", self.property)
        writer.writeKey("finished")
        writer.write(self.finished)
        writer.writeKey("t_ms")
        writer.writeNumber(self.tMs)
        if let animationID = self.animationID {
            writer.writeKey("animation_id")
            writer.write(animationID)
        }
        if let durationMs = self.durationMs {
            writer.writeKey("duration_ms")
            writer.writeNumber(durationMs)
        }
    }

    public init(from reader: inout MessagePackReader) throws {
        var layer: String?
        var property: Property?
        var finished: Bool?
        var tMs: Double?
        var animationID: Int?
        var durationMs: Double?
        try reader.readMap { reader, key in
            switch key {
            case "layer": layer = try reader.readString()
            case "property": property = try reader.readEnum(Property.self, field: "property")
            case "finished": finished = try reader.readBool()
            case "t_ms": tMs = try reader.readDouble()
            case "animation_id": animationID = try reader.readInteger()
            case "duration_ms": durationMs = try reader.readDouble()
            default: try reader.skip()
            }
        }
        self.init(
            layer: try reader.require(layer, "layer"), property: try reader.require(property, "property"),
            finished: try reader.require(finished, "finished"), tMs: try reader.require(tMs, "t_ms"),
            animationID: animationID, durationMs: durationMs)
    }
}
