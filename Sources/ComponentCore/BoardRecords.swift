/// The memos a board holds, by id, remembering which ids changed since the board last
/// published, so it can publish those alone (a ``MemoBoardDelta``).
struct BoardRecords: Sendable {
    private(set) var byID: [String: BoardMemo] = [:]
    /// Ids set, changed or removed since ``takeChanged()``.
    private(set) var changed: Set<String> = []

    subscript(id: String) -> BoardMemo? {
        get { self.byID[id] }
        set {
            self.byID[id] = newValue
            self.changed.insert(id)
        }
    }

    var values: Dictionary<String, BoardMemo>.Values { self.byID.values }
    var keys: Dictionary<String, BoardMemo>.Keys { self.byID.keys }
    var count: Int { self.byID.count }

    /// Replaces every memo (a snapshot arrived); every old and new id counts as changed.
    mutating func replaceAll(with records: [String: BoardMemo]) {
        self.changed.formUnion(self.byID.keys)
        self.changed.formUnion(records.keys)
        self.byID = records
    }

    /// Removes the memos `isRemoved` picks.
    mutating func removeAll(where isRemoved: (BoardMemo) -> Bool) {
        for (id, record) in self.byID where isRemoved(record) { self[id] = nil }
    }

    /// Marks `id` changed without changing it (its pending mark, which comes from elsewhere).
    mutating func touch(_ id: String?) {
        if let id, self.byID[id] != nil { self.changed.insert(id) }
    }

    /// The ids changed since the last call, and forgets them.
    mutating func takeChanged() -> Set<String> {
        defer { self.changed = [] }
        return self.changed
    }
}
