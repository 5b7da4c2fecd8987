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
public struct MemoCommand: BusMessage, MessagePackMap, MapFields, Hashable {
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

    /// Only the types are checked here (and the ops' names): a value out of its range is the
    /// store's to refuse, with an ack naming the field.
    public mutating func visitFields<V: MapFieldVisitor & ~Copyable>(_ visitor: inout V) throws(V.Failure) {
        try visitor.field("cmd_id", &self.cmdId, .any)
        try visitor.field("client", &self.client, .any)
        try visitor.field("op", &self.op, .any)
        try visitor.optional("memo_id", &self.memoId, .any)
        try visitor.optional("text", &self.text, .any)
        try visitor.optional("color", &self.color, .any)
        try visitor.optional("order", &self.order, .any)
        try visitor.optional("image", &self.image, .any)
        try visitor.optional("query", &self.query, .any)
        try visitor.optional("format", &self.format, .any)
        try visitor.uncheckedNumber("x", &self.x)
        try visitor.uncheckedNumber("y", &self.y)
        try visitor.uncheckedNumber("width", &self.width)
        try visitor.uncheckedNumber("height", &self.height)
        try visitor.uncheckedNumber("scale", &self.scale)
        try visitor.uncheckedNumber("rotation", &self.rotation)
        try visitor.optional("base_version", &self.baseVersion, Int64.min...Int64.max)
        try visitor.optional("include_trash", &self.includeTrash, .any)
    }
}

extension MapFieldVisitor where Self: ~Copyable {
    /// An optional number read as sent, NaN and infinities included, so that the store rejects
    /// one with an ack that names the field rather than the decoder refusing the whole command.
    fileprivate mutating func uncheckedNumber(_ key: StaticString, _ value: inout Double?) throws(Failure) {
        self.write(key, value.map(Float64Value.init))
        try self.readField(key, required: false) { reader, _ in
            value = try reader.readNullable { try $0.readDouble() }
        }
    }
}
