import BusSchema
import CSQLite

extension MemoStore {
    /// Checks the fields every op shares: lengths, sizes, finite in-range geometry.
    ///
    /// Field by field through local checks rather than arrays of (name, value) pairs, which
    /// cost three allocations a command.
    func validate(_ command: MemoCommand) throws {
        let limits = self.configuration
        if command.cmdId.isEmpty { throw CommandRejection("cmd_id is empty") }
        if let problem = MemoClientName.problem(command.client) { throw CommandRejection("bad_client: \(problem)") }
        func checkName(_ name: String, _ value: String?) throws {
            guard let value, value.utf8.count > limits.maximumNameBytes else { return }
            throw CommandRejection("\(name) is longer than \(limits.maximumNameBytes) bytes")
        }
        try checkName("cmd_id", command.cmdId)
        try checkName("memo_id", command.memoId)
        try checkName("color", command.color)
        try checkName("image", command.image)
        try checkName("query", command.query)
        if let text = command.text, text.utf8.count > limits.maximumTextBytes {
            throw CommandRejection(
                "text is \(text.utf8.count) bytes, more than the limit of \(limits.maximumTextBytes)")
        }
        func checkNumber(_ name: String, _ value: Double?, positive: Bool = false) throws {
            guard let value else { return }
            guard value.isFinite else { throw CommandRejection("\(name) is not a finite number") }
            guard abs(value) <= limits.maximumCoordinate else {
                throw CommandRejection("\(name) is out of range (±\(limits.maximumCoordinate))")
            }
            if positive, value <= 0 { throw CommandRejection("\(name) must be positive") }
        }
        try checkNumber("x", command.x)
        try checkNumber("y", command.y)
        try checkNumber("width", command.width, positive: true)
        try checkNumber("height", command.height, positive: true)
        try checkNumber("scale", command.scale, positive: true)
        try checkNumber("rotation", command.rotation)
        if let color = command.color, !MemoRecord.palette.contains(color) {
            throw CommandRejection("color '\(color)' is not one of \(MemoRecord.palette.joined(separator: ", "))")
        }
    }

    /// Applies one validated command; returns its ack (`ok` or `conflict`).
    func perform(_ command: MemoCommand, now: Int64, state: inout BatchState) throws -> MemoAck {
        switch command.op {
        case .create: return try self.create(command, now: now, state: &state)
        case .edit: return try self.edit(command, now: now, state: &state)
        case .move:
            let x = try Self.require(command.x, "x", command)
            let y = try Self.require(command.y, "y", command)
            return try self.update(command, "x = ?, y = ?", [.double(x), .double(y)], state: &state)
        case .transform:
            var assignments: [String] = []
            var values: [SQLValue] = []
            let fields = [
                ("scale", command.scale), ("rotation", command.rotation), ("width", command.width),
                ("height", command.height),
            ]
            for case (let name, let value?) in fields {
                assignments.append("\(name) = ?")
                values.append(.double(value))
            }
            guard !assignments.isEmpty else {
                throw CommandRejection("transform needs scale, rotation, width or height")
            }
            return try self.update(command, assignments.joined(separator: ", "), values, state: &state)
        case .front:
            return try self.update(
                command, "z = (SELECT max(z) FROM memo) + 1", [], state: &state,
                unless:
                    "z = (SELECT max(z) FROM memo) AND (SELECT count(*) FROM memo AS other WHERE other.z = memo.z) = 1")
        case .minimize: return try self.update(command, "minimized = 1", [], state: &state, unless: "minimized = 1")
        case .restoreSize:
            return try self.update(command, "minimized = 0", [], state: &state, unless: "minimized = 0")
        case .trash:
            return try self.update(
                command, "trashed_at = ?", [.int(now)], state: &state, unless: "trashed_at IS NOT NULL")
        case .restore:
            return try self.update(command, "trashed_at = NULL", [], state: &state, unless: "trashed_at IS NULL")
        case .emptyTrash:
            // With a `memo_id`, only that memo leaves the trash for good: a client (bus-flood) can
            // remove what it created without emptying everyone else's trash.
            let deleted =
                if let id = command.memoId {
                    try self.memos(
                        "DELETE FROM memo WHERE id = ? AND trashed_at IS NOT NULL RETURNING \(Self.memoColumns)",
                        [.text(id)])
                } else {
                    try self.memos("DELETE FROM memo WHERE trashed_at IS NOT NULL RETURNING \(Self.memoColumns)")
                }
            for memo in deleted { state.record(.delete, memo: memo) }
            return MemoAck {
                $0.cmdId = command.cmdId
                $0.status = .ok
                $0.seq = state.seq
                $0.memoId = command.memoId
            }
        case .arrange: return try self.arrange(command, state: &state)
        case .background:
            var settings = state.settings
            settings.background = command.image
            state.update(settings)
            return MemoAck {
                $0.cmdId = command.cmdId
                $0.status = .ok
                $0.seq = state.seq
            }
        case .search:
            let query = try Self.require(command.query, "query", command)
            let hits = try self.search(query, includeTrash: command.includeTrash ?? true)
            return MemoAck {
                $0.cmdId = command.cmdId
                $0.status = .ok
                $0.seq = state.seq
                $0.results = hits
            }
        case .export:
            let format = try Self.require(command.format, "format", command)
            let memos = try self.exportedMemos(memoId: command.memoId, includeTrash: command.includeTrash ?? false)
            let exporter = MemoExporter(mailAddress: self.configuration.mailAddress)
            var ack = MemoAck {
                $0.cmdId = command.cmdId
                $0.status = .ok
                $0.seq = state.seq
                $0.memoId = command.memoId
            }
            if format == .eml {
                ack.files = exporter.emlFiles(memos)
            } else {
                ack.export = exporter.document(memos, format: format)
            }
            return ack
        case .snapshot:
            state.snapshots += try self.snapshot(requestId: command.cmdId, seq: state.seq, settings: state.settings).map
            {
                AddressedSnapshot(client: command.client, message: $0)
            }
            return MemoAck {
                $0.cmdId = command.cmdId
                $0.status = .ok
                $0.seq = state.seq
            }
        }
    }

    private func create(_ command: MemoCommand, now: Int64, state: inout BatchState) throws -> MemoAck {
        let id: String
        if let requested = command.memoId {
            guard !requested.isEmpty else { throw CommandRejection("memo_id is empty") }
            guard try !self.memoExists(requested) else { throw CommandRejection("memo \(requested) already exists") }
            id = requested
        } else {
            id = try self.freshMemoID(&state)
        }
        let text = command.text ?? ""
        let values: [SQLValue] = [
            .text(id), .text(text), .utf8(SearchText.normalized(text)), .double(command.x ?? 0),
            .double(command.y ?? 0),
            .double(command.width ?? self.configuration.defaultWidth),
            .double(command.height ?? self.configuration.defaultHeight), .double(command.scale ?? 1),
            .double(command.rotation ?? 0), .text(command.color ?? self.configuration.defaultColor), .int(now),
        ]
        try self.connection.run(
            """
            INSERT INTO memo (id, text, norm, x, y, width, height, scale, rotation, z, color, minimized, trashed_at,
                              created_at, updated_at, version)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, (SELECT coalesce(max(z), 0) + 1 FROM memo), ?10, 0, NULL,
                    ?11, ?11, 1)
            """, values)
        // Read back rather than `RETURNING` (see ``write(_:_:readingBack:)``).
        guard let inserted = try self.memo(rowid: self.connection.lastInsertRowid) else {
            throw StoreError(resultCode: SQLITE_INTERNAL, message: "memo \(id) is missing after its insert")
        }
        return self.applied(command, [inserted], state: &state)
    }

    private func edit(_ command: MemoCommand, now: Int64, state: inout BatchState) throws -> MemoAck {
        guard command.text != nil || command.color != nil else { throw CommandRejection("edit needs text or color") }
        var assignments = ["updated_at = ?"]
        var values: [SQLValue] = [.int(now)]
        var baseVersion: Int64?
        if let text = command.text {
            guard let base = command.baseVersion else { throw CommandRejection("edit of text needs base_version") }
            baseVersion = base
            assignments += ["text = ?", "norm = ?"]
            values += [.text(text), .utf8(SearchText.normalized(text))]
        }
        if let color = command.color {
            assignments.append("color = ?")
            values.append(.text(color))
        }
        return try self.update(
            command, assignments.joined(separator: ", "), values, state: &state, baseVersion: baseVersion)
    }

    private func arrange(_ command: MemoCommand, state: inout BatchState) throws -> MemoAck {
        let order = command.order ?? state.settings.arrangeOrder
        if command.order != nil {
            var settings = state.settings
            settings.arrangeOrder = order
            state.update(settings)
        }
        let sorting: String
        switch order {
        case .created: sorting = "created_at, rowid"
        case .updated: sorting = "updated_at DESC, rowid"
        case .color:
            let ranks = MemoRecord.palette.enumerated().map { "WHEN '\($1)' THEN \($0)" }.joined(separator: " ")
            sorting = "CASE color \(ranks) ELSE \(MemoRecord.palette.count) END, created_at, rowid"
        case .text: sorting = "norm, created_at, rowid"
        }
        let ids = try self.connection.strings("SELECT id FROM memo WHERE trashed_at IS NULL ORDER BY \(sorting)")
        let layout = self.configuration.arrangeLayout
        let boardWidth = command.width ?? layout.boardWidth
        let base = try self.connection.int("SELECT coalesce(max(z), 0) FROM memo") ?? 0
        for (index, id) in ids.enumerated() {
            let cell = layout.position(of: index, boardWidth: boardWidth)
            let memo = try self.write(
                "UPDATE memo SET x = ?, y = ?, z = ?, minimized = 1, version = version + 1 WHERE id = ?",
                [.double(cell.x), .double(cell.y), .int(base + 1 + Int64(index)), .text(id)], readingBack: id)
            if let memo { state.record(.upsert, memo: memo) }
        }
        return MemoAck {
            $0.cmdId = command.cmdId
            $0.status = .ok
            $0.seq = state.seq
        }
    }

    /// Updates the command's memo with `assignments`, unless the `unless` condition says it
    /// already is that way (then nothing changes and no change is published), or, with a
    /// `baseVersion`, only if the memo still has that version (else a `conflict` ack).
    private func update(
        _ command: MemoCommand, _ assignments: String, _ values: [SQLValue], state: inout BatchState,
        unless: String? = nil, baseVersion: Int64? = nil
    ) throws -> MemoAck {
        let id = try Self.require(command.memoId, "memo_id", command)
        let skip = unless.map { " AND NOT (\($0))" } ?? ""
        let versioned = baseVersion == nil ? "" : " AND version = ?"
        let updated = try self.write(
            "UPDATE memo SET \(assignments), version = version + 1 WHERE id = ?\(skip)\(versioned)",
            values + [.text(id)] + (baseVersion.map { [.int($0)] } ?? []), readingBack: id)
        if let updated { return self.applied(command, [updated], state: &state) }
        guard let memo = try self.memo(id) else { throw CommandRejection("unknown memo \(id)") }
        // Nothing written: a version conflict, or the `unless` condition already held.
        let conflict = baseVersion.flatMap { $0 == memo.version ? nil : $0 }
        return MemoAck {
            $0.cmdId = command.cmdId
            $0.status = conflict == nil ? .ok : .conflict
            $0.seq = state.seq
            $0.memoId = memo.id
            $0.version = memo.version
            $0.reason = conflict.map { "base_version \($0) is not the memo's version \(memo.version)" }
        }
    }

    private func applied(_ command: MemoCommand, _ memos: [MemoRecord], state: inout BatchState) -> MemoAck {
        for memo in memos { state.record(.upsert, memo: memo) }
        return MemoAck {
            $0.cmdId = command.cmdId
            $0.status = .ok
            $0.seq = state.seq
            $0.memoId = memos.last?.id
            $0.version = memos.last?.version
        }
    }

    private func freshMemoID(_ state: inout BatchState) throws -> String {
        while true {
            let id = "m\(state.nextMemo)"
            state.nextMemo += 1
            if try !self.memoExists(id) { return id }
        }
    }

    private static func require<T>(_ value: T?, _ field: String, _ command: MemoCommand) throws -> T {
        guard let value else { throw CommandRejection("\(command.op.rawValue) needs \(field)") }
        return value
    }
}
