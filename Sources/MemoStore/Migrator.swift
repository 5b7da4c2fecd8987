/// One schema step: an id that orders it and the SQL that performs it.
///
/// A shipped migration is never edited; a change is a new migration with the next id.
struct Migration {
    var id: Int
    var name: String
    var sql: String
}

/// Applies migrations in order, each in its own `BEGIN IMMEDIATE` transaction together with
/// the row that records it in `schema_migrations`, so each runs exactly once.
struct Migrator {
    var migrations: [Migration]

    /// The highest migration id this build knows.
    var latest: Int { self.migrations.map(\.id).max() ?? 0 }

    /// Runs the migrations `connection` has not recorded yet.
    ///
    /// - Returns: the ids applied now, in order.
    /// - Throws: ``SchemaVersionError`` if the file has a migration newer than ``latest``;
    ///   ``StoreError`` if a migration fails (its transaction is rolled back).
    @discardableResult
    func migrate(_ connection: Connection) throws -> [Int] {
        try connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        let applied = Set(try Self.appliedIDs(connection))
        if let newest = applied.max(), newest > self.latest {
            throw SchemaVersionError(path: connection.path, found: newest, known: self.latest)
        }
        var ran: [Int] = []
        for migration in self.migrations.sorted(by: { $0.id < $1.id }) where !applied.contains(migration.id) {
            try connection.execute("BEGIN IMMEDIATE")
            do {
                try connection.execute(migration.sql)
                try connection.run(
                    "INSERT INTO schema_migrations (id, name) VALUES (?, ?)",
                    [.int(Int64(migration.id)), .text(migration.name)])
                try connection.execute("COMMIT")
            } catch {
                if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
                throw error
            }
            ran.append(migration.id)
        }
        return ran
    }

    /// The migration ids recorded in the file, in order.
    static func appliedIDs(_ connection: Connection) throws -> [Int] {
        var ids: [Int] = []
        try connection.run("SELECT id FROM schema_migrations ORDER BY id") { ids.append(Int($0.int(0))) }
        return ids
    }
}
