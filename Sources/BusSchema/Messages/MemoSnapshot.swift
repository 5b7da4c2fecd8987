/// One chunk of a board snapshot (schema `memo.snapshot` v1), on `memo/snapshot/`.
///
/// A snapshot answers the `snapshot` command whose `cmd_id` is `request_id`. Chunks count
/// from 0; every chunk carries the `seq` the snapshot reflects and the settings, and the
/// one with `last` set ends it. A client applies the snapshot, then only changes with a
/// greater `seq`.
public struct MemoSnapshot: BusMessage, Hashable {
    public static let schema = SchemaID("memo.snapshot", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("request_id", "string"), FieldSpec("chunk", "integer"), FieldSpec("last", "boolean"),
        FieldSpec("seq", "integer"), FieldSpec("memos", "array"), FieldSpec("settings", "object"),
        FieldSpec("chunk_count", "integer", required: false), FieldSpec("memo_count", "integer", required: false),
    ]

    public var requestId: String
    public var chunk: Int
    public var last: Bool
    public var seq: UInt64
    public var memos: [MemoRecord]
    public var settings: MemoSettings
    /// How many chunks the snapshot has.
    public var chunkCount: Int?
    /// How many memos the whole snapshot has.
    public var memoCount: Int?

    public init(
        requestId: String, chunk: Int, last: Bool, seq: UInt64, memos: [MemoRecord], settings: MemoSettings,
        chunkCount: Int? = nil, memoCount: Int? = nil
    ) {
        self.requestId = requestId
        self.chunk = chunk
        self.last = last
        self.seq = seq
        self.memos = memos
        self.settings = settings
        self.chunkCount = chunkCount
        self.memoCount = memoCount
    }

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(6 + (self.chunkCount == nil ? 0 : 1) + (self.memoCount == nil ? 0 : 1))
        writer.write("request_id", string: self.requestId)
        writer.write("chunk")
        writer.write(self.chunk)
        writer.write("last", bool: self.last)
        writer.write("seq")
        writer.write(self.seq)
        writer.write("memos")
        writer.writeArrayHeader(self.memos.count)
        for memo in self.memos { memo.encode(to: &writer) }
        writer.write("settings")
        self.settings.encode(to: &writer)
        if let chunkCount = self.chunkCount {
            writer.write("chunk_count")
            writer.write(chunkCount)
        }
        if let memoCount = self.memoCount {
            writer.write("memo_count")
            writer.write(memoCount)
        }
    }

    public init(from reader: inout MessagePackReader) throws {
        var requestId: String?
        var chunk: Int?
        var last: Bool?
        var seq: UInt64?
        var memos: [MemoRecord]?
        var settings: MemoSettings?
        var chunkCount: Int?
        var memoCount: Int?
        try reader.readMap { reader, key in
            switch key {
            case "request_id": requestId = try reader.readString()
            case "chunk": chunk = try reader.readInteger()
            case "last": last = try reader.readBool()
            case "seq": seq = try reader.readUInt()
            case "memos":
                var list: [MemoRecord] = []
                for _ in 0..<(try reader.readArrayHeader()) { list.append(try MemoRecord(from: &reader)) }
                memos = list
            case "settings": settings = try MemoSettings(from: &reader)
            case "chunk_count": chunkCount = try reader.readNullable { try $0.readInteger() }
            case "memo_count": memoCount = try reader.readNullable { try $0.readInteger() }
            default: try reader.skip()
            }
        }
        self.init(
            requestId: try reader.require(requestId, "request_id"), chunk: try reader.require(chunk, "chunk"),
            last: try reader.require(last, "last"), seq: try reader.require(seq, "seq"),
            memos: try reader.require(memos, "memos"), settings: try reader.require(settings, "settings"),
            chunkCount: chunkCount, memoCount: memoCount)
    }
}
