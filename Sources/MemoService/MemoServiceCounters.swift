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
    /// Commands refused for a client that is no valid name (answered on `memo/ack/_invalid/`).
    var badClients: UInt64 = 0
    /// Commands refused as larger than the limit.
    var tooLarge: UInt64 = 0
    /// Acks sent in parts.
    var chunkedAcks: UInt64 = 0
    /// Acks (or parts of one) that could not be published.
    var unpublishedAcks: UInt64 = 0

    var health: ValueMap {
        [
            "commands": Value(self.commands), "batches": Value(self.batches),
            "last_batch_size": .int(Int64(self.lastBatchSize)), "storage_errors": Value(self.storageErrors),
            "malformed": Value(self.malformed), "unanswerable": Value(self.unanswerable),
            "publish_errors": Value(self.publishErrors), "bad_clients": Value(self.badClients),
            "too_large": Value(self.tooLarge), "chunked_acks": Value(self.chunkedAcks),
            "unpublished_acks": Value(self.unpublishedAcks),
        ]
    }
}
