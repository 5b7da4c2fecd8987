import BusSchema

/// An ack and the client it goes to (`memo/ack/<client>/`).
public struct AddressedAck: Sendable, Hashable {
    public var client: String
    public var ack: MemoAck

    public init(client: String, ack: MemoAck) {
        self.client = client
        self.ack = ack
    }
}

/// A snapshot chunk and the client that asked for it (`memo/snapshot/<client>/`).
public struct AddressedSnapshot: Sendable, Hashable {
    public var client: String
    public var snapshot: MemoSnapshot

    public init(client: String, snapshot: MemoSnapshot) {
        self.client = client
        self.snapshot = snapshot
    }
}

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
