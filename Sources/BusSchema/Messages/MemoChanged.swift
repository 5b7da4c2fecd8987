/// One change to the memo board (schema `memo.changed` v1), on `memo/changed/`.
///
/// `seq` is global and gap-free across all changes: a subscriber that sees a gap asks for
/// a snapshot (the zguide Clone pattern).
public struct MemoChanged: BusMessage, MessagePackMap, MapFields, Hashable {
    public static let schema = SchemaID("memo.changed", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("seq", "integer"), FieldSpec("change", "string"), FieldSpec("memo", "object", required: false),
        FieldSpec("settings", "object", required: false), FieldSpec("cmd_id", "string", required: false),
    ]

    public enum Change: String, Sendable, Hashable, CaseIterable, MessagePackEnum {
        /// `memo` is the memo's new state (created or changed).
        case upsert
        /// `memo` is the memo's last state; it no longer exists.
        case delete
        /// `settings` is the new settings.
        case settings
    }

    public var seq: UInt64 = 0
    public var change: Change = .upsert
    public var memo: MemoRecord?
    public var settings: MemoSettings?
    /// The command that caused the change (one `arrange` causes several).
    public var cmdId: String?

    public init() {}

    public init(
        seq: UInt64, change: Change, memo: MemoRecord? = nil, settings: MemoSettings? = nil, cmdId: String? = nil
    ) {
        self.seq = seq
        self.change = change
        self.memo = memo
        self.settings = settings
        self.cmdId = cmdId
    }

    public mutating func visitFields<V: MapFieldVisitor & ~Copyable>(_ visitor: inout V) throws(V.Failure) {
        try visitor.field("seq", &self.seq, 0...UInt64.max)
        try visitor.field("change", &self.change, .any)
        try visitor.optional("memo", &self.memo, .any)
        try visitor.optional("settings", &self.settings, .any)
        try visitor.optional("cmd_id", &self.cmdId, .any)
    }
}
