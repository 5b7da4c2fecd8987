import CZeroMQ
import Glibc
import Synchronization

/// A publisher's byte budget for its send queue.
///
/// The queue's high-water mark counts messages, and lowering it on an open connection can stall
/// the connection for good (``QueueBudget``). So the budget counts bytes itself: a payload of at
/// least ``accountedBytes`` goes to libzmq in a buffer of the budget's own
/// (`zmq_msg_init_data`), whose free function libzmq calls once the message has left the queue
/// (written to the connection, or dropped with it). The budget therefore knows how many bytes
/// are queued, exactly; a payload that would take them past it is not sent, and the publisher
/// counts it (`send_over_budget` in health) while its subscribers see a gap in its sequence.
/// Smaller payloads are bounded by the mark: 10 000 of at most 1 KiB by default.
final class SendBudget: Sendable {
    /// Payloads from this size on are counted against the budget.
    static let accountedBytes = 1024

    let bytes: Int
    private let queued = Atomic<Int>(0)

    init(bytes: Int) {
        self.bytes = max(bytes, 1)
    }

    /// Payload bytes sent and not yet written out or dropped by libzmq.
    var queuedBytes: Int { self.queued.load(ordering: .relaxed) }

    /// Whether a payload of `count` bytes fits beside what is queued.
    func admits(_ count: Int) -> Bool {
        self.queuedBytes + count <= self.bytes
    }

    /// Sends `payload` as the last frame of a message on `socket`, counted until libzmq frees it.
    ///
    /// - Throws: ``BusError`` if libzmq refuses it (the buffer is then freed and uncounted).
    func send(_ payload: UnsafeRawBufferPointer, on socket: ZMQSocket) throws {
        // The size goes in front of the bytes, for the free function, which gets only the bytes.
        let header = MemoryLayout<Int>.stride * 2
        guard let base = malloc(header + payload.count) else { throw BusError(errno: ENOMEM, call: "malloc") }
        base.storeBytes(of: payload.count, as: Int.self)
        let bytes = base + header
        if let source = payload.baseAddress { memcpy(bytes, source, payload.count) }
        self.queued.wrappingAdd(payload.count, ordering: .relaxed)
        var message = zmq_msg_t()
        let hint = Unmanaged.passRetained(self).toOpaque()
        guard zmq_msg_init_data(&message, bytes, payload.count, SendBudget.release, hint) == 0 else {
            SendBudget.release(bytes, hint)
            throw BusError.last("zmq_msg_init_data")
        }
        let handle = try socket.open()
        while zmq_msg_send(&message, handle, 0) < 0 {
            let error = BusError.last("zmq_msg_send")
            if error.isInterrupted { continue }
            zmq_msg_close(&message)
            throw error
        }
    }

    /// libzmq's free function for the budget's buffers: uncounts and frees one.
    private static let release: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
        bytes, hint in
        guard let bytes, let hint else { return }
        let base = bytes - MemoryLayout<Int>.stride * 2
        let budget = Unmanaged<SendBudget>.fromOpaque(hint).takeRetainedValue()
        budget.queued.wrappingSubtract(base.load(as: Int.self), ordering: .relaxed)
        free(base)
    }
}
