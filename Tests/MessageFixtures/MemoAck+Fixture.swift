import BusSchema

extension MemoAck {
    /// A memo store's answer to command `cmdId` for tests, with in `more` the fields of its kind
    /// (memo id, version, export, results…) the test needs.
    ///
    /// ```swift
    /// let ack = MemoAck.ack("board1:s1:1", .ok, seq: 4) { $0.memoId = "m1" }
    /// ```
    ///
    /// - Parameters:
    ///   - cmdId: The command it answers.
    ///   - status: What became of the command.
    ///   - seq: The store's sequence number after it.
    ///   - more: Sets the other fields.
    public static func ack(
        _ cmdId: String, _ status: Status, seq: UInt64, _ more: (inout MemoAck) -> Void = { _ in }
    ) -> MemoAck {
        MemoAck {
            $0.cmdId = cmdId
            $0.status = status
            $0.seq = seq
            more(&$0)
        }
    }
}
