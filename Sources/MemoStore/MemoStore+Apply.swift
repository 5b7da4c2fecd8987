import BusSchema

extension MemoStore {
    /// Applies `batch` in one transaction (group commit) and returns the acks and changes
    /// once it has committed.
    ///
    /// Each command runs under its own SAVEPOINT, so a rejected one (a bad field, an unknown
    /// memo) leaves the others applied. Commands are known by (`client`, `cmd_id`): one applied
    /// before, in an earlier batch or earlier in this one, with the same payload gets its own
    /// stored ack back with status `duplicate` and is not applied again; with another payload it
    /// is `rejected` with reason `cmd_id_reused: …` and not applied either. If the transaction itself fails (a full disk, an I/O error), nothing
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
                result.acks.append(
                    AddressedAck(client: command.client, message: try self.applyOne(command, now, &state)))
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
                    message: Self.rejected(command, seq: seq, reason: "not stored: \(storeError.message)"))
            }
        }
        return result
    }

    /// One command inside the batch transaction; throws only for storage failures.
    private func applyOne(_ command: MemoCommand, _ now: Int64, _ state: inout BatchState) throws -> MemoAck {
        let hash = command.op.isMutating ? CommandHash(command).stored : 0
        if command.op.isMutating, let stored = try self.storedAck(command) {
            // A row from before migration 6 has no hash: the id alone has to do.
            if let storedHash = stored.hash, storedHash != hash {
                return Self.rejected(
                    command, seq: state.seq,
                    reason: "cmd_id_reused: \(command.cmdId) of \(command.client) was applied with another payload")
            }
            var ack = stored.ack
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
                try self.record(ack, client: command.client, hash: hash, now: now)
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
        MemoAck {
            $0.cmdId = command.cmdId
            $0.status = .rejected
            $0.seq = seq
            $0.memoId = command.memoId
            $0.reason = reason
            $0.op = command.op
        }
    }

    private func undo(_ state: inout BatchState, to before: BatchState.Mark) throws {
        try self.connection.run("ROLLBACK TO command")
        try self.connection.run("RELEASE command")
        state.rewind(to: before)
    }

    /// The ack and payload hash stored for the command's (client, cmd_id), if it was applied.
    private func storedAck(_ command: MemoCommand) throws -> (ack: MemoAck, hash: Int64?)? {
        var row: (blob: [UInt8], hash: Int64?)?
        try self.connection.run(
            "SELECT ack, payload_hash FROM applied_cmd WHERE client = ? AND cmd_id = ?",
            [.text(command.client), .text(command.cmdId)]
        ) { row = ($0.blob(0), $0.isNull(1) ? nil : $0.int(1)) }
        return try row.map { (try MemoAck(messagePack: $0.blob), $0.hash) }
    }

    private func record(_ ack: MemoAck, client: String, hash: Int64, now: Int64) throws {
        let statement = try self.connection.statement(
            "INSERT INTO applied_cmd (client, cmd_id, applied_at, payload_hash, ack) VALUES (?, ?, ?, ?, ?)")
        defer { statement.reset() }
        try statement.bind([.text(client), .text(ack.cmdId), .int(now), .int(hash)])
        try statement.bind(blob: ack.messagePack, at: 5)
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
