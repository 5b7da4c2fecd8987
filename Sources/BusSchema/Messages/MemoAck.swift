/// One memo that matched a search, with where it matched.
public struct MemoSearchHit: Sendable, Hashable {
    public var memoId: String
    /// The memo's original text.
    public var text: String
    public var trashed: Bool
    /// Half-open `[start, end)` ranges in Unicode-scalar offsets of `text`.
    public var ranges: [Range<Int>]

    public init(memoId: String, text: String, trashed: Bool, ranges: [Range<Int>]) {
        self.memoId = memoId
        self.text = text
        self.trashed = trashed
        self.ranges = ranges
    }

    func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(4)
        writer.write("memo_id", string: self.memoId)
        writer.write("text", string: self.text)
        writer.write("trashed", bool: self.trashed)
        writer.write("ranges")
        writer.writeArrayHeader(self.ranges.count)
        for range in self.ranges {
            writer.writeArrayHeader(2)
            writer.write(range.lowerBound)
            writer.write(range.upperBound)
        }
    }

    init(from reader: inout MessagePackReader) throws {
        var memoId: String?
        var text: String?
        var trashed: Bool?
        var ranges: [Range<Int>]?
        try reader.readMap { reader, key in
            switch key {
            case "memo_id": memoId = try reader.readString()
            case "text": text = try reader.readString()
            case "trashed": trashed = try reader.readBool()
            case "ranges":
                var list: [Range<Int>] = []
                for _ in 0..<(try reader.readArrayHeader()) {
                    let start = reader.offset
                    guard try reader.readArrayHeader() == 2 else {
                        throw CodecError(.invalidValue, offset: start, context: "results.ranges: not a pair")
                    }
                    let lower = try reader.readInteger()
                    let upper = try reader.readInteger()
                    guard lower <= upper else {
                        throw CodecError(.invalidValue, offset: start, context: "results.ranges: start > end")
                    }
                    list.append(lower..<upper)
                }
                ranges = list
            default: try reader.skip()
            }
        }
        self.init(
            memoId: try reader.require(memoId, "results.memo_id"), text: try reader.require(text, "results.text"),
            trashed: try reader.require(trashed, "results.trashed"),
            ranges: try reader.require(ranges, "results.ranges"))
    }
}

/// One file of an `eml` export.
public struct MemoExportFile: Sendable, Hashable {
    /// The file name, e.g. `m1.eml`.
    public var name: String
    /// The RFC 5322 message.
    public var content: String

    public init(name: String, content: String) {
        self.name = name
        self.content = content
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
public struct MemoAck: BusMessage, Buildable, Hashable {
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

    public func encode(to writer: inout MessagePackWriter) {
        let optionals = [
            self.op != nil, self.memoId != nil, self.version != nil, self.reason != nil, self.results != nil,
            self.export != nil, self.files != nil, self.chunk != nil, self.chunks != nil,
        ]
        writer.writeMapHeader(3 + optionals.count(where: { $0 }))
        writer.write("cmd_id", string: self.cmdId)
        writer.write("status", self.status)
        writer.write("seq")
        writer.write(self.seq)
        if let op = self.op { writer.write("op", op) }
        if let memoId = self.memoId { writer.write("memo_id", string: memoId) }
        if let version = self.version { writer.write("version", int: version) }
        if let reason = self.reason { writer.write("reason", string: reason) }
        if let results = self.results {
            writer.write("results")
            writer.writeArrayHeader(results.count)
            for hit in results { hit.encode(to: &writer) }
        }
        if let export = self.export { writer.write("export", string: export) }
        if let files = self.files {
            writer.write("files")
            writer.writeArrayHeader(files.count)
            for file in files {
                writer.writeMapHeader(2)
                writer.write("name", string: file.name)
                writer.write("content", string: file.content)
            }
        }
        if let chunk = self.chunk { writer.write("chunk", int: Int64(chunk)) }
        if let chunks = self.chunks { writer.write("chunks", int: Int64(chunks)) }
    }

    public init(from reader: inout MessagePackReader) throws {
        var cmdId: String?
        var status: Status?
        var seq: UInt64?
        var ack = MemoAck {
            $0.cmdId = ""
            $0.status = .ok
            $0.seq = 0
        }
        try reader.readMap { reader, key in
            switch key {
            case "cmd_id": cmdId = try reader.readString()
            case "status": status = try reader.readEnum(Status.self, field: "status")
            case "seq": seq = try reader.readUInt()
            case "memo_id": ack.memoId = try reader.readNullable { try $0.readString() }
            case "version": ack.version = try reader.readNullable { try $0.readInt() }
            case "reason": ack.reason = try reader.readNullable { try $0.readString() }
            case "results":
                ack.results = try reader.readNullable { reader in
                    var hits: [MemoSearchHit] = []
                    for _ in 0..<(try reader.readArrayHeader()) { hits.append(try MemoSearchHit(from: &reader)) }
                    return hits
                }
            case "export": ack.export = try reader.readNullable { try $0.readString() }
            case "op": ack.op = try reader.readNullable { try $0.readEnum(MemoOp.self, field: "op") }
            case "files":
                ack.files = try reader.readNullable { reader in
                    var files: [MemoExportFile] = []
                    for _ in 0..<(try reader.readArrayHeader()) {
                        var name: String?
                        var content: String?
                        try reader.readMap { reader, key in
                            switch key {
                            case "name": name = try reader.readString()
                            case "content": content = try reader.readString()
                            default: try reader.skip()
                            }
                        }
                        files.append(
                            MemoExportFile(
                                name: try reader.require(name, "files.name"),
                                content: try reader.require(content, "files.content")))
                    }
                    return files
                }
            case "chunk": ack.chunk = try reader.readNullable { try $0.readInteger() }
            case "chunks": ack.chunks = try reader.readNullable { try $0.readInteger() }
            default: try reader.skip()
            }
        }
        ack.cmdId = try reader.require(cmdId, "cmd_id")
        ack.status = try reader.require(status, "status")
        ack.seq = try reader.require(seq, "seq")
        if ack.chunk != nil || ack.chunks != nil {
            guard let chunk = ack.chunk, let chunks = ack.chunks, chunk >= 0, chunk < chunks else {
                throw CodecError(.invalidValue, offset: 0, context: "chunk and chunks: need 0 <= chunk < chunks")
            }
        }
        self = ack
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
