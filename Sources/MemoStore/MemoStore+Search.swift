import BusSchema

extension MemoStore {
    /// Memos whose text contains `query`, with the matches as ranges in the original text.
    ///
    /// Text and query are compared in search form (see ``SearchText``). Queries of 3 or more
    /// normalized characters use the FTS5 trigram index; shorter ones scan the `norm` column
    /// with `instr` (a trigram index cannot answer them, and SQLite 3.40.1's trigram `LIKE`
    /// with 2 multi-byte characters wrongly returns nothing). The newest memos match first
    /// (both index and scan walk rowids backwards and stop at
    /// ``MemoStoreConfiguration/searchLimit``); the hits are then ordered board first.
    ///
    /// - Parameter includeTrash: false searches the board; true the board and the trash
    ///   (each hit says whether it is trashed).
    public func search(_ query: String, includeTrash: Bool) throws -> [MemoSearchHit] {
        let needle = SearchText(query).scalars
        guard !needle.isEmpty else { throw CommandRejection("query is empty") }
        let normalized = String(String.UnicodeScalarView(needle))
        let trash: SQLValue = .int(includeTrash ? 1 : 0)
        let limit: SQLValue = .int(Int64(self.configuration.searchLimit))

        let sql: String
        let pattern: String
        if needle.count >= 3 {
            sql = """
                SELECT m.id, m.text, m.trashed_at IS NOT NULL FROM memo_fts JOIN memo AS m ON m.rowid = memo_fts.rowid
                WHERE memo_fts MATCH ?1 AND (?2 OR m.trashed_at IS NULL) ORDER BY memo_fts.rowid DESC LIMIT ?3
                """
            pattern = "\"" + normalized.replacing("\"", with: "\"\"") + "\""
        } else {
            sql = """
                SELECT m.id, m.text, m.trashed_at IS NOT NULL FROM memo AS m
                WHERE instr(m.norm, ?1) > 0 AND (?2 OR m.trashed_at IS NULL) ORDER BY m.rowid DESC LIMIT ?3
                """
            pattern = normalized
        }
        var hits: [MemoSearchHit] = []
        try self.connection.run(sql, [.text(pattern), trash, limit]) { row in
            let text = row.text(1)
            let ranges = SearchText(text).ranges(of: needle)
            if !ranges.isEmpty {
                hits.append(MemoSearchHit(memoId: row.text(0), text: text, trashed: row.int(2) != 0, ranges: ranges))
            }
        }
        return hits.filter { !$0.trashed } + hits.filter(\.trashed)
    }
}
