import BusSchema

extension MemoStore {
    /// The memos an export covers: one memo, or the board (and the trash), oldest first.
    ///
    /// - Throws: ``CommandRejection`` for an unknown `memoId`.
    public func exportedMemos(memoId: String? = nil, includeTrash: Bool = false) throws -> [MemoRecord] {
        if let memoId {
            guard let memo = try self.memo(memoId) else { throw CommandRejection("unknown memo \(memoId)") }
            return [memo]
        }
        let filter = includeTrash ? "" : "WHERE trashed_at IS NULL"
        return try self.memos("SELECT \(Self.memoColumns) FROM memo \(filter) ORDER BY created_at, rowid")
    }
}
