import BusSchema

extension MemoStore {
    /// Memos whose text contains `query`, with the matches as ranges in the original text.
    ///
    /// Text and query are compared in search form (see ``SearchText``). Queries of 3 or more
    /// normalized characters use the FTS5 trigram index; shorter ones look for the query's bytes
    /// in the in-memory search forms (``NormalizedTexts``; a trigram index cannot answer them,
    /// and SQLite 3.40.1's trigram `LIKE` with 2 multi-byte characters wrongly returns nothing).
    /// Inside a batch that has already changed some text the short query scans the `norm`
    /// column with `instr` instead, so it sees those changes. Every candidate is checked
    /// exactly in Swift. The newest memos match first (index and scans all walk rowids
    /// backwards and stop at ``MemoStoreConfiguration/searchLimit`` hits); the hits are then
    /// ordered board first.
    ///
    /// - Parameter includeTrash: false searches the board; true the board and the trash
    ///   (each hit says whether it is trashed).
    public func search(_ query: String, includeTrash: Bool) throws -> [MemoSearchHit] {
        let needle = SearchText(query).scalars
        guard !needle.isEmpty else { throw CommandRejection("query is empty") }
        if !self.connection.isAutocommit { try self.syncSearchIndex() }
        var hits: [MemoSearchHit] = []
        let limit = self.configuration.searchLimit
        let check = { (row: Statement) -> Bool in
            let text = row.text(1)
            let ranges = SearchText(text).ranges(of: needle)
            if !ranges.isEmpty {
                hits.append(MemoSearchHit(memoId: row.text(0), text: text, trashed: row.int(2) != 0, ranges: ranges))
            }
            return hits.count < limit
        }
        let trash = SQLValue.int(includeTrash ? 1 : 0)
        if needle.count >= 3 {
            // The index keeps no positions (detail=none), so a query is the AND of its trigrams;
            // the few false positives that lets through fail the exact check.
            try self.connection.scan(
                """
                SELECT m.id, m.text, m.trashed_at IS NOT NULL FROM memo_fts JOIN memo AS m ON m.rowid = memo_fts.rowid
                WHERE memo_fts MATCH ?1 AND (?2 OR m.trashed_at IS NULL) ORDER BY memo_fts.rowid DESC
                """, [.text(Self.trigramQuery(needle)), trash], while: check)
        } else if self.uncommittedNorms.isEmpty {
            let bytes = Array(String(String.UnicodeScalarView(needle)).utf8)
            let sql =
                "SELECT id, text, trashed_at IS NOT NULL FROM memo WHERE rowid = ?1 AND (?2 OR trashed_at IS NULL)"
            try self.currentNormalizedTexts().candidates(containing: bytes) { rowid in
                var more = true
                try self.connection.scan(sql, [.int(rowid), trash]) { row in
                    more = check(row)
                    return false
                }
                return more
            }
        } else {
            try self.connection.scan(
                """
                SELECT id, text, trashed_at IS NOT NULL FROM memo
                WHERE instr(norm, ?1) > 0 AND (?2 OR trashed_at IS NULL) ORDER BY rowid DESC
                """, [.text(String(String.UnicodeScalarView(needle))), trash], while: check)
        }
        return hits.filter { !$0.trashed } + hits.filter(\.trashed)
    }

    /// `"abc" AND "bcd" AND …`: every distinct trigram of `needle`, each a quoted FTS5 string.
    static func trigramQuery(_ needle: [Unicode.Scalar]) -> String {
        var seen: Set<String> = []
        var terms: [String] = []
        for start in 0...(needle.count - 3) {
            let trigram = String(String.UnicodeScalarView(needle[start..<(start + 3)]))
            if seen.insert(trigram).inserted { terms.append("\"" + trigram.replacing("\"", with: "\"\"") + "\"") }
        }
        return terms.joined(separator: " AND ")
    }
}
