import BusSchema

/// What a batch has changed so far; marked before each command so a rejected one can be undone.
struct BatchState {
    /// Where the batch stood before a command (changes and snapshots only grow).
    struct Mark {
        var seq: UInt64
        var nextMemo: Int64
        var settings: MemoSettings
        var settingsChanged: Bool
        var changeCount: Int
        var snapshotCount: Int
    }

    var seq: UInt64
    var nextMemo: Int64
    var settings: MemoSettings
    var settingsChanged = false
    var changes: [MemoChanged] = []
    var snapshots: [AddressedSnapshot] = []
    /// The command being applied, named in its changes.
    var command: MemoCommand?

    var mark: Mark {
        Mark(
            seq: self.seq, nextMemo: self.nextMemo, settings: self.settings, settingsChanged: self.settingsChanged,
            changeCount: self.changes.count, snapshotCount: self.snapshots.count)
    }

    /// Undoes everything recorded since `mark`.
    mutating func rewind(to mark: Mark) {
        self.seq = mark.seq
        self.nextMemo = mark.nextMemo
        self.settings = mark.settings
        self.settingsChanged = mark.settingsChanged
        self.changes.removeSubrange(mark.changeCount...)
        self.snapshots.removeSubrange(mark.snapshotCount...)
    }

    /// Records a change under the next global sequence number.
    mutating func record(_ change: MemoChanged.Change, memo: MemoRecord? = nil, settings: MemoSettings? = nil) {
        self.seq += 1
        self.changes.append(
            MemoChanged {
                $0.seq = self.seq
                $0.change = change
                $0.memo = memo
                $0.settings = settings
                $0.cmdId = self.command?.cmdId
            })
    }

    /// Records new settings.
    mutating func update(_ settings: MemoSettings) {
        guard settings != self.settings else { return }
        self.settings = settings
        self.settingsChanged = true
        self.record(.settings, settings: settings)
    }
}
