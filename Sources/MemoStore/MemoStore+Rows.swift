import BusSchema

extension MemoStore {
    /// The `memo` columns a ``MemoRecord`` is read from, in ``readMemo(_:)`` order.
    static let memoColumns =
        "id, text, x, y, width, height, scale, rotation, z, color, minimized, trashed_at, created_at, updated_at, version"

    /// Reads a ``MemoRecord`` from a row of ``memoColumns``.
    static func readMemo(_ row: Statement) -> MemoRecord {
        MemoRecord {
            $0.id = row.text(0)
            $0.text = row.text(1)
            $0.x = row.double(2)
            $0.y = row.double(3)
            $0.width = row.double(4)
            $0.height = row.double(5)
            $0.scale = row.double(6)
            $0.rotation = row.double(7)
            $0.z = row.int(8)
            $0.color = row.text(9)
            $0.minimized = row.int(10) != 0
            $0.trashedAt = row.isNull(11) ? nil : row.int(11)
            $0.createdAt = row.int(12)
            $0.updatedAt = row.int(13)
            $0.version = row.int(14)
        }
    }

    /// Runs `sql` (which must select or return ``memoColumns``) and reads every row.
    func memos(_ sql: String, _ values: [SQLValue] = []) throws -> [MemoRecord] {
        var memos: [MemoRecord] = []
        try self.connection.run(sql, values) { memos.append(Self.readMemo($0)) }
        return memos
    }

    /// The memo `id`, or nil.
    func memo(_ id: String) throws -> MemoRecord? {
        try self.memos("SELECT \(Self.memoColumns) FROM memo WHERE id = ?", [.text(id)]).first
    }

    /// The memo stored at `rowid`, or nil.
    func memo(rowid: Int64) throws -> MemoRecord? {
        try self.memos("SELECT \(Self.memoColumns) FROM memo WHERE rowid = ?", [.int(rowid)]).first
    }

    /// Runs `sql`, a write to memo `id`'s row alone, and reads the row back if the write changed it.
    ///
    /// The row is read by a second statement, not with `RETURNING`: SQLite buffers `RETURNING`
    /// rows in an ephemeral table that it builds, with a freshly zeroed page, on every run, which
    /// cost more than the lookup by id (a batch of mixed commands ran 10 % more instructions).
    func write(_ sql: String, _ values: [SQLValue], readingBack id: String) throws -> MemoRecord? {
        try self.connection.run(sql, values)
        return self.connection.changes > 0 ? try self.memo(id) : nil
    }

    /// Whether memo `id` exists (cheaper than reading it).
    func memoExists(_ id: String) throws -> Bool {
        try self.connection.int("SELECT 1 FROM memo WHERE id = ?", [.text(id)]) != nil
    }

    /// Every memo, board and trash, oldest first.
    public func allMemos() throws -> [MemoRecord] {
        try self.memos("SELECT \(Self.memoColumns) FROM memo ORDER BY rowid")
    }

    /// The stored settings.
    public func settings() throws -> MemoSettings {
        try self.loadState().settings
    }

    /// The global sequence number of the last committed change.
    public func currentSeq() throws -> UInt64 {
        try self.loadState().seq
    }

    func loadState() throws -> BatchState {
        var state: BatchState?
        let sql = "SELECT seq, next_memo, arrange_order, background FROM store_state WHERE id = 1"
        try self.connection.run(sql) { row in
            let settings = MemoSettings {
                $0.arrangeOrder = MemoArrangeOrder(rawValue: row.text(2)) ?? .created
                $0.background = row.isNull(3) ? nil : row.text(3)
            }
            state = BatchState(seq: UInt64(row.int(0)), nextMemo: row.int(1), settings: settings)
        }
        guard let state else { throw StoreError(resultCode: 11, message: "store_state row is missing") }
        return state
    }

    func saveState(_ state: BatchState) throws {
        try self.connection.run(
            "UPDATE store_state SET seq = ?, next_memo = ?, arrange_order = ?, background = ? WHERE id = 1",
            [
                .int(Int64(state.seq)), .int(state.nextMemo), .text(state.settings.arrangeOrder.rawValue),
                state.settings.background.map { .text($0) } ?? .null,
            ])
    }
}
