extension MemoStore {
    /// Brings `memo_fts` in step with the memos listed in `memo_fts_stale` and empties it.
    ///
    /// Called inside the batch transaction before COMMIT and before a search inside a batch,
    /// outside any per-command savepoint: the deletes and the inserts are one statement each,
    /// so FTS5 writes one index segment per batch instead of one per create or edit.
    func syncSearchIndex() throws {
        var changed: [(rowid: Int64, norm: [UInt8]?)] = []
        try self.connection.run(
            "SELECT s.rowid, m.norm FROM memo_fts_stale AS s LEFT JOIN memo AS m ON m.rowid = s.rowid"
        ) { row in
            changed.append((row.int(0), row.isNull(1) ? nil : row.blob(1)))
        }
        guard !changed.isEmpty else { return }
        try self.connection.run(
            """
            INSERT INTO memo_fts (memo_fts, rowid, norm)
            SELECT 'delete', rowid, indexed_norm FROM memo_fts_stale WHERE indexed_norm IS NOT NULL
            """)
        try self.connection.run(
            """
            INSERT INTO memo_fts (rowid, norm)
            SELECT s.rowid, m.norm FROM memo_fts_stale AS s JOIN memo AS m ON m.rowid = s.rowid
            """)
        try self.connection.run("DELETE FROM memo_fts_stale")
        self.uncommittedNorms += changed
    }

    /// After COMMIT: the in-memory search forms take the batch's changes.
    func committedSearchForms() {
        if self.normalizedTexts != nil {
            for (rowid, norm) in self.uncommittedNorms { self.normalizedTexts?.set(rowid, norm) }
        }
        self.uncommittedNorms.removeAll(keepingCapacity: true)
    }

    /// The in-memory search forms, (re)loaded when missing or when another connection has
    /// written the file since they were read.
    func currentNormalizedTexts() throws -> NormalizedTexts {
        let version = try self.connection.int("PRAGMA data_version") ?? 0
        if let texts = self.normalizedTexts, texts.dataVersion == version { return texts }
        var texts = NormalizedTexts(dataVersion: version)
        try self.connection.run("SELECT rowid, norm FROM memo ORDER BY rowid") { texts.set($0.int(0), $0.blob(1)) }
        self.normalizedTexts = texts
        return texts
    }
}
