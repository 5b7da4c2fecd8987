/// A scene recognizer's settings as a component sets them at run time (schema
/// `recognizer.config` v1), on `ui/recognizer/<recognizer>/`.
///
/// The component host publishes one with each state of a component that drives its recognizers
/// (an edge drawer: its swipe accepts only the direction the menu listens for and receives
/// touches only on the menu's panel); the gesture recognizer applies it at once. A field left
/// out keeps the scene's value, so each message is the recognizer's whole run-time configuration
/// and the newest one (kept by the proxy's last-value cache) is all a restarted recognizer needs.
public struct RecognizerConfig: ValueMessage, Hashable {
    public static let schema = SchemaID("recognizer.config", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("recognizer", "string"), FieldSpec("t_ms", "number"),
        FieldSpec("instance", "string", required: false), FieldSpec("directions", "array", required: false),
        FieldSpec("receive_region", "object", required: false),
    ]
    /// The longest recognizer name, in bytes (a topic segment).
    public static let maximumNameLength = 128

    /// A rectangle in scene points: the scene's own frame type.
    public typealias Region = Scene.Frame

    /// The recognizer's name in the scene.
    public var recognizer: String
    public var tMs: Double
    /// The component instance that set it.
    public var instance: String?
    /// Swipe: the directions it accepts; nil keeps the scene's.
    public var directions: [GestureEvent.Direction]?
    /// Touches beginning outside it are not received; nil keeps the scene's region.
    public var receiveRegion: Region?

    public init(
        recognizer: String, tMs: Double, instance: String? = nil, directions: [GestureEvent.Direction]? = nil,
        receiveRegion: Region? = nil
    ) {
        self.recognizer = recognizer
        self.tMs = tMs
        self.instance = instance
        self.directions = directions
        self.receiveRegion = receiveRegion
    }

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(
            2 + (self.instance == nil ? 0 : 1) + (self.directions == nil ? 0 : 1) + (self.receiveRegion == nil ? 0 : 1))
        writer.writeField("recognizer", self.recognizer)
        writer.writeField("t_ms", number: self.tMs)
        if let instance = self.instance { writer.writeField("instance", instance) }
        if let directions = self.directions {
            writer.write("directions")
            writer.writeArrayHeader(directions.count)
            for direction in directions { writer.write(direction.rawValue) }
        }
        if let region = self.receiveRegion {
            writer.write("receive_region")
            writer.writeMapHeader(4)
            writer.writeField("x", number: region.x)
            writer.writeField("y", number: region.y)
            writer.writeField("width", number: region.width)
            writer.writeField("height", number: region.height)
        }
    }

    /// Reads and checks a payload: a recognizer name that fits a topic segment, at most four
    /// known directions, a region within ±10^6 points with sides of 0…10^6.
    ///
    /// - Throws: ``CodecError`` naming the field.
    public init(payload: Value) throws {
        let fields = try PayloadFields(payload)
        let name = try fields.string("recognizer")
        if let problem = Topic.segmentProblem(name, maximumLength: Self.maximumNameLength) {
            throw CodecError(.invalidValue, offset: 0, context: "recognizer '\(name)': \(problem)")
        }
        self.init(recognizer: name, tMs: try fields.number("t_ms"))
        self.instance = try fields.optional("instance", PayloadFields.string)
        if fields.has("directions") {
            let values = try fields.array("directions")
            guard values.count <= GestureEvent.Direction.allCases.count else {
                throw CodecError(.invalidValue, offset: 0, context: "directions: \(values.count) entries, at most 4")
            }
            self.directions = try values.enumerated().map { index, value in
                guard let direction = value.stringValue.flatMap(GestureEvent.Direction.init(rawValue:)) else {
                    throw CodecError(.invalidValue, offset: 0, context: "directions[\(index)]: \(value.json)")
                }
                return direction
            }
        }
        if fields.has("receive_region") {
            let region = try fields.object("receive_region")
            func read(_ key: String, _ range: NumberRange) throws -> Double {
                let value = try region.number(key)
                guard range.contains(value) else {
                    throw CodecError(
                        .invalidValue, offset: 0, context: "receive_region.\(key): \(value) outside \(range)")
                }
                return value
            }
            self.receiveRegion = Region(
                x: try read("x", .coordinate), y: try read("y", .coordinate), width: try read("width", .size),
                height: try read("height", .size))
        }
    }
}
