import BusSchema

/// A memo as the board keeps it: what it shows and, for a memo in the trash, since when.
struct BoardMemo: Sendable, Hashable {
    var memo: MemoBoardState.Memo
    /// When it was trashed (ms since the Unix epoch), or nil on the board.
    var trashedAt: Int64?

    init(memo: MemoBoardState.Memo, trashedAt: Int64? = nil) {
        self.memo = memo
        self.trashedAt = trashedAt
    }

    /// The board's view of a memo the store holds; an unknown colour shows as yellow.
    init(_ record: MemoRecord) {
        self.init(
            memo: MemoBoardState.Memo(
                id: record.id, x: record.x, y: record.y, width: record.width, height: record.height,
                scale: record.scale, rotation: record.rotation, z: Int(record.z),
                color: MemoBoardState.Color(rawValue: record.color) ?? .yellow, minimized: record.minimized,
                text: record.text, version: Int(record.version)),
            trashedAt: record.trashedAt)
    }
}
