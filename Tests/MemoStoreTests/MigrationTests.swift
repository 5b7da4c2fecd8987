import BusSchema
import CSQLite
import Foundation
import MemoStore
import Testing

@Suite struct MigrationTests {
    @Test func migrationsRunOnceAndAreRecorded() throws {
        let fixture = try StoreFixture()
        #expect(try fixture.open().appliedMigrations() == Array(1...MemoStore.schemaVersion))
        #expect(try fixture.open().appliedMigrations() == Array(1...MemoStore.schemaVersion))
    }

    /// A file from schema version 5 (applied commands keyed by `cmd_id` alone, no payload hash)
    /// is migrated once; its recorded commands still answer their resends as duplicates.
    @Test func databaseFromSchemaVersion5KeepsItsAppliedCommandsKeyedByClient() throws {
        let fixture = try StoreFixture()
        let create = fixture.command(.create) { $0.text = "old" }
        let created: MemoAck
        do { created = try fixture.open().run(create).ack }
        try Self.sql(
            fixture.path,
            """
            CREATE TABLE applied_cmd_v5 (
                cmd_id TEXT PRIMARY KEY, client TEXT NOT NULL, applied_at INTEGER NOT NULL, ack BLOB NOT NULL
            ) WITHOUT ROWID;
            INSERT INTO applied_cmd_v5 SELECT cmd_id, client, applied_at, ack FROM applied_cmd;
            DROP TABLE applied_cmd;
            ALTER TABLE applied_cmd_v5 RENAME TO applied_cmd;
            CREATE INDEX applied_cmd_by_time ON applied_cmd (applied_at);
            DELETE FROM schema_migrations WHERE id = 6;
            """)
        let store = try fixture.open()
        #expect(try store.appliedMigrations() == Array(1...MemoStore.schemaVersion))
        let resent = store.run(create).ack
        #expect(resent.status == .duplicate && resent.memoId == created.memoId && resent.seq == created.seq)
        // No hash was kept before: an old id reused with another payload can only be taken as a resend.
        var reused = create
        reused.text = "new"
        #expect(store.run(reused).ack.status == .duplicate)
        // Commands after the migration are told apart by client and payload.
        var other = create
        other.client = "u"
        #expect(store.run(other).ack.status == .ok)
        var changed = other
        changed.text = "changed"
        #expect(store.run(changed).ack.reason?.hasPrefix("cmd_id_reused") == true)
        #expect(try store.allMemos().map(\.text) == ["old", "old"])
        #expect(try MemoCheck.run(path: fixture.path).isSound)
    }

    @Test func databaseFromANewerStoreIsRefusedWithAClearMessage() throws {
        let fixture = try StoreFixture()
        do { _ = try fixture.open() }
        try Self.sql(fixture.path, "INSERT INTO schema_migrations (id, name) VALUES (99, 'from the future')")
        #expect {
            _ = try fixture.open()
        } throws: { error in
            let error = try #require(error as? SchemaVersionError)
            return error.found == 99 && error.known == MemoStore.schemaVersion
                && error.description.contains("newer than this memo-store knows")
        }
    }

    @Test func reopeningAfterCloseKeepsEveryCommittedCommand() throws {
        let fixture = try StoreFixture()
        var expected: [String] = []
        do {
            let store = try fixture.open()
            for text in ["東京タワー", "ＡＢＣ", "memo"] { expected.append(store.create(fixture, text: text)) }
            _ = store.run(fixture.command(.background) { $0.image = "cork.png" })
        }
        let store = try fixture.open()
        #expect(try store.allMemos().map(\.id) == expected)
        #expect(try store.settings().background == "cork.png")
        #expect(try store.search("タワー", includeTrash: false).count == 1)
    }

    @Test func storeRunsInWALWithSynchronousFull() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        _ = store.create(fixture, text: "a")
        #expect(FileManager.default.fileExists(atPath: fixture.path + "-wal"))
    }

    @Test func damagedFileIsRefusedAtOpenWithAClearError() throws {
        let fixture = try StoreFixture()
        try Self.makeDamagedDatabase(fixture)
        #expect {
            _ = try fixture.open()
        } throws: { error in
            (error as? StoreError)?.message.contains("is damaged") == true
        }
    }

    @Test func fileThatIsNoDatabaseIsRefused() throws {
        let fixture = try StoreFixture()
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: fixture.path))
        #expect(throws: StoreError.self) { _ = try fixture.open() }
    }

    /// A real memo database with one of its table pages overwritten by garbage.
    static func makeDamagedDatabase(_ fixture: StoreFixture) throws {
        try fixture.seed((0..<400).map { String(repeating: "メモ\($0) ", count: 20) })
        try Self.sql(fixture.path, "PRAGMA wal_checkpoint(TRUNCATE)")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
        let pageSize = 4096
        for page in [3, 4, 5] {
            for offset in (page * pageSize)..<min(bytes.count, page * pageSize + 600) { bytes[offset] = 0xA5 }
        }
        try bytes.write(to: URL(fileURLWithPath: fixture.path))
    }

    /// Runs SQL on the file through a separate plain connection.
    static func sql(_ path: String, _ statement: String) throws {
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw StoreError(resultCode: 1, message: "open") }
        defer { sqlite3_close(db) }
        let code = sqlite3_exec(db, statement, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw StoreError(resultCode: code, message: String(cString: sqlite3_errmsg(db)))
        }
    }
}
