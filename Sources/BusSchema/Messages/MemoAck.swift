/// One memo that matched a search, with where it matched.
public struct MemoSearchHit: MessagePackMap, MapFields, Hashable {
    public var memoId = ""
    /// The memo's original text.
    public var text = ""
    public var trashed = false
    /// Half-open `[start, end)` ranges in Unicode-scalar offsets of `text`.
    public var ranges: [Range<Int>] = []

    public init() {}

    public init(memoId: String, text: String, trashed: Bool, ranges: [Range<Int>]) {
        self.memoId = memoId
        self.text = text
        self.trashed = trashed
        self.ranges = ranges
    }

    public mutating func visitFields<V: MapFieldVisitor & ~Copyable>(_ visitor: inout V) throws(V.Failure) {
        try visitor.field("memo_id", &self.memoId, .any)
        try visitor.field("text", &self.text, .any)
        try visitor.field("trashed", &self.trashed, .any)
        try visitor.field("ranges", &self.ranges, ArrayRule(item: .any))
    }
}

/// One file of an `eml` export.
public struct MemoExportFile: MessagePackMap, MapFields, Hashable {
    /// The file name, e.g. `m1.eml`.
    public var name = ""
    /// The RFC 5322 message.
    public var content = ""

    public init() {}

    public init(name: String, content: String) {
        self.name = name
        self.content = content
    }

    public mutating func visitFields<V: MapFieldVisitor & ~Copyable>(_ visitor: inout V) throws(V.Failure) {
        try visitor.field("name", &self.name, .any)
        try visitor.field("content", &self.content, .any)
    }
}

/// The memo store's answer to one command (schema `memo.ack` v1), on `memo/ack/<client>/`.
///
/// Published only after the command's transaction committed. An answer too large for one
/// message (a big export or search) comes as several acks with the same `cmd_id`, `chunk` 0…
/// `chunks`−1, each carrying a part of `export`, `files` or `results` (see ``chunked(maximumBytes:)``
/// and ``reassembled(_:)``). `seq` is the global change
/// sequence number once the command is applied: a client that has seen `memo.changed`
/// up to `seq` sees the command's effect.
public struct MemoAck: BusMessage, MessagePackMap, MapFields, Hashable {
    public static let schema = SchemaID("memo.ack", major: 1, minor: 1)
    public static let fields: [FieldSpec] = [
        FieldSpec("cmd_id", "string"), FieldSpec("status", "string"), FieldSpec("seq", "integer"),
        FieldSpec("memo_id", "string", required: false), FieldSpec("version", "integer", required: false),
        FieldSpec("reason", "string", required: false), FieldSpec("results", "array", required: false),
        FieldSpec("export", "string", required: false), FieldSpec("op", "string", required: false),
        FieldSpec("files", "array", required: false), FieldSpec("chunk", "integer", required: false),
        FieldSpec("chunks", "integer", required: false),
    ]

    public enum Status: String, Sendable, Hashable, CaseIterable, MessagePackEnum {
        /// Applied now (or, for search, export and snapshot, answered).
        case ok
        /// Applied earlier under the same `cmd_id`; the other fields are from that time.
        case duplicate
        /// An `edit` whose `base_version` is not the memo's version; nothing changed.
        case conflict
        /// Not applied: `reason` says why.
        case rejected
    }

    public var cmdId = ""
    public var status = Status.ok
    public var seq: UInt64 = 0
    public var memoId: String?
    public var version: Int64?
    public var reason: String?
    /// For `search`: the matching memos.
    public var results: [MemoSearchHit]?
    /// For `export` as text, md or mbox: the exported document.
    public var export: String?
    /// The command's op, echoed.
    public var op: MemoOp?
    /// For `export` as eml: one message per memo.
    public var files: [MemoExportFile]?
    /// For an answer sent in parts: this part's index, from 0.
    public var chunk: Int?
    /// For an answer sent in parts: how many parts there are.
    public var chunks: Int?

    public init() {}

    public mutating func visitFields<V: MapFieldVisitor & ~Copyable>(_ visitor: inout V) throws(V.Failure) {
        try visitor.field("cmd_id", &self.cmdId, .any)
        try visitor.field("status", &self.status, .any)
        try visitor.field("seq", &self.seq, 0...UInt64.max)
        try visitor.optional("op", &self.op, .any)
        try visitor.optional("memo_id", &self.memoId, .any)
        try visitor.optional("version", &self.version, Int64.min...Int64.max)
        try visitor.optional("reason", &self.reason, .any)
        try visitor.optional("results", &self.results, ArrayRule(item: .any))
        try visitor.optional("export", &self.export, .any)
        try visitor.optional("files", &self.files, ArrayRule(item: .any))
        try visitor.optional("chunk", &self.chunk, Int64.min...Int64.max)
        try visitor.optional("chunks", &self.chunks, Int64.min...Int64.max)
    }

    /// Decodes a payload map, refusing a part index outside `0..<chunks`.
    ///
    /// - Throws: ``CodecError`` naming the field it refuses.
    public init(from reader: inout MessagePackReader) throws {
        try self.init(from: &reader, path: "")
        if self.chunk != nil || self.chunks != nil {
            guard let chunk = self.chunk, let chunks = self.chunks, chunk >= 0, chunk < chunks else {
                throw CodecError(.invalidValue, offset: 0, context: "chunk and chunks: need 0 <= chunk < chunks")
            }
        }
    }
}

extension MemoAck {
    /// The `rejected` ack for a command payload that did not decode, and the client to send it to.
    ///
    /// Returns nil when not even `cmd_id` and `client` can be read: then there is no one to
    /// answer, and the caller counts the frame as rejected.
    public static func rejecting(payload: [UInt8], error: CodecError, seq: UInt64) -> (client: String, ack: MemoAck)? {
        guard let value = try? Value(messagePack: payload), let cmdId = value["cmd_id"]?.stringValue,
            let client = value["client"]?.stringValue, !client.isEmpty
        else { return nil }
        let ack = MemoAck {
            $0.cmdId = cmdId
            $0.status = .rejected
            $0.seq = seq
            $0.memoId = value["memo_id"]?.stringValue
            $0.reason = "malformed command: \(error)"
            $0.op = value["op"]?.stringValue.flatMap(MemoOp.init(rawValue:))
        }
        return (client, ack)
    }
}
