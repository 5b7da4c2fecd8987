/// A subscriber's copy of a memo board, kept from a full ``MemoBoardState`` and the
/// ``MemoBoardDelta``s after it, each applied in time proportional to its size.
public struct MemoBoardReplica: Sendable {
    /// The last full state's small fields (its memo lists are not kept here).
    private var base: MemoBoardState
    private var memos: [String: MemoBoardState.Memo] = [:]
    private var trash: [String: MemoBoardState.Memo] = [:]

    /// The revision the copy is at.
    public var revision: Int? { self.base.revision }

    /// A copy starting from the full state `state`.
    public init(_ state: MemoBoardState) {
        self.base = state
        // An animation belongs to the change that carried it, not to the board.
        self.base.animation = nil
        self.base.memos = []
        self.base.trash = state.trash.map { _ in [] }
        for memo in state.memos { self.memos[memo.id] = memo }
        for memo in state.trash ?? [] { self.trash[memo.id] = memo }
    }

    /// Applies `delta` when it follows the copy's revision.
    ///
    /// - Returns: false (changing nothing) when the delta does not apply to this revision: the
    ///   copy is out of step and needs a full state.
    public mutating func apply(_ delta: MemoBoardDelta) -> Bool {
        guard delta.instance == self.base.instance, let revision = self.base.revision,
            delta.baseRevision == revision
        else { return false }
        for id in delta.removed {
            self.memos[id] = nil
            self.trash[id] = nil
        }
        for memo in delta.memos {
            self.trash[memo.id] = nil
            self.memos[memo.id] = memo
        }
        for memo in delta.trash {
            self.memos[memo.id] = nil
            self.trash[memo.id] = memo
        }
        self.base.tMs = delta.tMs
        self.base.revision = delta.revision
        self.base.selected = delta.selected
        self.base.arrangeOrder = delta.arrangeOrder
        self.base.background = delta.background
        self.base.editing = .some(delta.editing)
        if let search = delta.search { self.base.search = .some(search) }
        self.base.storeSeq = delta.storeSeq
        self.base.pendingCommands = delta.pendingCommands
        self.base.syncing = delta.syncing
        if self.base.trash == nil, !self.trash.isEmpty { self.base.trash = [] }
        return true
    }

    /// The board as a full state, memos in stacking order (`z`, then id) as the board sends them.
    public var state: MemoBoardState {
        let order: (MemoBoardState.Memo, MemoBoardState.Memo) -> Bool = { ($0.z, $0.id) < ($1.z, $1.id) }
        var state = self.base
        state.memos = self.memos.values.sorted(by: order)
        if state.trash != nil { state.trash = self.trash.values.sorted(by: order) }
        return state
    }
}
