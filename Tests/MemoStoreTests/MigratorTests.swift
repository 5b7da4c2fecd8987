import Testing

@testable import MemoStore

@Suite struct MigratorTests {
    private static let migrations = [
        Migration(id: 1, name: "table", sql: "CREATE TABLE t (x INTEGER)"),
        Migration(id: 2, name: "row", sql: "INSERT INTO t VALUES (1)"),
    ]

    @Test func eachMigrationRunsOnceAcrossOpens() throws {
        let fixture = try StoreFixture()
        let connection = try Connection(path: fixture.path)
        #expect(try Migrator(migrations: Self.migrations).migrate(connection) == [1, 2])
        #expect(try Migrator(migrations: Self.migrations).migrate(connection) == [])
        #expect(try connection.int("SELECT count(*) FROM t") == 1)
    }

    @Test func newMigrationRunsOnAnOlderFile() throws {
        let fixture = try StoreFixture()
        let connection = try Connection(path: fixture.path)
        try Migrator(migrations: Array(Self.migrations.prefix(1))).migrate(connection)
        #expect(try Migrator(migrations: Self.migrations).migrate(connection) == [2])
    }

    @Test func failingMigrationRollsBackAndIsNotRecorded() throws {
        let fixture = try StoreFixture()
        let connection = try Connection(path: fixture.path)
        let broken =
            Self.migrations + [
                Migration(id: 3, name: "broken", sql: "INSERT INTO t VALUES (2); INSERT INTO missing VALUES (1)")
            ]
        #expect(throws: StoreError.self) { try Migrator(migrations: broken).migrate(connection) }
        #expect(try Migrator.appliedIDs(connection) == [1, 2])
        #expect(try connection.int("SELECT count(*) FROM t") == 1)
    }
}
