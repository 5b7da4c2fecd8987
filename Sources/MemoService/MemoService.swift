import Bus
import BusSchema
import MemoStore
import ServiceSupport

/// `memo-store` on the bus: memo commands in, acks, changes and snapshots out, after COMMIT.
///
/// Subscribes `memo/cmd/` (``MemoCommand``). Group commit: the subscription handler only
/// collects decoded commands; the first one of a turn arms a one-shot timer at a deadline
/// already past, which the loop fires in the same turn right after it has drained the queued
/// messages (up to 1024). That timer applies everything collected as one batch
/// (``MemoStore/apply(batch:now:)``, one transaction, a savepoint per command), then publishes
/// the acks on `memo/ack/<client>/`, the changes on `memo/changed/` (global `seq` ascending)
/// and the snapshot chunks on `memo/snapshot/<client>/`. A command that does not decode gets a
/// `rejected` ack when its `cmd_id` and `client` can be read, else it is only counted. A storage
/// failure (a full disk) rejects the whole batch with the reason; the service keeps running.
/// `now` is the wall clock in ms. The store is closed (checkpointing the WAL) when ``run()`` returns.
public final class MemoService {
    private let runner: ServiceRunner
    private var store: MemoStore?
    private var pending: [MemoCommand] = []
    private var flushArmed = false
    private var counters = MemoServiceCounters()

    /// Takes ownership of `store`; it is used only on the loop's thread and closed at the end.
    public init(runner: ServiceRunner, store: MemoStore) {
        self.runner = runner
        self.store = store
    }

    /// Runs until SIGTERM or SIGINT, then closes the database.
    public func run() throws {
        self.runner.healthExtra = { [unowned self] in self.counters.health }
        try self.runner.subscribe(["memo/cmd/"], filter: SchemaFilter([MemoCommand.self])) {
            [unowned self] delivery, _ in
            try self.received(delivery)
        }
        defer { self.store = nil }
        try self.runner.run()
    }

    private func received(_ delivery: Delivery) throws {
        self.counters.commands += 1
        let command: MemoCommand
        do {
            command = try MemoCommand(messagePack: delivery.payload)
        } catch let error as CodecError {
            try self.reject(payload: delivery.payload, error: error)
            return
        }
        self.pending.append(command)
        guard !self.flushArmed else { return }
        self.flushArmed = true
        self.runner.at(deadlineNs: 0) { [unowned self] in self.flush() }
    }

    /// Answers a command that did not decode, or counts it when there is no one to answer.
    private func reject(payload: [UInt8], error: CodecError) throws {
        self.counters.malformed += 1
        self.runner.statistics.reject("bad_payload")
        let seq = (try? self.store?.currentSeq()) ?? 0
        guard let (client, ack) = MemoAck.rejecting(payload: payload, error: error, seq: seq) else {
            self.counters.unanswerable += 1
            return
        }
        try self.runner.publisher.publish(ack, on: try Topic(segments: "memo", "ack", client))
    }

    /// Applies the collected commands as one batch and publishes what it produced.
    private func flush() {
        self.flushArmed = false
        let batch = self.pending
        self.pending.removeAll(keepingCapacity: true)
        guard let store = self.store, !batch.isEmpty else { return }
        let result = store.apply(batch: batch, now: Int64(Clock.wallNs() / 1_000_000))
        self.counters.batches += 1
        self.counters.lastBatchSize = batch.count
        if let error = result.storageError {
            self.counters.storageErrors += 1
            Log.error(self.runner.name, "batch of \(batch.count) not stored: \(error)")
        }
        for addressed in result.acks {
            self.publish(addressed.ack, on: { try Topic(segments: "memo", "ack", addressed.client) })
        }
        for change in result.changes { self.publish(change, on: { try Topic("memo/changed/") }) }
        for addressed in result.snapshots {
            self.publish(addressed.snapshot, on: { try Topic(segments: "memo", "snapshot", addressed.client) })
        }
    }

    /// Publishes one message; a failure (a client name that is no topic segment) is counted,
    /// never fatal, because the batch is already committed.
    private func publish<M: BusMessage>(_ message: M, on topic: () throws -> Topic) {
        do {
            try self.runner.publisher.publish(message, on: try topic())
        } catch {
            self.counters.publishErrors += 1
            self.runner.statistics.countReason("publish_error")
            Log.error(self.runner.name, "cannot publish \(M.schema): \(error)")
        }
    }
}
