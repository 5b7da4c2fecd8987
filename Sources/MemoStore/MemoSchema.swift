/// The memo store's tables, as an ordered list of migrations.
///
/// - `memo`: one row per memo; `norm` is the search form of `text` (see ``SearchText``).
/// - `memo_fts`: an external-content FTS5 `trigram` index over `norm`. Trashed memos stay
///   indexed so search covers the trash. `detail = 'none'` keeps no positions: the index is a
///   fraction of the size and cheaper to write; search checks every candidate exactly.
///   `case_sensitive 1` (migration 5): `norm` and queries are already case-folded by
///   ``SearchText``, so FTS5's own folding of every character only cost time (6 % of a batch).
/// - `memo_fts_stale`: the memos whose `norm` changed since `memo_fts` was last brought in step,
///   with the `norm` the index still holds for them (NULL: not indexed). Triggers on `memo` fill
///   it; the store empties it into `memo_fts` once per batch (see ``MemoStore/syncSearchIndex()``),
///   because FTS5 in SQLite 3.40 writes a new index segment at every statement or savepoint end
///   it has pending terms at, which made index upkeep the larger half of every create and edit.
/// - `applied_cmd`: every applied command's client, id, payload hash and stored ack, for
///   duplicate detection keyed by (client, cmd_id) (migration 6; before it, by `cmd_id` alone
///   and without a hash, which such rows keep as NULL).
/// - `store_state`: one row with the global change `seq`, the memo id counter and the settings.
public enum MemoSchema {
    /// Migration 2's triggers, which kept `memo_fts` in step row by row until migration 4
    /// replaced them (a test rebuilds a version-3 file with them).
    public static let perRowIndexTriggers = """
        CREATE TRIGGER memo_fts_insert AFTER INSERT ON memo BEGIN
            INSERT INTO memo_fts (rowid, norm) VALUES (new.rowid, new.norm);
        END;
        CREATE TRIGGER memo_fts_delete AFTER DELETE ON memo BEGIN
            INSERT INTO memo_fts (memo_fts, rowid, norm) VALUES ('delete', old.rowid, old.norm);
        END;
        CREATE TRIGGER memo_fts_update AFTER UPDATE OF norm ON memo BEGIN
            INSERT INTO memo_fts (memo_fts, rowid, norm) VALUES ('delete', old.rowid, old.norm);
            INSERT INTO memo_fts (rowid, norm) VALUES (new.rowid, new.norm);
        END;
        """

    static let migrations: [Migration] = [
        Migration(
            id: 1, name: "memo tables",
            sql: """
                CREATE TABLE memo (
                    rowid INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    text TEXT NOT NULL,
                    norm TEXT NOT NULL,
                    x REAL NOT NULL, y REAL NOT NULL, width REAL NOT NULL, height REAL NOT NULL,
                    scale REAL NOT NULL, rotation REAL NOT NULL,
                    z INTEGER NOT NULL,
                    color TEXT NOT NULL,
                    minimized INTEGER NOT NULL CHECK (minimized IN (0, 1)),
                    trashed_at INTEGER,
                    created_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL,
                    version INTEGER NOT NULL
                );
                CREATE TABLE applied_cmd (
                    cmd_id TEXT PRIMARY KEY,
                    client TEXT NOT NULL,
                    applied_at INTEGER NOT NULL,
                    ack BLOB NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX applied_cmd_by_time ON applied_cmd (applied_at);
                CREATE TABLE store_state (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    seq INTEGER NOT NULL,
                    next_memo INTEGER NOT NULL,
                    arrange_order TEXT NOT NULL,
                    background TEXT
                );
                INSERT INTO store_state (id, seq, next_memo, arrange_order, background) VALUES (1, 0, 1, 'created', NULL);
                """),
        Migration(
            id: 2, name: "trigram search index",
            sql: """
                CREATE VIRTUAL TABLE memo_fts USING fts5 (
                    norm, content = 'memo', content_rowid = 'rowid', tokenize = 'trigram', detail = 'none');
                \(perRowIndexTriggers)
                INSERT INTO memo_fts (memo_fts) VALUES ('rebuild');
                """),
        Migration(
            id: 3, name: "stacking order index",
            sql: "CREATE INDEX memo_by_z ON memo (z)"),
        Migration(
            id: 4, name: "search index brought in step once per batch",
            sql: """
                DROP TRIGGER memo_fts_insert;
                DROP TRIGGER memo_fts_delete;
                DROP TRIGGER memo_fts_update;
                CREATE TABLE memo_fts_stale (rowid INTEGER PRIMARY KEY, indexed_norm TEXT);
                CREATE TRIGGER memo_fts_stale_insert AFTER INSERT ON memo BEGIN
                    INSERT OR IGNORE INTO memo_fts_stale (rowid, indexed_norm) VALUES (new.rowid, NULL);
                END;
                CREATE TRIGGER memo_fts_stale_delete AFTER DELETE ON memo BEGIN
                    INSERT OR IGNORE INTO memo_fts_stale (rowid, indexed_norm) VALUES (old.rowid, old.norm);
                END;
                CREATE TRIGGER memo_fts_stale_update AFTER UPDATE OF norm ON memo BEGIN
                    INSERT OR IGNORE INTO memo_fts_stale (rowid, indexed_norm) VALUES (old.rowid, old.norm);
                END;
                """),
        Migration(
            id: 5, name: "search index without FTS5's case folding",
            sql: """
                DROP TABLE memo_fts;
                CREATE VIRTUAL TABLE memo_fts USING fts5 (
                    norm, content = 'memo', content_rowid = 'rowid', tokenize = 'trigram case_sensitive 1',
                    detail = 'none');
                INSERT INTO memo_fts (memo_fts) VALUES ('rebuild');
                DELETE FROM memo_fts_stale;
                """),
        Migration(
            id: 6, name: "applied commands keyed by client and cmd_id, with a payload hash",
            sql: """
                CREATE TABLE applied_cmd_by_client (
                    client TEXT NOT NULL,
                    cmd_id TEXT NOT NULL,
                    applied_at INTEGER NOT NULL,
                    payload_hash INTEGER,
                    ack BLOB NOT NULL,
                    PRIMARY KEY (cmd_id, client)
                ) WITHOUT ROWID;
                INSERT INTO applied_cmd_by_client (client, cmd_id, applied_at, payload_hash, ack)
                    SELECT client, cmd_id, applied_at, NULL, ack FROM applied_cmd;
                DROP TABLE applied_cmd;
                ALTER TABLE applied_cmd_by_client RENAME TO applied_cmd;
                CREATE INDEX applied_cmd_by_time ON applied_cmd (applied_at);
                """),
    ]
}
