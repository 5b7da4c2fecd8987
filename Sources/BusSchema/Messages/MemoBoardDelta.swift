/// What changed on a memo board since its previous message (schema `memoBoard.delta` v1),
/// on `ui/memoBoard/<instance>/delta/`.
///
/// The board publishes a full ``MemoBoardState`` now and then (periodically, when most of it
/// changed, and to anyone who asks with a `resync` on `sys/lifecycle/`) and in between only
/// deltas, so a change costs bytes in proportion to the change, not to the board. A delta
/// applies to the state whose `revision` is its `base_revision` and leaves it at `revision`
/// (``MemoBoardReplica`` keeps a copy that way). The small fields are always sent whole;
/// `search` only when it changed.
public struct MemoBoardDelta: ValueMessage, Buildable, Hashable {
    public static let schema = SchemaID("memoBoard.delta", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("instance", "string"), FieldSpec("t_ms", "number"), FieldSpec("revision", "integer"),
        FieldSpec("base_revision", "integer"), FieldSpec("memos", "array"), FieldSpec("trash", "array"),
        FieldSpec("removed", "array"), FieldSpec("selected", "string|null"), FieldSpec("arrange_order", "string"),
        FieldSpec("background", "string|null"), FieldSpec("editing", "string|null"),
        FieldSpec("search", "object|null", required: false), FieldSpec("store_seq", "integer"),
        FieldSpec("pending_commands", "integer"), FieldSpec("syncing", "boolean"),
    ]

    public var instance = ""
    public var tMs = 0.0
    public var revision = 0
    public var baseRevision = 0
    /// Memos now on the board, new or changed.
    public var memos: [MemoBoardState.Memo] = []
    /// Memos now in the trash, new or changed.
    public var trash: [MemoBoardState.Memo] = []
    /// Ids of memos gone from board and trash.
    public var removed: [String] = []
    public var selected: String?
    public var arrangeOrder = MemoArrangeOrder.created
    public var background: String?
    public var editing: String?
    /// The search, when it changed (`.some(nil)`: cleared; `nil`: unchanged, left out).
    public var search: MemoBoardState.Search??
    public var storeSeq = 0
    public var pendingCommands = 0
    public var syncing = false

    public init() {}

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(14 + (self.search == nil ? 0 : 1))
        writer.writeField("instance", self.instance)
        writer.writeField("t_ms", number: self.tMs)
        writer.writeField("revision", int: self.revision)
        writer.writeField("base_revision", int: self.baseRevision)
        writer.write("memos")
        MemoBoardState.write(self.memos, to: &writer)
        writer.write("trash")
        MemoBoardState.write(self.trash, to: &writer)
        writer.write("removed")
        writer.writeArrayHeader(self.removed.count)
        for id in self.removed { writer.write(id) }
        writer.writeField("selected", self.selected)
        writer.write("arrange_order", self.arrangeOrder)
        writer.writeField("background", self.background)
        writer.writeField("editing", self.editing)
        if let search = self.search {
            writer.write("search")
            if let search { MemoBoardState.write(search, to: &writer) } else { writer.writeNil() }
        }
        writer.writeField("store_seq", int: self.storeSeq)
        writer.writeField("pending_commands", int: self.pendingCommands)
        writer.writeField("syncing", bool: self.syncing)
    }

    public init(payload: Value) throws {
        let fields = try PayloadFields(payload)
        let memos = try fields.array("memos").enumerated().map { try MemoBoardState.memo($1, path: "memos[\($0)]") }
        let trash = try fields.array("trash").enumerated().map { try MemoBoardState.memo($1, path: "trash[\($0)]") }
        let removed = try fields.array("removed").enumerated().map { index, value in
            guard let id = value.stringValue else {
                throw CodecError(.typeMismatch, offset: 0, context: "removed[\(index)]: expected a string")
            }
            return id
        }
        var search: MemoBoardState.Search?? = nil
        if fields.value["search"] != nil {
            search = .some(try fields.optional("search", PayloadFields.object).map(MemoBoardState.search))
        }
        let revision = try fields.int("revision")
        let baseRevision = try fields.int("base_revision")
        guard baseRevision >= 0, revision > baseRevision else {
            throw CodecError(.invalidValue, offset: 0, context: "revision: must be above base_revision (≥ 0)")
        }
        self.init()
        self.instance = try fields.string("instance")
        self.tMs = try fields.number("t_ms")
        self.revision = revision
        self.baseRevision = baseRevision
        self.memos = memos
        self.trash = trash
        self.removed = removed
        self.selected = try fields.optional("selected", PayloadFields.string)
        self.arrangeOrder = try fields.enumValue("arrange_order", MemoArrangeOrder.self)
        self.background = try fields.optional("background", PayloadFields.string)
        self.editing = try fields.optional("editing", PayloadFields.string)
        self.search = search
        self.storeSeq = try fields.int("store_seq")
        self.pendingCommands = try fields.int("pending_commands")
        self.syncing = try fields.bool("syncing")
    }
}
