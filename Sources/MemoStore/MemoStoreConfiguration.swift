/// Limits, defaults and layout the memo store works with.
public struct MemoStoreConfiguration: Sendable {
    /// How long a write waits for a lock held by another connection (a `check` or backup).
    public var busyTimeoutMilliseconds: Int32 = 5000
    /// SQLite's page cache for the connection, in KiB (`PRAGMA cache_size = -N`).
    public var cacheKibibytes = 32 * 1024
    /// A cap on the file size in pages (`PRAGMA max_page_count`), or nil for SQLite's default.
    /// Reaching it behaves like a full disk: the batch is rejected with `SQLITE_FULL`.
    public var maximumPageCount: Int?
    /// The largest memo text accepted, in UTF-8 bytes; longer texts are rejected.
    public var maximumTextBytes = 64 * 1024
    /// The longest `cmd_id`, `client`, `memo_id`, colour or image reference accepted, in UTF-8 bytes.
    public var maximumNameBytes = 256
    /// Coordinates and sizes beyond this magnitude are rejected.
    public var maximumCoordinate = 1_000_000.0
    /// The largest command payload answered normally, in bytes; a larger one is answered
    /// `rejected` with reason `too_large` (the service reads payloads up to the bus's
    /// transport limit so it can still answer them).
    public var maximumCommandBytes = 128 * 1024
    /// The largest ack payload published as one message, in bytes; a larger export or search
    /// answer goes out in parts (``MemoAck/chunked(maximumBytes:)``). Below the 1 MiB a
    /// service's subscriber takes by default.
    public var maximumAckBytes = 256 * 1024
    /// Memos per `memo.snapshot` chunk.
    public var snapshotChunkSize = 100
    /// The most search results one ack carries.
    public var searchLimit = 200
    /// Size and colour of a memo created without them.
    public var defaultWidth = 200.0
    public var defaultHeight = 200.0
    public var defaultColor = "yellow"
    /// Where `arrange` puts minimized memos.
    public var arrangeLayout = ArrangeLayout()
    /// The `From:`/`To:` address of exported mail.
    public var mailAddress = "FloatyMemo <memo@localhost>"

    public init() {}
}
