import BusSchema

/// Where the render worker stands in the memo store's change stream (`memo/changed/`, a global
/// `seq` per store epoch), and the snapshot that brings it back in step.
///
/// A change from a new store epoch (the store restarted) or after a gap asks for a snapshot,
/// as the component host's memo boards do. Until the snapshot is complete, changes are still
/// applied as they come (so a worker with no store to answer keeps drawing what it hears) and
/// also kept; the complete snapshot replaces the worker's memos and the kept changes newer
/// than it are applied again. Pure: the owner sends the requests and times the retries.
struct MemoStream: Sendable {
    /// What a snapshot chunk did.
    enum ChunkOutcome: Equatable {
        /// Not the snapshot awaited (an old request, another client's): nothing changes.
        case ignored
        /// More chunks to come.
        case partial
        /// Chunks came out of order; ask again with this request id.
        case restart(requestID: String)
        /// The snapshot's memos, then the changes to apply on top, in seq order.
        case complete(memos: [Value], replay: [Value])
    }

    /// Prefix of this worker's snapshot request ids (unique per process, so the store's
    /// idempotency never mistakes a new request for an old one).
    let requestPrefix: String
    private(set) var epoch: UInt64?
    private(set) var seq: UInt64 = 0
    /// The snapshot request awaited, if any.
    private(set) var request: String?
    private var requests = 0
    private var expectedChunk = 0
    private var records: [Value] = []
    private var kept: [(seq: UInt64, epoch: UInt64, change: Value)] = []

    init(requestPrefix: String) {
        self.requestPrefix = requestPrefix
    }

    /// A new snapshot request id; chunks of earlier requests are ignored from now on.
    mutating func requestSnapshot() -> String {
        self.requests += 1
        let id = "\(self.requestPrefix):\(self.requests)"
        self.request = id
        self.expectedChunk = 0
        self.records = []
        return id
    }

    /// A change with `seq` from the store's `epoch` arrived.
    ///
    /// - Returns: whether to apply it now, and a snapshot request id when one must be sent.
    mutating func changeArrived(seq: UInt64, epoch: UInt64, change: Value) -> (apply: Bool, request: String?) {
        if self.request != nil {
            self.kept.append((seq, epoch, change))
            return (true, nil)
        }
        guard epoch == self.epoch, seq <= self.seq + 1 else {
            self.kept.append((seq, epoch, change))
            return (true, self.requestSnapshot())
        }
        guard seq == self.seq + 1 else { return (false, nil) }
        self.seq = seq
        return (true, nil)
    }

    /// A chunk (`request_id`, `chunk` from 0, `last`, `seq`, `memos`) of a snapshot arrived.
    mutating func chunkArrived(_ chunk: Value, epoch: UInt64) -> ChunkOutcome {
        guard let request = self.request, chunk["request_id"]?.stringValue == request else { return .ignored }
        guard chunk["chunk"]?.intValue == Int64(self.expectedChunk), let memos = chunk["memos"]?.arrayValue,
            let last = chunk["last"]?.boolValue, let seq = chunk["seq"]?.uintValue
        else { return .restart(requestID: self.requestSnapshot()) }
        self.records += memos
        self.expectedChunk += 1
        guard last else { return .partial }
        self.request = nil
        self.epoch = epoch
        self.seq = seq
        var replay: [Value] = []
        for change in self.kept.filter({ $0.epoch == epoch && $0.seq > seq }).sorted(by: { $0.seq < $1.seq })
        where change.seq == self.seq + 1 {
            replay.append(change.change)
            self.seq = change.seq
        }
        self.kept = []
        defer { self.records = [] }
        return .complete(memos: self.records, replay: replay)
    }
}
