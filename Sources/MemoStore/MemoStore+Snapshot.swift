import BusSchema

extension MemoStore {
    /// The whole board (memos on it and in the trash, plus settings) in chunks of
    /// ``MemoStoreConfiguration/snapshotChunkSize`` memos, as of the last commit.
    ///
    /// Every chunk carries the `seq` the snapshot reflects; the last has `last` set. An empty
    /// board is one empty last chunk.
    public func snapshot(requestId: String) throws -> [MemoSnapshot] {
        try self.connection.execute("BEGIN")
        defer { try? self.connection.execute("COMMIT") }
        let state = try self.loadState()
        return try self.snapshot(requestId: requestId, seq: state.seq, settings: state.settings)
    }

    func snapshot(requestId: String, seq: UInt64, settings: MemoSettings) throws -> [MemoSnapshot] {
        let memos = try self.allMemos()
        let size = max(1, self.configuration.snapshotChunkSize)
        let count = max(1, (memos.count + size - 1) / size)
        return (0..<count).map { chunk in
            let slice = memos[min(memos.count, chunk * size)..<min(memos.count, (chunk + 1) * size)]
            return MemoSnapshot {
                $0.requestId = requestId
                $0.chunk = chunk
                $0.last = chunk == count - 1
                $0.seq = seq
                $0.memos = Array(slice)
                $0.settings = settings
                $0.chunkCount = count
                $0.memoCount = memos.count
            }
        }
    }
}
