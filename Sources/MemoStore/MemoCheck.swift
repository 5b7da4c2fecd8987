import CSQLite

/// The findings of ``MemoCheck/run(path:)``: SQLite's integrity check, the FTS5 index check
/// and the foreign key check on a memo database.
public struct MemoCheckReport: Sendable, Hashable {
    /// `PRAGMA integrity_check` rows (`["ok"]` when sound).
    public var integrity: [String] = []
    /// Why `INSERT INTO memo_fts(memo_fts) VALUES('integrity-check')` failed, or nil when it passed.
    public var searchIndex: String?
    /// `PRAGMA foreign_key_check` rows (none when sound).
    public var foreignKeys: [String] = []
    /// The migrations recorded in the file.
    public var migrations: [Int] = []

    public var isSound: Bool { self.integrity == ["ok"] && self.searchIndex == nil && self.foreignKeys.isEmpty }

    /// One line per check, for `memo-store check`.
    public var lines: [String] {
        [
            "integrity_check: " + self.integrity.joined(separator: "; "),
            "fts5 integrity-check: " + (self.searchIndex ?? "ok"),
            "foreign_key_check: " + (self.foreignKeys.isEmpty ? "ok" : self.foreignKeys.joined(separator: "; ")),
            "schema migrations: " + self.migrations.map(String.init).joined(separator: ","),
            self.isSound ? "result: ok" : "result: DAMAGED",
        ]
    }
}

/// Checks a memo database without opening it as a store (no migrations, no quick_check),
/// so a damaged file is reported rather than refused.
public enum MemoCheck {
    /// Runs every check on the file at `path`.
    ///
    /// - Throws: ``StoreError`` when the file cannot be opened at all (missing, unreadable).
    public static func run(path: String) throws -> MemoCheckReport {
        let connection = try Connection(path: path, create: false)
        var report = MemoCheckReport()
        do {
            report.integrity = try connection.strings("PRAGMA integrity_check")
        } catch let error as StoreError {
            report.integrity = [error.message]
        }
        do {
            try connection.execute("INSERT INTO memo_fts (memo_fts) VALUES ('integrity-check')")
        } catch let error as StoreError {
            report.searchIndex = error.message
        }
        do {
            try connection.run("PRAGMA foreign_key_check") { row in
                report.foreignKeys.append("\(row.text(0)) row \(row.int(1)) -> \(row.text(2))")
            }
        } catch let error as StoreError {
            report.foreignKeys = [error.message]
        }
        report.migrations = (try? Migrator.appliedIDs(connection)) ?? []
        return report
    }
}
