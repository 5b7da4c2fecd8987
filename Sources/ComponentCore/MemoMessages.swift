import BusSchema

/// One memo store command as the board sends it (schema `memo.command`): a unique `cmd_id` that
/// every resend keeps, the client, the op and the op's fields.
public struct MemoCommandRequest: Sendable, Hashable {
    /// The ops the board sends.
    public enum Op: String, Sendable, Hashable, CaseIterable {
        case create, edit, move, transform, front, minimize
        case restoreSize = "restore_size"
        case trash, restore
        case emptyTrash = "empty_trash"
        case arrange, background, search, snapshot
    }

    public var cmdID: String
    public var client: String
    public var op: Op
    public var memoID: String?
    /// The op's other fields (`text`, `x`, `y`, `scale`, `base_version`, …), in order.
    public var fields: ValueMap

    public init(cmdID: String, client: String, op: Op, memoID: String? = nil, fields: ValueMap = [:]) {
        self.cmdID = cmdID
        self.client = client
        self.op = op
        self.memoID = memoID
        self.fields = fields
    }

    /// The `memo.command` payload.
    public var payload: Value {
        var map: ValueMap = [
            "cmd_id": .string(self.cmdID), "client": .string(self.client), "op": .string(self.op.rawValue),
        ]
        if let memoID = self.memoID { map["memo_id"] = .string(memoID) }
        for (key, value) in self.fields { map[key] = value }
        return .map(map)
    }
}

/// The store's answer to one command (schema `memo.ack`), as far as the board needs it.
public struct MemoAck: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable, CaseIterable {
        case ok, duplicate, conflict, rejected
    }

    public var cmdID: String
    public var status: Status
    public var seq: Int
    public var memoID: String?
    public var version: Int?
    /// Search results: memo, trashed, ranges.
    public var results: [MemoBoardState.Match]?

    public init(
        cmdID: String, status: Status, seq: Int, memoID: String? = nil, version: Int? = nil,
        results: [MemoBoardState.Match]? = nil
    ) {
        self.cmdID = cmdID
        self.status = status
        self.seq = seq
        self.memoID = memoID
        self.version = version
        self.results = results
    }

    /// Reads a `memo.ack` payload.
    ///
    /// - Throws: ``CodecError`` naming the field.
    public init(payload: Value) throws {
        let fields = try PayloadFields(payload)
        var results: [MemoBoardState.Match]?
        if let values = try fields.optional("results", PayloadFields.array) {
            results = try values.enumerated().map { index, value in
                let result = try PayloadFields(value, path: "results[\(index)]")
                return MemoBoardState.Match(
                    memoID: try result.string("memo_id"),
                    trashed: try result.optional("trashed", PayloadFields.bool) ?? false,
                    ranges: try MemoRecord.ranges(try result.optional("ranges", PayloadFields.array) ?? []))
            }
        }
        self.init(
            cmdID: try fields.string("cmd_id"), status: try fields.enumValue("status", Status.self),
            seq: try fields.int("seq"), memoID: try fields.optional("memo_id", PayloadFields.string),
            version: try fields.optional("version", PayloadFields.int), results: results)
    }
}

/// A memo as the store holds it (in `memo.changed` and `memo.snapshot`).
public struct MemoRecord: Sendable, Hashable {
    public var memo: MemoBoardState.Memo
    /// When it was trashed (ms since the Unix epoch), or nil on the board.
    public var trashedAt: Int?
    public var createdAt: Int
    public var updatedAt: Int

    public init(memo: MemoBoardState.Memo, trashedAt: Int? = nil, createdAt: Int = 0, updatedAt: Int = 0) {
        self.memo = memo
        self.trashedAt = trashedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Reads a store memo object.
    ///
    /// - Throws: ``CodecError`` naming the field.
    public init(payload: Value, path: String) throws {
        let fields = try PayloadFields(payload, path: path)
        let memo = MemoBoardState.Memo(
            id: try fields.string("id"), x: try fields.number("x"), y: try fields.number("y"),
            width: try fields.number("width"), height: try fields.number("height"),
            scale: try fields.optional("scale", PayloadFields.number) ?? 1,
            rotation: try fields.optional("rotation", PayloadFields.number) ?? 0,
            z: try fields.optional("z", PayloadFields.int) ?? 0,
            color: fields.has("color") ? try fields.enumValue("color", MemoBoardState.Color.self) : .yellow,
            minimized: try fields.optional("minimized", PayloadFields.bool) ?? false,
            text: try fields.optional("text", PayloadFields.string) ?? "",
            version: try fields.optional("version", PayloadFields.int))
        self.init(
            memo: memo, trashedAt: try fields.optional("trashed_at", PayloadFields.int),
            createdAt: try fields.optional("created_at", PayloadFields.int) ?? 0,
            updatedAt: try fields.optional("updated_at", PayloadFields.int) ?? 0)
    }

    static func ranges(_ values: [Value]) throws -> [Range<Int>] {
        try values.map { value in
            guard let pair = value.arrayValue, pair.count == 2, let start = pair[0].intValue,
                let end = pair[1].intValue, start <= end
            else { throw CodecError(.invalidValue, offset: 0, context: "ranges: expected [start, end]") }
            return Int(start)..<Int(end)
        }
    }
}

/// Board settings as the store holds them.
public struct MemoSettings: Sendable, Hashable {
    public var arrangeOrder: MemoBoardState.ArrangeOrder
    public var background: String?

    public init(arrangeOrder: MemoBoardState.ArrangeOrder = .created, background: String? = nil) {
        self.arrangeOrder = arrangeOrder
        self.background = background
    }

    init(fields: PayloadFields) throws {
        self.init(
            arrangeOrder: fields.has("arrange_order")
                ? try fields.enumValue("arrange_order", MemoBoardState.ArrangeOrder.self) : .created,
            background: try fields.optional("background", PayloadFields.string))
    }
}

/// One change from `memo/changed/` (schema `memo.changed`).
public struct MemoChange: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case upsert(MemoRecord)
        case delete(memoID: String)
        case settings(MemoSettings)
    }

    public var seq: Int
    public var kind: Kind
    public var cmdID: String?

    public init(seq: Int, kind: Kind, cmdID: String? = nil) {
        self.seq = seq
        self.kind = kind
        self.cmdID = cmdID
    }

    /// Reads a `memo.changed` payload.
    ///
    /// - Throws: ``CodecError`` naming the field.
    public init(payload: Value) throws {
        let fields = try PayloadFields(payload)
        let kind: Kind
        switch try fields.string("change") {
        case "upsert": kind = .upsert(try MemoRecord(payload: try fields.object("memo").value, path: "memo"))
        case "delete": kind = .delete(memoID: try fields.object("memo").string("id"))
        case "settings": kind = .settings(try MemoSettings(fields: try fields.object("settings")))
        case let other: throw CodecError(.invalidValue, offset: 0, context: "change: '\(other)'")
        }
        self.init(seq: try fields.int("seq"), kind: kind, cmdID: try fields.optional("cmd_id", PayloadFields.string))
    }
}

/// One chunk of a snapshot (schema `memo.snapshot`).
public struct MemoSnapshotChunk: Sendable, Hashable {
    public var requestID: String
    public var chunk: Int
    public var last: Bool
    public var seq: Int
    public var memos: [MemoRecord]
    public var settings: MemoSettings

    public init(
        requestID: String, chunk: Int, last: Bool, seq: Int, memos: [MemoRecord], settings: MemoSettings
    ) {
        self.requestID = requestID
        self.chunk = chunk
        self.last = last
        self.seq = seq
        self.memos = memos
        self.settings = settings
    }

    /// Reads a `memo.snapshot` payload.
    ///
    /// - Throws: ``CodecError`` naming the field.
    public init(payload: Value) throws {
        let fields = try PayloadFields(payload)
        self.init(
            requestID: try fields.string("request_id"), chunk: try fields.int("chunk"), last: try fields.bool("last"),
            seq: try fields.int("seq"),
            memos: try fields.array("memos").enumerated().map { try MemoRecord(payload: $1, path: "memos[\($0)]") },
            settings: try MemoSettings(fields: try fields.object("settings")))
    }
}
