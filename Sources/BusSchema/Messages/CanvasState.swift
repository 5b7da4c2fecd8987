/// A drawing canvas's full state (schema `state.canvas` v1), on `ui/canvas/<instance>/`.
public struct CanvasState: ValueMessage, Hashable {
    public static let schema = SchemaID("state.canvas", major: 1, minor: 1)
    public static let fields: [FieldSpec] = [
        FieldSpec("instance", "string"), FieldSpec("t_ms", "number"), FieldSpec("strokes", "array"),
        FieldSpec("active", "integer|null", required: false), FieldSpec("zoom_scale", "number", required: false),
        FieldSpec("input", "object", required: false),
    ]
    /// The touch frame whose effect this state shows, when a gesture changed it.
    public var input: TouchInput?

    /// One stroke, in view-local points.
    public struct Stroke: Sendable, Hashable {
        public var id: Int
        public var points: [GestureEvent.Vector]
        public var width: Double
        /// `#RRGGBB` or `#RRGGBBAA`.
        public var color: String

        public init(id: Int, points: [GestureEvent.Vector], width: Double, color: String) {
            self.id = id
            self.points = points
            self.width = width
            self.color = color
        }
    }

    public var instance: String
    public var tMs: Double
    /// Oldest first; the one being drawn last.
    public var strokes: [Stroke]
    /// The stroke being drawn (`.some(nil)`: none; `nil`: the field is left out).
    public var active: Int??
    public var zoomScale: Double?

    public init(instance: String, tMs: Double, strokes: [Stroke], active: Int?? = nil, zoomScale: Double? = nil) {
        self.instance = instance
        self.tMs = tMs
        self.strokes = strokes
        self.active = active
        self.zoomScale = zoomScale
    }

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(
            (self.input == nil ? 0 : 1) + 3 + (self.active == nil ? 0 : 1) + (self.zoomScale == nil ? 0 : 1))
        writer.writeField("instance", self.instance)
        writer.writeField("t_ms", number: self.tMs)
        writer.write("strokes")
        writer.writeArrayHeader(self.strokes.count)
        for stroke in self.strokes {
            writer.writeMapHeader(4)
            writer.writeField("id", int: stroke.id)
            writer.write("points")
            writer.writeArrayHeader(stroke.points.count)
            for point in stroke.points {
                writer.writeArrayHeader(2)
                writer.writeNumber(point.x)
                writer.writeNumber(point.y)
            }
            writer.writeField("width", number: stroke.width)
            writer.writeField("color", stroke.color)
        }
        if let active = self.active { writer.writeField("active", int: active) }
        if let zoomScale = self.zoomScale { writer.writeField("zoom_scale", number: zoomScale) }
        if let input = self.input { writer.writeField("input", input) }
    }

    public init(payload: Value) throws {
        let fields = try PayloadFields(payload)
        var strokes: [Stroke] = []
        for (index, value) in try fields.array("strokes").enumerated() {
            let stroke = try PayloadFields(value, path: "strokes[\(index)]")
            var points: [GestureEvent.Vector] = []
            for point in try stroke.array("points") {
                guard let pair = point.arrayValue, pair.count == 2, let x = pair[0].doubleValue,
                    let y = pair[1].doubleValue, NumberRange.coordinate.contains(x), NumberRange.coordinate.contains(y)
                else {
                    throw CodecError(
                        .invalidValue, offset: 0,
                        context: "strokes[\(index)].points: expected [x, y] within \(NumberRange.coordinate)")
                }
                points.append(GestureEvent.Vector(x: x, y: y))
            }
            strokes.append(
                Stroke(
                    id: try stroke.int("id"), points: points, width: try stroke.number("width"),
                    color: try stroke.string("color")))
        }
        self.init(
            instance: try fields.string("instance"), tMs: try fields.number("t_ms"), strokes: strokes,
            active: fields.value["active"] == nil ? nil : .some(try fields.optional("active", PayloadFields.int)),
            zoomScale: try fields.optional("zoom_scale", PayloadFields.number))
        self.input = try fields.optional("input", PayloadFields.object).map(TouchInput.init(fields:))
    }
}
