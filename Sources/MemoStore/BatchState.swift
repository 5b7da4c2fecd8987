import BusSchema

/// What a batch has changed so far; copied before each command so a rejected one can be undone.
struct BatchState {
    var seq: UInt64
    var nextMemo: Int64
    var settings: MemoSettings
    var settingsChanged = false
    var changes: [MemoChanged] = []
    var snapshots: [AddressedSnapshot] = []
    /// The command being applied, named in its changes.
    var command: MemoCommand?

    /// Records a change under the next global sequence number.
    mutating func record(_ change: MemoChanged.Change, memo: MemoRecord? = nil, settings: MemoSettings? = nil) {
        self.seq += 1
        self.changes.append(
            MemoChanged(seq: self.seq, change: change, memo: memo, settings: settings, cmdId: self.command?.cmdId))
    }

    /// Records new settings.
    mutating func update(_ settings: MemoSettings) {
        guard settings != self.settings else { return }
        self.settings = settings
        self.settingsChanged = true
        self.record(.settings, settings: settings)
    }
}

/// Why a command was not applied; becomes a `rejected` ack with this reason.
public struct CommandRejection: Error, Sendable, CustomStringConvertible {
    public var reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { self.reason }
}
