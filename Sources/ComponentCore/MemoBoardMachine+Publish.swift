import BusSchema

/// What a memo board last published, to tell what its next message must carry.
struct PublishedBoard: Sendable {
    /// The revision of the last message (full state or delta).
    var revision = 0
    /// When the last full state went out (board time), nil before the first.
    var lastFull: SourceInstant?
    /// The next message must be a full state.
    var fullDue = true
    /// When the newest message, a delta, went out; nil when the newest was a full state.
    var lastDelta: SourceInstant?
    /// The search as last published.
    var search: MemoBoardState.Search?
    /// The memo open in the editor as last published.
    var editing: String?
}

extension MemoBoardMachine {
    /// How long the editor takes to open: the memo enlarges and the editor fades in ("メモの拡大
    /// アニメーション", "フェードインアニメーション"). The source names no length; 0.3 s is UIKit's
    /// modal fade and the length of the source's own block animation examples.
    public static let editorOpening = Duration.milliseconds(300)

    /// The board restated in full, with the revision of the delta before it, once it has been
    /// quiet for ``Config/settleAfter`` after a delta: the proxy's last-value cache keeps no
    /// deltas, so that a process joining later gets the board as it is, not as the last full
    /// state left it. Nothing while the newest message is a full state.
    mutating func settle(_ now: SourceInstant) -> [ComponentEffect] {
        guard let last = self.published.lastDelta else { return [] }
        // A clock that went back counts as quiet.
        if now >= last && now - last < self.config.settleAfter { return [] }
        self.published.lastDelta = nil
        self.published.lastFull = now
        return [.publishState(.memoBoard(self.snapshot(at: now)))]
    }

    /// The next message: a ``MemoBoardDelta`` with the memos changed since the last one, or a full
    /// state when one is due (the first, after a snapshot, every ``Config/fullStateEvery``) or
    /// smaller (most memos changed). Either way the revision moves on by one.
    mutating func publish(_ now: SourceInstant) -> ComponentEffect {
        let changed = self.records.takeChanged()
        let base = self.published.revision
        self.published.revision += 1
        // A clock that went back counts as due too (0 sends only full states).
        let withinPeriod = self.published.lastFull.map { now >= $0 && now - $0 < self.config.fullStateEvery }
        // The editor opening is animated, and only a full state carries an animation.
        let editorOpened = self.editing != nil && self.editing != self.published.editing
        self.published.editing = self.editing
        let fullDue = self.published.fullDue || withinPeriod != true || editorOpened
        if fullDue || changed.count > max(self.records.count / 2, 16) {
            self.published.fullDue = false
            self.published.lastFull = now
            self.published.lastDelta = nil
            self.published.search = self.search
            var state = self.snapshot(at: now)
            if editorOpened {
                state.animation = StateAnimation {
                    $0.durationMs = Self.editorOpening.milliseconds
                }
            }
            return .publishState(.memoBoard(state))
        }
        let pendingMemos = Set(self.sync.pending.compactMap(\.request.memoId))
        var memos: [MemoBoardState.Memo] = []
        var trash: [MemoBoardState.Memo] = []
        var removed: [String] = []
        for id in changed.sorted() {
            guard let record = self.records[id] else {
                removed.append(id)
                continue
            }
            var memo = record.memo
            memo.pending = pendingMemos.contains(id)
            if record.trashedAt == nil { memos.append(memo) } else { trash.append(memo) }
        }
        let search: MemoBoardState.Search?? = self.search == self.published.search ? nil : .some(self.search)
        self.published.search = self.search
        self.published.lastDelta = now
        return .publishState(
            .memoBoardDelta(
                MemoBoardDelta {
                    $0.instance = self.instance
                    $0.tMs = now.milliseconds
                    $0.revision = self.published.revision
                    $0.baseRevision = base
                    $0.memos = memos
                    $0.trash = trash
                    $0.removed = removed
                    $0.selected = self.selected
                    $0.arrangeOrder = self.settings.arrangeOrder
                    $0.background = self.settings.background
                    $0.editing = self.editing
                    $0.search = search
                    $0.storeSeq = Int(self.sync.storeSeq)
                    $0.pendingCommands = self.sync.pending.count
                    $0.syncing = self.sync.snapshotRequest != nil
                }))
    }
}
