/// One memo as the store publishes it in `memo.changed` and `memo.snapshot`.
///
/// Geometry is in board points; `version` is 1 at creation and grows by 1 with every
/// change to the memo, and is what `edit`'s `base_version` is compared with. Times are milliseconds since the Unix epoch.
public struct MemoRecord: MessagePackMap, Hashable {
    public static let fieldNames = [
        "id", "text", "x", "y", "width", "height", "scale", "rotation", "z", "color", "minimized", "trashed_at",
        "created_at", "updated_at", "version",
    ]

    /// The palette colours, in the order `arrange` by colour uses.
    public static let palette = ["yellow", "orange", "pink", "purple", "blue", "green", "gray", "white"]

    public var id: String
    public var text: String
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public var scale: Double
    /// Radians; positive turns +x toward +y.
    public var rotation: Double
    /// Stacking order: higher is in front.
    public var z: Int64
    public var color: String
    public var minimized: Bool
    /// When the memo was moved to the trash, or nil while it is on the board.
    public var trashedAt: Int64?
    public var createdAt: Int64
    /// When the text or colour last changed (moves, transforms and arranging leave it).
    public var updatedAt: Int64
    public var version: Int64

    public init(
        id: String, text: String, x: Double, y: Double, width: Double, height: Double, scale: Double,
        rotation: Double, z: Int64, color: String, minimized: Bool, trashedAt: Int64?, createdAt: Int64,
        updatedAt: Int64, version: Int64
    ) {
        self.id = id
        self.text = text
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.scale = scale
        self.rotation = rotation
        self.z = z
        self.color = color
        self.minimized = minimized
        self.trashedAt = trashedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.version = version
    }

    /// Appends the memo as a map of all its fields.
    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(15)
        writer.write("id", string: self.id)
        writer.write("text", string: self.text)
        writer.write("x", double: self.x)
        writer.write("y", double: self.y)
        writer.write("width", double: self.width)
        writer.write("height", double: self.height)
        writer.write("scale", double: self.scale)
        writer.write("rotation", double: self.rotation)
        writer.write("z", int: self.z)
        writer.write("color", string: self.color)
        writer.write("minimized", bool: self.minimized)
        writer.write("trashed_at", nullableInt: self.trashedAt)
        writer.write("created_at", int: self.createdAt)
        writer.write("updated_at", int: self.updatedAt)
        writer.write("version", int: self.version)
    }

    /// Decodes a memo map; every field but `trashed_at` is required.
    public init(from reader: inout MessagePackReader) throws {
        var id: String?
        var text: String?
        var numbers: [String: Double] = [:]
        var z: Int64?
        var color: String?
        var minimized: Bool?
        var trashedAt: Int64?
        var times: [String: Int64] = [:]
        try reader.readMap { reader, key in
            switch key {
            case "id": id = try reader.readString()
            case "text": text = try reader.readString()
            case "x", "y", "width", "height", "scale", "rotation": numbers[try key.string()] = try reader.readDouble()
            case "z": z = try reader.readInt()
            case "color": color = try reader.readString()
            case "minimized": minimized = try reader.readBool()
            case "trashed_at": trashedAt = try reader.readNullable { try $0.readInt() }
            case "created_at", "updated_at", "version": times[try key.string()] = try reader.readInt()
            default: try reader.skip()
            }
        }
        self.init(
            id: try reader.require(id, "memo.id"), text: try reader.require(text, "memo.text"),
            x: try reader.require(numbers["x"], "memo.x"), y: try reader.require(numbers["y"], "memo.y"),
            width: try reader.require(numbers["width"], "memo.width"),
            height: try reader.require(numbers["height"], "memo.height"),
            scale: try reader.require(numbers["scale"], "memo.scale"),
            rotation: try reader.require(numbers["rotation"], "memo.rotation"), z: try reader.require(z, "memo.z"),
            color: try reader.require(color, "memo.color"), minimized: try reader.require(minimized, "memo.minimized"),
            trashedAt: trashedAt, createdAt: try reader.require(times["created_at"], "memo.created_at"),
            updatedAt: try reader.require(times["updated_at"], "memo.updated_at"),
            version: try reader.require(times["version"], "memo.version"))
    }
}

extension MemoRecord {
    /// Decodes the map inside a message; its errors name fields as its schema nests them, whatever `path`.
    public init(from reader: inout MessagePackReader, path: String) throws {
        try self.init(from: &reader)
    }
}
