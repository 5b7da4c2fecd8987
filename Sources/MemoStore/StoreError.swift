import CSQLite

/// An SQLite call that failed: its result codes, SQLite's message and the SQL it ran.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The primary result code (`SQLITE_FULL`, `SQLITE_CORRUPT`, …).
    public var resultCode: Int32
    /// The extended result code (`SQLITE_IOERR_FSYNC`, …); equal to `resultCode` when none.
    public var extendedCode: Int32
    public var message: String
    /// The statement that failed, or nil for connection-level calls.
    public var sql: String?

    public init(resultCode: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
        self.resultCode = resultCode
        self.extendedCode = extendedCode ?? resultCode
        self.message = message
        self.sql = sql
    }

    public var description: String {
        let statement = self.sql.map { " [\($0)]" } ?? ""
        return "SQLite error \(self.resultCode) (extended \(self.extendedCode)): \(self.message)\(statement)"
    }

    /// Whether the failure belongs to one command (a constraint or a too-big value) rather
    /// than to the storage (full disk, I/O error, corruption), which fails the whole batch.
    var isCommandLevel: Bool {
        self.resultCode == SQLITE_CONSTRAINT || self.resultCode == SQLITE_TOOBIG || self.resultCode == SQLITE_RANGE
            || self.resultCode == SQLITE_MISMATCH
    }

    /// The file is damaged: it failed `quick_check` or is not a database.
    static func damaged(_ path: String, _ findings: [String], sql: String) -> StoreError {
        StoreError(
            resultCode: SQLITE_CORRUPT,
            message: "memo database \(path) is damaged: \(findings.prefix(5).joined(separator: "; "))"
                + " (run `memo-store check --db \(path)`; restore from a backup)", sql: sql)
    }
}

/// The file was written by a newer memo store than this one.
public struct SchemaVersionError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    /// The highest migration the file has.
    public var found: Int
    /// The highest migration this build knows.
    public var known: Int

    public var description: String {
        "memo database \(self.path) has schema version \(self.found), newer than this memo-store knows (\(self.known));"
            + " refusing to open it. Use a newer memo-store."
    }
}
