import BusSchema

/// What the memo service has done, for its health reports.
struct MemoServiceCounters {
    /// Command messages received, good or not.
    var commands: UInt64 = 0
    /// Transactions run (group commits).
    var batches: UInt64 = 0
    var lastBatchSize = 0
    /// Batches that could not be stored (full disk, I/O error).
    var storageErrors: UInt64 = 0
    /// Commands that did not decode.
    var malformed: UInt64 = 0
    /// Malformed commands without a readable `cmd_id` and `client`: counted, not answered.
    var unanswerable: UInt64 = 0
    var publishErrors: UInt64 = 0

    var health: ValueMap {
        [
            "commands": Value(self.commands), "batches": Value(self.batches),
            "last_batch_size": .int(Int64(self.lastBatchSize)), "storage_errors": Value(self.storageErrors),
            "malformed": Value(self.malformed), "unanswerable": Value(self.unanswerable),
            "publish_errors": Value(self.publishErrors),
        ]
    }
}
