import BusSchema

extension MemoSnapshot {
    /// A chunk of a memo store's snapshot for tests: by default the first and last chunk, with
    /// default settings (`more` sets others).
    ///
    /// ```swift
    /// let only = MemoSnapshot.chunk("board1:s1:1", seq: 10, memos: [.memo("m1", x: 20, y: 20)])
    /// ```
    ///
    /// - Parameters:
    ///   - requestId: The snapshot request it answers.
    ///   - chunk: Its index among the chunks.
    ///   - last: Whether it is the last chunk.
    ///   - seq: The store sequence number the snapshot reflects.
    ///   - memos: The memos in this chunk.
    ///   - more: Sets the fields the test needs beyond these.
    public static func chunk(
        _ requestId: String, _ chunk: Int = 0, last: Bool = true, seq: UInt64, memos: [MemoRecord] = [],
        _ more: (inout MemoSnapshot) -> Void = { _ in }
    ) -> MemoSnapshot {
        MemoSnapshot {
            $0.requestId = requestId
            ($0.chunk, $0.last) = (chunk, last)
            $0.seq = seq
            $0.memos = memos
            more(&$0)
        }
    }
}
