/// One chunk of a board snapshot (schema `memo.snapshot` v1), on `memo/snapshot/`.
///
/// A snapshot answers the `snapshot` command whose `cmd_id` is `request_id`. Chunks count
/// from 0; every chunk carries the `seq` the snapshot reflects and the settings, and the
/// one with `last` set ends it. A client applies the snapshot, then only changes with a
/// greater `seq`.
public struct MemoSnapshot: BusMessage, MessagePackMap, MapFields, Hashable {
    public static let schema = SchemaID("memo.snapshot", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("request_id", "string"), FieldSpec("chunk", "integer"), FieldSpec("last", "boolean"),
        FieldSpec("seq", "integer"), FieldSpec("memos", "array"), FieldSpec("settings", "object"),
        FieldSpec("chunk_count", "integer", required: false), FieldSpec("memo_count", "integer", required: false),
    ]

    public var requestId = ""
    public var chunk = 0
    public var last = false
    public var seq: UInt64 = 0
    public var memos: [MemoRecord] = []
    public var settings = MemoSettings()
    /// How many chunks the snapshot has.
    public var chunkCount: Int?
    /// How many memos the whole snapshot has.
    public var memoCount: Int?

    public init() {}

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

    public mutating func visitFields<V: MapFieldVisitor & ~Copyable>(_ visitor: inout V) throws(V.Failure) {
        try visitor.field("request_id", &self.requestId, .any)
        try visitor.field("chunk", &self.chunk, Int64.min...Int64.max)
        try visitor.field("last", &self.last, .any)
        try visitor.field("seq", &self.seq, 0...UInt64.max)
        try visitor.field("memos", &self.memos, ArrayRule(item: .any))
        try visitor.field("settings", &self.settings, .any)
        try visitor.optional("chunk_count", &self.chunkCount, Int64.min...Int64.max)
        try visitor.optional("memo_count", &self.memoCount, Int64.min...Int64.max)
    }
}
