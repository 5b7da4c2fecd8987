import BusSchema

extension MemoStore {
    /// Applies `batch` in one transaction (group commit) and returns the acks and changes
    /// once it has committed.
    ///
    /// Each command runs under its own SAVEPOINT, so a rejected one (a bad field, an unknown
    /// memo) leaves the others applied. A `cmd_id` applied before, in an earlier batch or
    /// earlier in this one, gets its stored ack back with status `duplicate` and is not
    /// applied again. If the transaction itself fails (a full disk, an I/O error), nothing
    /// is applied, every ack is `rejected` and ``MemoApplyResult/storageError`` says why.
    ///
    /// - Parameters:
    ///   - batch: commands in arrival order.
    ///   - now: the current time in milliseconds since the Unix epoch, stamped on changes.
    public func apply(batch: [MemoCommand], now: Int64) -> MemoApplyResult {
        var result = MemoApplyResult()
        guard !batch.isEmpty else { return result }
        do {
            try self.connection.execute("BEGIN IMMEDIATE")
            var state = try self.loadState()
            for command in batch {
                result.acks.append(AddressedAck(client: command.client, ack: try self.applyOne(command, now, &state)))
            }
            try self.syncSearchIndex()
            if !state.changes.isEmpty || state.settingsChanged { try self.saveState(state) }
            try self.connection.execute("COMMIT")
            self.committedSearchForms()
            result.changes = state.changes
            result.snapshots = state.snapshots
        } catch {
            if !self.connection.isAutocommit { try? self.connection.execute("ROLLBACK") }
            self.uncommittedNorms.removeAll()
            let storeError =
                error as? StoreError ?? StoreError(resultCode: 1, message: String(describing: error))
            result = MemoApplyResult()
            result.storageError = storeError
            let seq = (try? self.currentSeq()) ?? 0
            result.acks = batch.map { command in
                AddressedAck(
                    client: command.client,
                    ack: Self.rejected(command, seq: seq, reason: "not stored: \(storeError.message)"))
            }
        }
        return result
    }

    /// One command inside the batch transaction; throws only for storage failures.
    private func applyOne(_ command: MemoCommand, _ now: Int64, _ state: inout BatchState) throws -> MemoAck {
        if command.op.isMutating, let stored = try self.storedAck(command.cmdId) {
            var ack = stored
            ack.status = .duplicate
            return ack
        }
        let before = state.mark
        state.command = command
        try self.connection.run("SAVEPOINT command")
        do {
            try self.validate(command)
            var ack = try self.perform(command, now: now, state: &state)
            ack.op = command.op
            if ack.status == .ok && command.op.isMutating {
                try self.record(ack, client: command.client, now: now)
            }
            try self.connection.run("RELEASE command")
            return ack
        } catch let rejection as CommandRejection {
            try self.undo(&state, to: before)
            return Self.rejected(command, seq: state.seq, reason: rejection.reason)
        } catch let error as StoreError where error.isCommandLevel {
            try self.undo(&state, to: before)
            return Self.rejected(command, seq: state.seq, reason: error.message)
        }
    }

    private static func rejected(_ command: MemoCommand, seq: UInt64, reason: String) -> MemoAck {
        MemoAck(
            cmdId: command.cmdId, status: .rejected, seq: seq, memoId: command.memoId, reason: reason, op: command.op)
    }

    private func undo(_ state: inout BatchState, to before: BatchState.Mark) throws {
        try self.connection.run("ROLLBACK TO command")
        try self.connection.run("RELEASE command")
        state.rewind(to: before)
    }

    private func storedAck(_ cmdId: String) throws -> MemoAck? {
        var blob: [UInt8]?
        try self.connection.run("SELECT ack FROM applied_cmd WHERE cmd_id = ?", [.text(cmdId)]) { blob = $0.blob(0) }
        return try blob.map { try MemoAck(messagePack: $0) }
    }

    private func record(_ ack: MemoAck, client: String, now: Int64) throws {
        let statement = try self.connection.statement(
            "INSERT INTO applied_cmd (cmd_id, client, applied_at, ack) VALUES (?, ?, ?, ?)")
        defer { statement.reset() }
        try statement.bind([.text(ack.cmdId), .text(client), .int(now)])
        try statement.bind(blob: ack.messagePack, at: 4)
        _ = try statement.step()
    }

    /// Forgets applied command ids recorded before `time` (ms); a retry older than that
    /// would be applied again. Returns how many were removed.
    @discardableResult
    public func pruneAppliedCommands(before time: Int64) throws -> Int64 {
        try self.connection.execute("BEGIN IMMEDIATE")
        do {
            try self.connection.run("DELETE FROM applied_cmd WHERE applied_at < ?", [.int(time)])
            let removed = self.connection.changes
            try self.connection.execute("COMMIT")
            return removed
        } catch {
            if !self.connection.isAutocommit { try? self.connection.execute("ROLLBACK") }
            throw error
        }
    }
}
