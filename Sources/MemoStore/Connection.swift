import CSQLite

/// One SQLite connection, owned by one thread (opened with `SQLITE_OPEN_NOMUTEX`).
///
/// Statements run through ``Connection/run(_:_:row:)`` are prepared once and cached by
/// their SQL text; every use resets them, so an error never leaves one mid-step.
final class Connection {
    let path: String
    let handle: OpaquePointer
    private var cache: [String: Statement] = [:]

    /// Turns SQLite's memory statistics off before the first connection opens: nothing reads them,
    /// and keeping them took a global mutex on every allocation, ~100 a command (7 % of a batch's
    /// instructions). Evaluated once; SQLITE_MISUSE (SQLite already initialized) leaves them on.
    /// The corresponding C function is `sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0)`.
    private static let memoryStatisticsOff: Int32 = csqlite_config_no_memory_statistics()

    /// Opens (creating if `create`) the database at `path`.
    ///
    /// The corresponding C functions are `sqlite3_open_v2` and `sqlite3_extended_result_codes`.
    init(path: String, create: Bool = true) throws {
        _ = Self.memoryStatisticsOff
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw StoreError(resultCode: code, message: "cannot open \(path): \(message)")
        }
        self.path = path
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
    }

    /// Finalizes the cached statements, then closes. The corresponding C function is `sqlite3_close_v2`.
    deinit {
        self.cache.removeAll()
        sqlite3_close_v2(self.handle)
    }

    /// The error for a failed call, with SQLite's current message.
    ///
    /// The corresponding C functions are `sqlite3_extended_errcode` and `sqlite3_errmsg`.
    func error(_ code: Int32, sql: String?) -> StoreError {
        StoreError(
            resultCode: code & 0xff, extendedCode: sqlite3_extended_errcode(self.handle),
            message: String(cString: sqlite3_errmsg(self.handle)), sql: sql)
    }

    /// Sets how long a locked database is retried. The corresponding C function is `sqlite3_busy_timeout`.
    func setBusyTimeout(milliseconds: Int32) throws {
        let code = sqlite3_busy_timeout(self.handle, milliseconds)
        guard code == SQLITE_OK else { throw self.error(code, sql: nil) }
    }

    /// Whether no transaction is open. The corresponding C function is `sqlite3_get_autocommit`.
    var isAutocommit: Bool { sqlite3_get_autocommit(self.handle) != 0 }

    /// Rows changed by the last statement. The corresponding C function is `sqlite3_changes64`.
    var changes: Int64 { sqlite3_changes64(self.handle) }

    /// The rowid of the last row inserted. The corresponding C function is `sqlite3_last_insert_rowid`.
    var lastInsertRowid: Int64 { sqlite3_last_insert_rowid(self.handle) }

    /// Runs one or more statements that take no parameters (migrations, pragmas, transaction
    /// control). The corresponding C function is `sqlite3_exec`.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(self.handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            var error = self.error(code, sql: sql)
            if let message {
                error.message = String(cString: message)
                sqlite3_free(message)
            }
            throw error
        }
    }

    /// Runs the cached statement for `sql` with `values`, calling `row` for each result row.
    func run(_ sql: String, _ values: [SQLValue] = [], row: (Statement) throws -> Void = { _ in }) throws {
        try self.scan(
            sql, values,
            while: { statement in
                try row(statement)
                return true
            })
    }

    /// Runs the cached statement for `sql` with `values`, calling `row` for each result row
    /// until it returns false.
    func scan(_ sql: String, _ values: [SQLValue], while row: (Statement) throws -> Bool) throws {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        while try statement.step() {
            guard try row(statement) else { return }
        }
    }

    /// The cached statement for `sql`, prepared on first use.
    func statement(_ sql: String) throws -> Statement {
        if let statement = self.cache[sql] { return statement }
        let statement = try Statement(connection: self, sql: sql, persistent: true)
        self.cache[sql] = statement
        return statement
    }

    /// The text of every row's first column.
    func strings(_ sql: String, _ values: [SQLValue] = []) throws -> [String] {
        var rows: [String] = []
        try self.run(sql, values) { rows.append($0.text(0)) }
        return rows
    }

    /// The first row's first column as an integer, or nil when there is no row.
    func int(_ sql: String, _ values: [SQLValue] = []) throws -> Int64? {
        var result: Int64?
        try self.run(sql, values) { if result == nil { result = $0.int(0) } }
        return result
    }
}
