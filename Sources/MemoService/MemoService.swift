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
/// `rejected` ack when its `cmd_id` and `client` can be read, else it is only counted. Refused
/// before the batch, each counted: a client that is no valid name (``MemoClientName``), answered
/// on `memo/ack/_invalid/`; a payload over ``MemoStoreConfiguration/maximumCommandBytes``,
/// answered `rejected: too_large`. An answer over ``MemoStoreConfiguration/maximumAckBytes`` goes
/// out in parts; an ack that cannot be published is counted (`unpublished_acks`). A storage
/// failure (a full disk) rejects the whole batch with the reason; the service keeps running.
/// `now` is the wall clock in ms. The store is closed (checkpointing the WAL) when ``run()`` returns.
public final class MemoService {
    private let runner: ServiceRunner
    private var store: MemoStore?
    private let configuration: MemoStoreConfiguration
    private var pending: [MemoCommand] = []
    private var flushArmed = false
    private var counters = MemoServiceCounters()

    /// Takes ownership of `store`; it is used only on the loop's thread and closed at the end.
    public init(runner: ServiceRunner, store: MemoStore) {
        self.runner = runner
        self.store = store
        self.configuration = store.configuration
    }

    /// Runs until SIGTERM or SIGINT, then closes the database.
    public func run() throws {
        self.runner.healthExtra = { [unowned self] in self.counters.health }
        // Read commands up to the proxy's transport limit, so an oversized one is answered.
        self.runner.maximumMessageSize = Int(BusProxy.defaultMaximumMessageSize)
        try self.runner.subscribe(["memo/cmd/"], filter: SchemaFilter([MemoCommand.self])) {
            [unowned self] delivery, _ in
            self.received(delivery)
        }
        defer { self.store = nil }
        try self.runner.run()
    }

    private func received(_ delivery: Delivery) {
        self.counters.commands += 1
        let command: MemoCommand
        do {
            command = try MemoCommand(messagePack: delivery.payload)
        } catch {
            self.reject(payload: delivery.payload, error: error as? CodecError ?? CodecError(.invalidValue, offset: 0))
            return
        }
        if let problem = MemoClientName.problem(command.client) {
            self.counters.badClients += 1
            self.runner.statistics.reject("bad_client")
            self.publishAck(self.rejected(command, reason: "bad_client: \(problem)"), client: command.client)
            return
        }
        let size = delivery.payload.count
        if size > self.configuration.maximumCommandBytes {
            self.counters.tooLarge += 1
            self.runner.statistics.reject("too_large")
            let reason =
                "too_large: the command is \(size) bytes, more than the limit of \(self.configuration.maximumCommandBytes)"
            self.publishAck(self.rejected(command, reason: reason), client: command.client)
            return
        }
        self.pending.append(command)
        guard !self.flushArmed else { return }
        self.flushArmed = true
        self.runner.at(deadlineNs: 0) { [unowned self] in self.flush() }
    }

    private var seq: UInt64 { (try? self.store?.currentSeq()) ?? 0 }

    /// A `rejected` ack echoing the command's `memo_id` only when it is of a sane length.
    private func rejected(_ command: MemoCommand, reason: String) -> MemoAck {
        let memoId = command.memoId.flatMap { $0.utf8.count <= self.configuration.maximumNameBytes ? $0 : nil }
        return MemoAck {
            $0.cmdId = command.cmdId
            $0.status = .rejected
            $0.seq = self.seq
            $0.memoId = memoId
            $0.reason = reason
            $0.op = command.op
        }
    }

    /// Answers a command that did not decode, or counts it when there is no one to answer.
    private func reject(payload: [UInt8], error: CodecError) {
        self.counters.malformed += 1
        self.runner.statistics.reject("bad_payload")
        guard let (client, ack) = MemoAck.rejecting(payload: payload, error: error, seq: self.seq) else {
            self.counters.unanswerable += 1
            return
        }
        self.publishAck(ack, client: client)
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
        for addressed in result.acks { self.publishAck(addressed.message, client: addressed.client) }
        for change in result.changes { self.publish(change, on: { try Topic("memo/changed/") }) }
        for addressed in result.snapshots {
            self.publish(addressed.message, on: { try Topic(segments: "memo", "snapshot", addressed.client) })
        }
    }

    /// Publishes an ack on its client's topic (``MemoClientName/ackTopic(for:)``), in parts when
    /// it is too large for one message.
    private func publishAck(_ ack: MemoAck, client: String) {
        let limit = self.configuration.maximumAckBytes
        let parts =
            ack.results == nil && ack.export == nil && ack.files == nil ? [ack] : ack.chunked(maximumBytes: limit)
        if parts.count > 1 { self.counters.chunkedAcks += 1 }
        for part in parts {
            if !self.publish(part, on: { try Topic(MemoClientName.ackTopic(for: client)) }) {
                self.counters.unpublishedAcks += 1
            }
        }
    }

    /// Publishes one message; a failure is counted, never fatal, because the batch is already
    /// committed.
    @discardableResult
    private func publish<M: BusMessage>(_ message: M, on topic: () throws -> Topic) -> Bool {
        do {
            try self.runner.publisher.publish(message, on: try topic())
            return true
        } catch {
            self.counters.publishErrors += 1
            self.runner.statistics.countReason("publish_error")
            Log.error(self.runner.name, "cannot publish \(M.schema): \(error)")
            return false
        }
    }
}
