import CSQLite

/// A value bound to a statement parameter.
enum SQLValue {
    case int(Int64)
    case double(Double)
    case text(String)
    /// Text already encoded as UTF-8.
    case utf8([UInt8])
    case null
}

/// One prepared statement; reset after every use so a cached one can be reused.
final class Statement {
    let sql: String
    private let handle: OpaquePointer
    private unowned let connection: Connection

    /// Compiles `sql`. The corresponding C function is `sqlite3_prepare_v3`.
    init(connection: Connection, sql: String, persistent: Bool) throws {
        self.sql = sql
        self.connection = connection
        var handle: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, flags, &handle, nil)
        guard code == SQLITE_OK, let handle else { throw connection.error(code, sql: sql) }
        self.handle = handle
    }

    /// The corresponding C function is `sqlite3_finalize`.
    deinit {
        sqlite3_finalize(self.handle)
    }

    /// Binds `values` to parameters 1… in order.
    ///
    /// The corresponding C functions are `sqlite3_bind_int64`, `sqlite3_bind_double`,
    /// `sqlite3_bind_text` (copied: `SQLITE_TRANSIENT`) and `sqlite3_bind_null`.
    func bind(_ values: [SQLValue]) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .int(let int): code = sqlite3_bind_int64(self.handle, index, int)
            case .double(let double): code = sqlite3_bind_double(self.handle, index, double)
            case .text(let text):
                let count = Int32(clamping: text.utf8.count)
                code = text.withCString { sqlite3_bind_text(self.handle, index, $0, count, csqlite_transient()) }
            case .utf8(let bytes):
                // An empty array may have no storage; SQLite needs a non-null pointer for "".
                code = (bytes.isEmpty ? [0] : bytes).withUnsafeBytes {
                    sqlite3_bind_text(
                        self.handle, index, $0.baseAddress!.assumingMemoryBound(to: CChar.self),
                        Int32(clamping: bytes.count), csqlite_transient())
                }
            case .null: code = sqlite3_bind_null(self.handle, index)
            }
            guard code == SQLITE_OK else { throw self.connection.error(code, sql: self.sql) }
        }
    }

    /// Steps once; true when a row is ready. The corresponding C function is `sqlite3_step`.
    func step() throws -> Bool {
        switch sqlite3_step(self.handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw self.connection.error(code, sql: self.sql)
        }
    }

    /// Clears the bindings and rewinds, ready for the next use.
    ///
    /// The corresponding C functions are `sqlite3_reset` and `sqlite3_clear_bindings`.
    func reset() {
        sqlite3_reset(self.handle)
        sqlite3_clear_bindings(self.handle)
    }

    /// Whether column `index` is NULL. The corresponding C function is `sqlite3_column_type`.
    func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(self.handle, index) == SQLITE_NULL
    }

    /// The corresponding C function is `sqlite3_column_int64`.
    func int(_ index: Int32) -> Int64 {
        sqlite3_column_int64(self.handle, index)
    }

    /// The corresponding C function is `sqlite3_column_double`.
    func double(_ index: Int32) -> Double {
        sqlite3_column_double(self.handle, index)
    }

    /// The column as UTF-8 text ("" for NULL).
    ///
    /// The corresponding C functions are `sqlite3_column_text` and `sqlite3_column_bytes`.
    func text(_ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(self.handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(self.handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column as bytes (empty for NULL).
    ///
    /// The corresponding C functions are `sqlite3_column_blob` and `sqlite3_column_bytes`.
    func blob(_ index: Int32) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(self.handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(self.handle, index))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// Binds `blob` as parameter `index`. The corresponding C function is `sqlite3_bind_blob`.
    func bind(blob: [UInt8], at index: Int32) throws {
        let code = blob.withUnsafeBytes {
            sqlite3_bind_blob(
                self.handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count),
                csqlite_transient())
        }
        guard code == SQLITE_OK else { throw self.connection.error(code, sql: self.sql) }
    }
}
