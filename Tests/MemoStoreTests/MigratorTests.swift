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

@Suite struct CivilTimeTests {
    @Test(arguments: [
        (Int64(0), "Thu, 1 Jan 1970 00:00:00 +0000", "Thu Jan  1 00:00:00 1970"),
        (951_782_400_000, "Tue, 29 Feb 2000 00:00:00 +0000", "Tue Feb 29 00:00:00 2000"),
        (1_767_225_712_456, "Thu, 1 Jan 2026 00:01:52 +0000", "Thu Jan  1 00:01:52 2026"),
        (-1, "Wed, 31 Dec 1969 23:59:59 +0000", "Wed Dec 31 23:59:59 1969"),
        (4_107_542_399_000, "Sun, 28 Feb 2100 23:59:59 +0000", "Sun Feb 28 23:59:59 2100"),
    ])
    func formatsMillisecondsAsUTC(milliseconds: Int64, rfc5322: String, asctime: String) {
        let time = CivilTime(milliseconds: milliseconds)
        #expect(time.rfc5322 == rfc5322)
        #expect(time.asctime == asctime)
    }
}
