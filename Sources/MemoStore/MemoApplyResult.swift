import BusSchema

/// A message and the client it goes to: an ack (`memo/ack/<client>/`) or a snapshot chunk
/// (`memo/snapshot/<client>/`).
public struct Addressed<Message: Sendable & Hashable>: Sendable, Hashable {
    public var client: String
    public var message: Message

    public init(client: String, message: Message) {
        self.client = client
        self.message = message
    }
}

/// An ack and the client it goes to (`memo/ack/<client>/`).
public typealias AddressedAck = Addressed<MemoAck>

/// A snapshot chunk and the client that asked for it (`memo/snapshot/<client>/`).
public typealias AddressedSnapshot = Addressed<MemoSnapshot>

/// What one ``MemoStore/apply(batch:now:)`` produced, all of it committed.
///
/// Publish the acks first, then the changes (in `seq` order) and the snapshot chunks.
public struct MemoApplyResult: Sendable {
    /// One ack per command, in command order.
    public var acks: [AddressedAck] = []
    /// Every change the batch made, `seq` ascending and gap-free.
    public var changes: [MemoChanged] = []
    /// Snapshot chunks answering `snapshot` commands.
    public var snapshots: [AddressedSnapshot] = []
    /// Set when the batch could not be stored (full disk, I/O error): then nothing was
    /// applied and every ack is `rejected`.
    public var storageError: StoreError?

    public init() {}
}
