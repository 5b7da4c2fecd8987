import BusSchema
import CSQLite
import MemoStore
import Testing

/// The trigram index is brought in step once per batch (`memo_fts_stale`), and 1–2 character
/// queries read an in-memory copy of the `norm` column: both must always answer as the rows do.
@Suite struct SearchIndexTests {
    @Test func indexFollowsABatchThatCreatesEditsTrashesAndReusesARowid() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        _ = try store.search("猫", includeTrash: true)  // loads the in-memory copy before the writes
        let first = store.apply(
            batch: [
                fixture.command(.create) { $0.text = "東京タワーの猫" },
                fixture.command(.create) { $0.text = "大阪城の犬" },
                fixture.command(.create) { $0.text = "京都の鯨" },
                fixture.command(.edit) {
                    $0.memoId = "m2"
                    $0.text = "大阪城の猫"
                    $0.baseVersion = 1
                },
                fixture.command(.trash) { $0.memoId = "m3" },
            ], now: 1)
        #expect(first.acks.allSatisfy { $0.message.status == .ok })
        #expect(try store.search("猫", includeTrash: true).map(\.memoId) == ["m2", "m1"])
        #expect(try store.search("大阪城の猫", includeTrash: true).map(\.memoId) == ["m2"])
        #expect(try store.search("大阪城の犬", includeTrash: true).isEmpty)
        #expect(try store.search("犬", includeTrash: true).isEmpty)
        #expect(try store.search("鯨", includeTrash: false).isEmpty)
        #expect(try store.search("鯨", includeTrash: true).map(\.trashed) == [true])
        // Emptying the trash deletes the newest row; the next create takes its rowid.
        let second = store.apply(
            batch: [fixture.command(.emptyTrash), fixture.command(.create) { $0.text = "名古屋の鯨" }], now: 2)
        #expect(second.acks.allSatisfy { $0.message.status == .ok })
        #expect(try store.search("鯨", includeTrash: true).map(\.memoId) == ["m4"])
        #expect(try store.search("京都の鯨", includeTrash: true).isEmpty)
        #expect(try store.search("名古屋の鯨", includeTrash: true).map(\.memoId) == ["m4"])
        #expect(try Self.staleRows(fixture.path) == 0)
        #expect(try MemoCheck.run(path: fixture.path).isSound)
    }

    @Test func searchInsideABatchSeesTheCommandsBeforeIt() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        _ = store.create(fixture, text: "古い東京")
        _ = try store.search("東京", includeTrash: true)
        let result = store.apply(
            batch: [
                fixture.command(.create) { $0.text = "新しい東京タワー" },
                fixture.command(.search) { $0.query = "東京タワー" },
                fixture.command(.search) { $0.query = "東京" },
                fixture.command(.edit) {
                    $0.memoId = "m1"
                    $0.text = "大阪"
                    $0.baseVersion = 1
                },
                fixture.command(.search) { $0.query = "東京" },
            ], now: 1)
        let hits = result.acks.map { $0.message.results?.map(\.memoId) }
        #expect(hits[1] == ["m2"])
        #expect(hits[2] == ["m2", "m1"])
        #expect(hits[4] == ["m2"])
        #expect(try store.search("東京", includeTrash: true).map(\.memoId) == ["m2"])
        #expect(try MemoCheck.run(path: fixture.path).isSound)
    }

    @Test func shortQueriesSeeWhatAnotherConnectionCommitted() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        #expect(try store.search("猫", includeTrash: true).isEmpty)
        do {
            let other = try fixture.open()
            _ = other.create(fixture, text: "猫の餌")
        }
        #expect(try store.search("猫", includeTrash: true).map(\.memoId) == ["m1"])
    }

    @Test func batchThatWasNotStoredLeavesShortQueriesAsCommitted() throws {
        let fixture = try StoreFixture()
        do { _ = try fixture.open() }
        var configuration = MemoStoreConfiguration()
        configuration.maximumPageCount = 40
        let store = try fixture.open(configuration)
        _ = try store.search("鯨", includeTrash: true)
        var stored = 0
        for round in 0..<200 {
            let batch = (0..<10).map { index in
                fixture.command(.create) { $0.text = String(repeating: "鯨\(round)-\(index) ", count: 40) }
            }
            let result = store.apply(batch: batch, now: 1)
            if result.storageError != nil { break }
            stored += result.acks.count
        }
        #expect(stored > 0)
        #expect(try store.search("鯨", includeTrash: true).count == stored)
        #expect(try store.search("鯨0-", includeTrash: true).count == 10)
        #expect(try MemoCheck.run(path: fixture.path).isSound)
    }

    /// A file written before migration 4 (index kept by per-row triggers) is migrated once,
    /// keeps its index, and its later edits keep the index in step.
    @Test func databaseFromSchemaVersion3IsMigratedAndKeepsItsIndex() throws {
        let fixture = try StoreFixture()
        try fixture.seed(["東京タワーの猫"])
        try MigrationTests.sql(
            fixture.path,
            """
            DROP TRIGGER memo_fts_stale_insert; DROP TRIGGER memo_fts_stale_delete; DROP TRIGGER memo_fts_stale_update;
            DROP TABLE memo_fts_stale;
            \(MemoSchema.perRowIndexTriggers)
            INSERT INTO memo (id, text, norm, x, y, width, height, scale, rotation, z, color, minimized,
                              created_at, updated_at, version)
            VALUES ('old', '大阪城の犬', '大阪城の犬', 0, 0, 100, 100, 1, 0, 2, 'yellow', 0, 1, 1, 1);
            DELETE FROM schema_migrations WHERE id = 4;
            """)
        #expect(try MemoCheck.run(path: fixture.path).isSound)
        let store = try fixture.open()
        #expect(try store.appliedMigrations() == Array(1...MemoStore.schemaVersion))
        #expect(try store.search("大阪城の犬", includeTrash: true).map(\.memoId) == ["old"])
        #expect(try store.search("犬", includeTrash: true).map(\.memoId) == ["old"])
        let edit = store.run(
            fixture.command(.edit) {
                $0.memoId = "old"
                $0.text = "大阪城の猫"
                $0.baseVersion = 1
            })
        #expect(edit.ack.status == .ok)
        #expect(try store.search("大阪城の犬", includeTrash: true).isEmpty)
        #expect(try store.search("猫", includeTrash: true).map(\.memoId) == ["old", "m1"])
        #expect(try MemoCheck.run(path: fixture.path).isSound)
        #expect(try fixture.open().appliedMigrations() == Array(1...MemoStore.schemaVersion))
    }

    /// A file whose index FTS5 case-folds (schema version 4) is re-indexed once without the
    /// folding and finds what it found before, upper-case queries included.
    @Test func databaseFromSchemaVersion4IsReindexedWithoutFTSCaseFolding() throws {
        let fixture = try StoreFixture()
        try fixture.seed(["ＡＢＣ商事の東京タワー", "Weekly Report"])
        try MigrationTests.sql(
            fixture.path,
            """
            DROP TABLE memo_fts;
            CREATE VIRTUAL TABLE memo_fts USING fts5 (
                norm, content = 'memo', content_rowid = 'rowid', tokenize = 'trigram', detail = 'none');
            INSERT INTO memo_fts (memo_fts) VALUES ('rebuild');
            DELETE FROM schema_migrations WHERE id = 5;
            """)
        #expect(try Self.indexDefinition(fixture.path).contains("case_sensitive") == false)
        let store = try fixture.open()
        #expect(try store.appliedMigrations() == Array(1...MemoStore.schemaVersion))
        #expect(try Self.indexDefinition(fixture.path).contains("'trigram case_sensitive 1'"))
        #expect(try MemoCheck.run(path: fixture.path).isSound)
        #expect(try store.search("abc商事", includeTrash: true).map(\.memoId) == ["m1"])
        #expect(try store.search("REPORT", includeTrash: true).map(\.memoId) == ["m2"])
        #expect(try store.search("Weekly", includeTrash: true).first?.ranges == [0..<6])
        _ = store.create(fixture, text: "WEEKLY memo")
        #expect(try store.search("weekly", includeTrash: true).map(\.memoId) == ["m3", "m2"])
    }

    /// The `CREATE VIRTUAL TABLE` statement `memo_fts` was made with.
    static func indexDefinition(_ path: String) throws -> String {
        try Self.firstValue(path, "SELECT sql FROM sqlite_master WHERE name = 'memo_fts'")
    }

    /// The normalizer's plain-scalar fast path must cut clusters as `Character` iteration does:
    /// a combining mark after a plain letter or kana belongs to it.
    @Test func combiningMarksAfterPlainScalarsStayWithTheirBaseCharacter() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        _ = store.create(fixture, text: "Cafe\u{301} au lait")
        _ = store.create(fixture, text: "カ\u{3099}ス代\r\nＡＢＣ")
        #expect(try store.search("café", includeTrash: true).first?.ranges == [0..<5])
        #expect(try store.search("ガス", includeTrash: true).first?.ranges == [0..<3])
        #expect(try store.search("が", includeTrash: true).first?.ranges == [0..<2])
        #expect(try store.search("代\r\nabc", includeTrash: true).first?.ranges == [3..<9])
    }

    /// The normalizer decodes UTF-8 itself: scalars of two and four bytes keep their offsets.
    @Test func twoAndFourByteScalarsKeepTheirOffsets() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        _ = store.create(fixture, text: "𠮷野家のÉclair 😀 ok")
        #expect(try Self.firstValue(fixture.path, "SELECT norm FROM memo") == "𠮷野家のéclair 😀 ok")
        #expect(try store.search("𠮷野", includeTrash: true).first?.ranges == [0..<2])
        #expect(try store.search("野家", includeTrash: true).first?.ranges == [1..<3])
        #expect(try store.search("éclair", includeTrash: true).first?.ranges == [4..<10])
        #expect(try store.search("😀 OK", includeTrash: true).first?.ranges == [11..<15])
    }

    /// Half-width katakana take a table instead of Foundation; the voiced and semi-voiced marks
    /// compose with their letter where Unicode has the letter, and stay apart elsewhere.
    @Test func halfWidthKatakanaWithVoicedMarksNormalizeLikeNFKC() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        _ = store.create(fixture, text: "ﾊﾟﾝとﾊﾞｽ、ｳﾞｨｰｶﾞﾝ")
        _ = store.create(fixture, text: "ｱﾞﾂﾞｹ")
        #expect(try store.search("パン", includeTrash: true).first?.ranges == [0..<3])
        #expect(try store.search("ばす", includeTrash: true).first?.ranges == [4..<7])
        #expect(try store.search("ゔぃーがん", includeTrash: true).first?.ranges == [8..<15])
        #expect(try store.search("づけ", includeTrash: true).first?.ranges == [2..<5])
        #expect(try store.search("あ\u{3099}", includeTrash: true).first?.ranges == [0..<2])
        #expect(try store.search("は", includeTrash: true).isEmpty)
    }

    /// How many rows `memo_fts_stale` holds (0 after every committed batch).
    static func staleRows(_ path: String) throws -> Int {
        Int(try Self.firstValue(path, "SELECT count(*) FROM memo_fts_stale")) ?? -1
    }

    /// The first row's first column of `sql`, as text, read through a separate read-only connection.
    static func firstValue(_ path: String, _ sql: String) throws -> String {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            throw StoreError(resultCode: 1, message: "open")
        }
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw StoreError(resultCode: 1, message: String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else {
            throw StoreError(resultCode: 1, message: "no row for \(sql)")
        }
        return String(cString: text)
    }
}
