/// One line of a touch script (schema `touch.script` v1, `.jsonl`): one contact's phase at one time.
///
/// `{"t_ms": 0, "device": "d0", "id": 0, "phase": "began", "x": 42, "y": 24}`; coordinates in
/// points, lines sorted by `t_ms`.
public struct TouchScriptLine: BusMessage, Hashable {
    public static let schema = SchemaID("touch.script", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("t_ms", "number"), FieldSpec("device", "string"), FieldSpec("id", "integer"),
        FieldSpec("phase", "string"), FieldSpec("x", "number"), FieldSpec("y", "number"),
    ]

    /// The phases a script may use.
    public enum Phase: String, Sendable, Hashable, CaseIterable {
        case began, moved, ended, cancelled
    }

    public var tMs: Double
    public var device: String
    public var id: Int
    public var phase: Phase
    public var x: Double
    public var y: Double

    public init(tMs: Double, device: String, id: Int, phase: Phase, x: Double, y: Double) {
        self.tMs = tMs
        self.device = device
        self.id = id
        self.phase = phase
        self.x = x
        self.y = y
    }

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(6)
        writer.writeKey("t_ms")
        writer.writeNumber(self.tMs)
        writer.writeKey("device")
        writer.write(self.device)
        writer.writeKey("id")
        writer.write(self.id)
        writer.write("phase", self.phase)
        writer.writeKey("x")
        writer.writeNumber(self.x)
        writer.writeKey("y")
        writer.writeNumber(self.y)
    }

    /// The schema's ranges: times a frame's int64 nanoseconds can hold, points on a scene.
    static let timeMs = NumberRange(0, Double(Int64.max / 1_000_000))
    static let position = NumberRange(0, NumberRange.coordinate.upper)

    public init(from reader: inout MessagePackReader) throws {
        var tMs: Double?
        var device: String?
        var id: Int?
        var phase: Phase?
        var x: Double?
        var y: Double?
        try reader.readMap { reader, key in
            switch key {
            case "t_ms": tMs = try reader.readNumber("t_ms", in: Self.timeMs)
            case "device": device = try reader.readString()
            case "id": id = try reader.readInteger("id", in: 0...TouchFrame.maxContactID)
            case "phase": phase = try reader.readEnum(Phase.self, field: "phase")
            case "x": x = try reader.readNumber("x", in: Self.position)
            case "y": y = try reader.readNumber("y", in: Self.position)
            default: try reader.skip()
            }
        }
        self.init(
            tMs: try reader.require(tMs, "t_ms"), device: try reader.require(device, "device"),
            id: try reader.require(id, "id"), phase: try reader.require(phase, "phase"),
            x: try reader.require(x, "x"), y: try reader.require(y, "y"))
    }
}
