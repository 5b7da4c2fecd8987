import BusSchema
import CSQLite

/// Durable, idempotent memo persistence on one SQLite file.
///
/// One `MemoStore` owns one connection and must be used from one thread. The service
/// loop is:
///
/// ```swift
/// let store = try MemoStore(path: "var/memo.sqlite")
/// let result = store.apply(batch: commands, now: nowMilliseconds)
/// // publish result.acks, then result.changes and result.snapshots
/// ```
///
/// Every write runs in `BEGIN IMMEDIATE … COMMIT` with WAL and `synchronous=FULL`, so once
/// ``apply(batch:now:)`` returns an `ok` ack the command survives a process crash or power loss.
/// The library never reads a clock: time comes in as `now`.
public final class MemoStore {
    public let path: String
    public let configuration: MemoStoreConfiguration
    let connection: Connection
    /// The committed search forms for 1–2 character queries, loaded on first use.
    var normalizedTexts: NormalizedTexts?
    /// Search forms changed by the open transaction, in order; applied to ``normalizedTexts``
    /// after COMMIT, dropped on ROLLBACK.
    var uncommittedNorms: [(rowid: Int64, norm: [UInt8]?)] = []

    /// Opens (creating if needed) the memo database at `path`, checks it and migrates it.
    ///
    /// - Throws: ``StoreError`` if the file cannot be opened or fails `PRAGMA quick_check`;
    ///   ``SchemaVersionError`` if a newer memo store wrote it.
    public init(path: String, configuration: MemoStoreConfiguration = MemoStoreConfiguration()) throws {
        self.path = path
        self.configuration = configuration
        self.connection = try Connection(path: path)
        try self.connection.setBusyTimeout(milliseconds: configuration.busyTimeoutMilliseconds)
        try Self.quickCheck(self.connection)
        let mode = try self.connection.strings("PRAGMA journal_mode = WAL")
        guard mode == ["wal"] else {
            throw StoreError(resultCode: SQLITE_ERROR, message: "could not enable WAL (journal_mode is \(mode))")
        }
        try self.connection.execute("PRAGMA synchronous = FULL")
        guard try self.connection.int("PRAGMA synchronous") == 2 else {
            throw StoreError(resultCode: SQLITE_ERROR, message: "could not set synchronous = FULL")
        }
        try self.connection.execute("PRAGMA foreign_keys = ON")
        try self.connection.execute("PRAGMA cache_size = -\(configuration.cacheKibibytes)")
        try Migrator(migrations: MemoSchema.migrations).migrate(self.connection)
        if let pages = configuration.maximumPageCount {
            _ = try self.connection.strings("PRAGMA max_page_count = \(pages)")
        }
    }

    /// The migration ids recorded in the file.
    public func appliedMigrations() throws -> [Int] {
        try Migrator.appliedIDs(self.connection)
    }

    /// The highest migration id this build knows.
    public static var schemaVersion: Int { Migrator(migrations: MemoSchema.migrations).latest }

    /// `PRAGMA quick_check`, turning any finding (or a file that is no database) into a clear error.
    private static func quickCheck(_ connection: Connection) throws {
        let sql = "PRAGMA quick_check"
        let findings: [String]
        do {
            findings = try connection.strings(sql)
        } catch let error as StoreError where error.resultCode == SQLITE_CORRUPT || error.resultCode == SQLITE_NOTADB {
            throw StoreError.damaged(connection.path, [error.message], sql: sql)
        }
        guard findings == ["ok"] else { throw StoreError.damaged(connection.path, findings, sql: sql) }
    }
}
