/// What a memo command asks the memo store to do.
public enum MemoOp: String, Sendable, Hashable, CaseIterable, MessagePackEnum {
    case create, edit, move, transform, front, minimize
    case restoreSize = "restore_size"
    case trash, restore
    case emptyTrash = "empty_trash"
    case arrange, background, search, export, snapshot

    /// Whether the op changes stored state (and so is recorded for duplicate detection).
    public var isMutating: Bool {
        switch self {
        case .search, .export, .snapshot: return false
        default: return true
        }
    }
}

/// The formats `export` writes.
public enum MemoExportFormat: String, Sendable, Hashable, CaseIterable, MessagePackEnum {
    case text, md, eml, mbox
}

/// A command to the memo store (schema `memo.command` v1), on `memo/cmd/`.
///
/// `cmd_id` is unique per command and reused for retries; the ack goes to
/// `memo/ack/<client>/`. Which other fields an op needs is checked by the store, which
/// answers a missing or bad field with a `rejected` ack rather than a decode failure.
public struct MemoCommand: BusMessage, Buildable, Hashable {
    public static let schema = SchemaID("memo.command", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("cmd_id", "string"), FieldSpec("client", "string"), FieldSpec("op", "string"),
        FieldSpec("memo_id", "string", required: false), FieldSpec("text", "string", required: false),
        FieldSpec("x", "number", required: false), FieldSpec("y", "number", required: false),
        FieldSpec("width", "number", required: false), FieldSpec("height", "number", required: false),
        FieldSpec("scale", "number", required: false), FieldSpec("rotation", "number", required: false),
        FieldSpec("color", "string", required: false), FieldSpec("base_version", "integer", required: false),
        FieldSpec("order", "string", required: false), FieldSpec("image", "string|null", required: false),
        FieldSpec("query", "string", required: false), FieldSpec("include_trash", "boolean", required: false),
        FieldSpec("format", "string", required: false),
    ]

    public var cmdId = ""
    public var client = ""
    public var op = MemoOp.create
    public var memoId: String?
    public var text: String?
    public var x: Double?
    public var y: Double?
    public var width: Double?
    public var height: Double?
    public var scale: Double?
    /// Radians; positive turns +x toward +y.
    public var rotation: Double?
    public var color: String?
    /// For `edit` with `text`: the version the client edited; a stale one gets `conflict`.
    public var baseVersion: Int64?
    public var order: MemoArrangeOrder?
    /// For `background`: the image reference; absent or null clears it.
    public var image: String?
    public var query: String?
    public var includeTrash: Bool?
    public var format: MemoExportFormat?

    public init() {}

    public func encode(to writer: inout MessagePackWriter) {
        let strings: [(String, String?)] = [
            ("memo_id", self.memoId), ("text", self.text), ("color", self.color), ("order", self.order?.rawValue),
            ("image", self.image), ("query", self.query), ("format", self.format?.rawValue),
        ]
        let numbers: [(String, Double?)] = [
            ("x", self.x), ("y", self.y), ("width", self.width), ("height", self.height), ("scale", self.scale),
            ("rotation", self.rotation),
        ]
        let count =
            3 + strings.count(where: { $0.1 != nil }) + numbers.count(where: { $0.1 != nil })
            + (self.baseVersion == nil ? 0 : 1) + (self.includeTrash == nil ? 0 : 1)
        writer.writeMapHeader(count)
        writer.write("cmd_id", string: self.cmdId)
        writer.write("client", string: self.client)
        writer.write("op", self.op)
        for case (let key, let value?) in strings { writer.write(key, string: value) }
        for case (let key, let value?) in numbers { writer.write(key, double: value) }
        if let baseVersion = self.baseVersion { writer.write("base_version", int: baseVersion) }
        if let includeTrash = self.includeTrash { writer.write("include_trash", bool: includeTrash) }
    }

    public init(from reader: inout MessagePackReader) throws {
        var cmdId: String?
        var client: String?
        var op: MemoOp?
        var command = MemoCommand()
        try reader.readMap { reader, key in
            switch key {
            case "cmd_id": cmdId = try reader.readString()
            case "client": client = try reader.readString()
            case "op": op = try reader.readEnum(MemoOp.self, field: "op")
            case "memo_id": command.memoId = try reader.readNullable { try $0.readString() }
            case "text": command.text = try reader.readNullable { try $0.readString() }
            case "x": command.x = try reader.readNullable { try $0.readDouble() }
            case "y": command.y = try reader.readNullable { try $0.readDouble() }
            case "width": command.width = try reader.readNullable { try $0.readDouble() }
            case "height": command.height = try reader.readNullable { try $0.readDouble() }
            case "scale": command.scale = try reader.readNullable { try $0.readDouble() }
            case "rotation": command.rotation = try reader.readNullable { try $0.readDouble() }
            case "color": command.color = try reader.readNullable { try $0.readString() }
            case "base_version": command.baseVersion = try reader.readNullable { try $0.readInt() }
            case "order":
                command.order = try reader.readNullable { try $0.readEnum(MemoArrangeOrder.self, field: "order") }
            case "image": command.image = try reader.readNullable { try $0.readString() }
            case "query": command.query = try reader.readNullable { try $0.readString() }
            case "include_trash": command.includeTrash = try reader.readNullable { try $0.readBool() }
            case "format":
                command.format = try reader.readNullable { try $0.readEnum(MemoExportFormat.self, field: "format") }
            default: try reader.skip()
            }
        }
        command.cmdId = try reader.require(cmdId, "cmd_id")
        command.client = try reader.require(client, "client")
        command.op = try reader.require(op, "op")
        self = command
    }
}
