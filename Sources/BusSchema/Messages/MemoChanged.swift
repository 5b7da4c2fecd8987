/// One change to the memo board (schema `memo.changed` v1), on `memo/changed/`.
///
/// `seq` is global and gap-free across all changes: a subscriber that sees a gap asks for
/// a snapshot (the zguide Clone pattern).
public struct MemoChanged: BusMessage, Hashable {
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

    public var seq: UInt64
    public var change: Change
    public var memo: MemoRecord?
    public var settings: MemoSettings?
    /// The command that caused the change (one `arrange` causes several).
    public var cmdId: String?

    public init(
        seq: UInt64, change: Change, memo: MemoRecord? = nil, settings: MemoSettings? = nil, cmdId: String? = nil
    ) {
        self.seq = seq
        self.change = change
        self.memo = memo
        self.settings = settings
        self.cmdId = cmdId
    }

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(
            2 + (self.memo == nil ? 0 : 1) + (self.settings == nil ? 0 : 1) + (self.cmdId == nil ? 0 : 1))
        writer.write("seq")
        writer.write(self.seq)
        writer.write("change", self.change)
        if let memo = self.memo {
            writer.write("memo")
            memo.encode(to: &writer)
        }
        if let settings = self.settings {
            writer.write("settings")
            settings.encode(to: &writer)
        }
        if let cmdId = self.cmdId { writer.write("cmd_id", string: cmdId) }
    }

    public init(from reader: inout MessagePackReader) throws {
        var seq: UInt64?
        var change: Change?
        var memo: MemoRecord?
        var settings: MemoSettings?
        var cmdId: String?
        try reader.readMap { reader, key in
            switch key {
            case "seq": seq = try reader.readUInt()
            case "change": change = try reader.readEnum(Change.self, field: "change")
            case "memo": memo = try reader.readNullable { try MemoRecord(from: &$0) }
            case "settings": settings = try reader.readNullable { try MemoSettings(from: &$0) }
            case "cmd_id": cmdId = try reader.readNullable { try $0.readString() }
            default: try reader.skip()
            }
        }
        self.init(
            seq: try reader.require(seq, "seq"), change: try reader.require(change, "change"), memo: memo,
            settings: settings, cmdId: cmdId)
    }
}
