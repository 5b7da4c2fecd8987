import BusSchema

/// The board's side of the memo store protocol: commands waiting for their ack, and where the
/// board stands in the store's change stream.
struct MemoSync: Sendable {
    struct Pending: Sendable {
        var request: MemoCommand
        var due: SourceInstant
        var delay: Duration
    }

    /// Commands sent and not yet acknowledged, oldest first.
    var pending: [Pending] = []
    /// This run of the board (see ``MemoBoardMachine/Event/started(at:session:)``).
    var session = ""
    /// Number of the next command (cmd_id `<client>:<session>:<n>`).
    var nextCommand = 1
    /// Seq of the last change applied.
    var storeSeq: UInt64 = 0
    /// The store's epoch the seq belongs to.
    var storeEpoch: UInt64?
    /// The snapshot being received: its request id, the next chunk and the memos so far.
    var snapshotRequest: String?
    /// Once the store acknowledged the snapshot command, the next chunk must come by then, or
    /// the board asks again.
    var snapshotDeadline: SourceInstant?
    var expectedChunk = 0
    var snapshotRecords: [MemoRecord] = []
    /// Parts of answers sent in parts (a large search), by command id, until all are here.
    var ackParts: [String: [Int: MemoAck]] = [:]
    /// Changes that arrived while a snapshot was on its way.
    var buffered: [(change: MemoChanged, epoch: UInt64)] = []
}

extension MemoBoardMachine {
    /// Sends a new command (its op's fields set by `fill`) and remembers it until it is acknowledged.
    mutating func send(
        _ op: MemoOp, memoID: String? = nil, at now: SourceInstant, _ fill: (inout MemoCommand) -> Void = { _ in }
    ) -> [ComponentEffect] {
        var request = MemoCommand {
            $0.cmdId = "\(self.config.client):\(self.sync.session):\(self.sync.nextCommand)"
            $0.client = self.config.client
            $0.op = op
            $0.memoId = memoID
        }
        fill(&request)
        self.records.touch(memoID)
        self.sync.nextCommand += 1
        self.sync.pending.append(
            MemoSync.Pending(
                request: request, due: now + self.config.retryInitial, delay: self.config.retryInitial))
        return [.sendMemoCommand(request), self.timerEffect]
    }

    private var timerEffect: ComponentEffect {
        let dues = self.sync.pending.map(\.due) + (self.sync.snapshotDeadline.map { [$0] } ?? [])
        guard let due = dues.min() else { return .cancelTimer }
        return .scheduleTimer(at: due)
    }

    /// How long the board waits for the next snapshot chunk once the store has answered.
    private var chunkTimeout: Duration { self.config.retryMax * 2 }

    /// Asks the store for a snapshot; changes are buffered until it is complete.
    mutating func requestSnapshot(_ now: SourceInstant) -> [ComponentEffect] {
        self.sync.pending.removeAll { $0.request.op == .snapshot }
        let effects = self.send(.snapshot, at: now)
        self.sync.snapshotRequest = self.sync.pending.last?.request.cmdId
        self.sync.snapshotDeadline = nil
        self.sync.expectedChunk = 0
        self.sync.snapshotRecords = []
        return effects
    }

    /// Resends every command whose time has come, doubling its delay up to the cap.
    mutating func resendDue(_ now: SourceInstant) -> [ComponentEffect] {
        if let deadline = self.sync.snapshotDeadline, deadline <= now {
            return self.requestSnapshot(now)
        }
        var effects: [ComponentEffect] = []
        for index in self.sync.pending.indices where self.sync.pending[index].due <= now {
            effects.append(.sendMemoCommand(self.sync.pending[index].request))
            let delay = min(self.sync.pending[index].delay * 2, self.config.retryMax)
            self.sync.pending[index].delay = delay
            self.sync.pending[index].due = now + delay
        }
        guard !effects.isEmpty else { return [] }
        return effects + [self.timerEffect]
    }

    /// Sends every unacknowledged command now (the app is about to stop running).
    mutating func flush(_ now: SourceInstant) -> [ComponentEffect] {
        guard !self.sync.pending.isEmpty else { return [] }
        var effects: [ComponentEffect] = []
        for index in self.sync.pending.indices {
            effects.append(.sendMemoCommand(self.sync.pending[index].request))
            self.sync.pending[index].due = now + self.sync.pending[index].delay
        }
        return effects + [.cancelTimer]
    }

    /// Picks the resend timer up again.
    mutating func resume(_ now: SourceInstant) -> [ComponentEffect] {
        guard !self.sync.pending.isEmpty else { return [] }
        return [self.timerEffect]
    }

    mutating func acknowledge(_ part: MemoAck, _ now: SourceInstant) -> [ComponentEffect] {
        guard let index = self.sync.pending.firstIndex(where: { $0.request.cmdId == part.cmdId }) else { return [] }
        var ack = part
        if let chunk = part.chunk, let chunks = part.chunks, chunks > 1 {
            // Only for a command still awaited, and one slot per part: resent parts take no more room.
            self.sync.ackParts[part.cmdId, default: [:]][chunk] = part
            let parts = Array(self.sync.ackParts[part.cmdId, default: [:]].values)
            guard let whole = MemoAck.reassembled(parts) else { return [] }
            self.sync.ackParts[part.cmdId] = nil
            ack = whole
        }
        let request = self.sync.pending.remove(at: index).request
        self.records.touch(request.memoId)
        var effects: [ComponentEffect] = []
        if request.cmdId == self.sync.snapshotRequest, ack.status == .ok || ack.status == .duplicate {
            self.sync.snapshotDeadline = now + self.chunkTimeout
        }
        if let results = ack.results, request.op == .search, let query = self.search?.query, request.query == query {
            self.search?.matches = results.map {
                MemoBoardState.Match(memoID: $0.memoId, trashed: $0.trashed, ranges: $0.ranges)
            }
        }
        if let version = ack.version, let id = ack.memoId ?? request.memoId, ack.status == .ok {
            self.records[id]?.memo.version = Int(version)
        }
        if ack.status == .conflict || ack.status == .rejected, request.op != .snapshot, request.op != .search {
            effects += self.requestSnapshot(now)
        }
        return effects + [self.timerEffect, self.publish(now)]
    }

    mutating func receive(_ change: MemoChanged, epoch: UInt64, _ now: SourceInstant) -> [ComponentEffect] {
        if self.sync.snapshotRequest != nil {
            self.sync.buffered.append((change, epoch))
            return []
        }
        guard self.sync.storeEpoch == epoch else {
            self.sync.buffered.append((change, epoch))
            return self.requestSnapshot(now) + [self.publish(now)]
        }
        if change.seq <= self.sync.storeSeq { return [] }
        guard change.seq == self.sync.storeSeq + 1 else {
            self.sync.buffered.append((change, epoch))
            return self.requestSnapshot(now) + [self.publish(now)]
        }
        self.apply(change)
        return [self.publish(now)]
    }

    /// Applies a change in sequence; one missing the memo or settings its kind names moves
    /// the seq and changes nothing.
    private mutating func apply(_ change: MemoChanged) {
        switch (change.change, change.memo, change.settings) {
        case (.upsert, let record?, _): self.records[record.id] = self.keepingGestureGeometry(BoardMemo(record))
        case (.delete, let record?, _): self.records[record.id] = nil
        case (.settings, _, let settings?): self.settings = settings
        default: break
        }
        self.sync.storeSeq = change.seq
    }

    mutating func receive(_ chunk: MemoSnapshot, epoch: UInt64, _ now: SourceInstant) -> [ComponentEffect] {
        guard chunk.requestId == self.sync.snapshotRequest else { return [] }
        guard chunk.chunk == self.sync.expectedChunk else { return self.requestSnapshot(now) }
        self.sync.snapshotRecords += chunk.memos
        self.sync.expectedChunk += 1
        guard chunk.last else {
            self.sync.snapshotDeadline = now + self.chunkTimeout
            return [self.timerEffect]
        }
        self.sync.snapshotDeadline = nil
        self.records.replaceAll(
            with: Dictionary(
                self.sync.snapshotRecords.map { ($0.id, self.keepingGestureGeometry(BoardMemo($0))) },
                uniquingKeysWith: { $1 }))
        self.settings = chunk.settings
        self.sync.storeSeq = chunk.seq
        self.sync.storeEpoch = epoch
        self.sync.snapshotRequest = nil
        self.sync.snapshotRecords = []
        self.sync.pending.removeAll { $0.request.op == .snapshot }
        // The whole board may have changed, and the replayed changes' own states are dropped below.
        self.published.fullDue = true
        let buffered = self.sync.buffered.sorted { $0.change.seq < $1.change.seq }
        self.sync.buffered = []
        var effects: [ComponentEffect] = []
        for (change, changeEpoch) in buffered where change.seq > self.sync.storeSeq || changeEpoch != epoch {
            effects += self.receive(change, epoch: changeEpoch, now).filter {
                if case .publishState = $0 { return false }
                return true
            }
        }
        return effects + [self.timerEffect, self.publish(now)]
    }
}
