import CLinux
import Glibc
import Synchronization

/// A subscriber's byte budget for what it holds unread, kept while its owner is slow to read or
/// does not read at all.
///
/// What a subscriber holds unread is libzmq's receive queue, which libzmq's I/O thread fills
/// from the connection whether or not the owner reads. Nothing libzmq offers bounds its bytes:
/// `ZMQ_RCVHWM` counts messages (10 000 of up to the proxy's 16 MiB each), `ZMQ_MAXMSGSIZE`
/// ends the connection for good on a larger message (see ``Subscriber``'s initializer), and
/// `ZMQ_RCVBUF` sizes the kernel's buffer, which is not the process's memory and which the I/O
/// thread empties into the queue anyway. So a warden (one thread for all of a process's
/// subscribers: ``ReceiveWarden``) empties the queue itself when it grows: every ``periodMs`` it
/// looks, and if the owner did not get to the end of the queue since its last look while the
/// process's resident memory (`/proc/self/statm`, one `pread`; a queued message's bytes are
/// resident) grew by half the budget since the owner last did (from the lowest it was since),
/// it reads the queued messages into a queue of its own that holds at most ``bytes`` and at most
/// ``highWaterMark`` messages. A message past the bytes is dropped and counted
/// (`receive_over_budget` in health, beside the sequence gap its subscriber sees); at the
/// message count the warden stops and leaves the rest in libzmq's queue, unless memory grew by
/// the whole budget: then the bytes alone decide. The owner's reads take that queue first, in
/// order, then the socket. What the process holds unread is then at most the budget, as much
/// again before the warden acts, and what arrives in one period (a millisecond while it drains).
/// The count keeps small messages under the high-water mark's back-pressure: the trigger is the
/// whole process's memory, which grows for reasons of its own (another subscriber's large
/// messages, any allocation), and a warden that emptied a queue of small messages past the mark
/// would let a publisher that waits rather than drops (`ZMQ_XPUB_NODROP`, as the proxy) run on,
/// and would then drop what it cannot hold; a mark's worth of small messages never grows memory
/// by the whole budget (10 000 touch frames are 2 MB), large ones queued behind them do. An
/// owner that keeps up, or whose memory does not grow, never meets the warden beyond an
/// uncontended lock a read. A subscriber costs one descriptor (``wakeup``).
///
/// The socket is shared with the warden under ``lock``: libzmq lets a socket change threads
/// with a full memory barrier between, which the lock gives. The warden's reads process the
/// socket's pending commands, and with them the signal on `ZMQ_FD` that an owner waiting in
/// `poll` would wake for (libzmq signals that descriptor only when a reader that found the queue
/// empty gets a message again, and any call on the socket may consume it). So after a look
/// that took a message, or that stopped before the socket would block, the warden writes
/// ``wakeup`` (an eventfd), which ``Poller`` watches beside `ZMQ_FD` under the socket's index
/// (``ZMQSocket/wakeDescriptor``): the owner then has something to read or must read the socket
/// until it would block. The owner empties it when a read finds both queues empty, which is
/// also where ``Poller``'s rule has it read to before it waits again. A look that found the
/// socket empty at once leaves the owner's wait as on any socket.
final class ReceiveBudget: @unchecked Sendable {
    /// How often the warden looks.
    static let periodMs = 10
    /// How often it looks while its looks take messages.
    static let drainingPeriodMs = 1

    let bytes: Int
    /// The most messages the warden holds (the subscriber's receive high-water mark).
    let highWaterMark: Int
    /// Written after a look that took messages or left some on the socket; emptied when the
    /// owner finds nothing left to read.
    let wakeup: Int32
    /// The subscriber's socket, not kept alive by the budget: the warden may hold the budget
    /// until its next look after ``stop()``, and a socket kept alive keeps its context alive, so
    /// a process that exits before that look would skip `zmq_ctx_term`, whose linger flushes what
    /// the process last published. The socket's close stops the budget first, and the warden
    /// touches the socket only while the budget is not stopped, under ``lock``.
    private unowned let socket: ZMQSocket
    private let statistics: BusStatistics
    private let lock: Mutex<Shared>

    private struct Shared {
        var held: [Frames] = []
        /// Where the owner's next message is in ``held`` (taken ones are removed in batches).
        var next = 0
        var heldBytes = 0
        /// Whether ``wakeup`` was written since the owner last found nothing to read.
        var wakeupWritten = false
        /// Whether the owner got to the end of the queue since the warden's last look.
        var ownerEmptied = false
        /// Resident bytes at the last look after the owner got to the end of the queue (or at the
        /// look before it, if fewer), or the fewest seen at a look since.
        var residentWhenEmptied: Int
        /// Resident bytes at the warden's last look.
        var residentAtLastLook: Int
        var stopped = false
        /// Messages the warden has taken off the socket in all.
        var taken = 0
    }

    /// Shares `socket` with the process's warden, which keeps what it holds unread within `bytes`
    /// and `highWaterMark` messages.
    ///
    /// - Throws: ``BusError`` if the eventfd or the warden's thread cannot be made.
    init(socket: ZMQSocket, bytes: Int, highWaterMark: Int, statistics: BusStatistics) throws {
        self.socket = socket
        self.bytes = max(bytes, 1 << 20)
        self.highWaterMark = max(highWaterMark, 1)
        self.statistics = statistics
        let resident = Self.residentBytes()
        self.lock = Mutex(Shared(residentWhenEmptied: resident, residentAtLastLook: resident))
        self.wakeup = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard self.wakeup >= 0 else { throw BusError(errno: errno, call: "eventfd") }
        try ReceiveWarden.watch(self)
    }

    deinit {
        Glibc.close(self.wakeup)
    }

    /// Stops the warden's looks before the socket closes; the socket is the owner's alone from
    /// then on.
    func stop() {
        self.lock.withLock { $0.stopped = true }
    }

    /// Whether ``stop()`` was called (the warden lets go of the budget).
    var isStopped: Bool { self.lock.withLock { $0.stopped } }

    /// Messages the warden has taken off the socket so far (into its queue or dropped).
    var taken: Int { self.lock.withLock { $0.taken } }

    /// Runs `body` with the socket while the warden keeps off it (a subscription change).
    func withSocket<R>(_ body: (ZMQSocket) throws -> R) rethrows -> R {
        try self.lock.withLock { _ in try body(self.socket) }
    }

    /// Reads the owner's next message: the oldest the warden queued, else one from the socket,
    /// showing each frame to `frame` (see ``ZMQSocket/receive(dontWait:_:)``).
    ///
    /// - Returns: how many frames it had; nil when nothing was queued.
    @inline(__always)
    func read(_ frame: (Int, UnsafeRawBufferPointer) -> Void) throws -> Int? {
        try self.lock.withLock { shared in
            if shared.next < shared.held.count { return self.takeHeld(&shared, frame) }
            let count = try self.socket.receive(dontWait: true, frame)
            if count == nil {
                shared.ownerEmptied = true
                if shared.wakeupWritten {
                    shared.wakeupWritten = false
                    var value: UInt64 = 0
                    _ = Glibc.read(self.wakeup, &value, MemoryLayout<UInt64>.size)
                }
            }
            return count
        }
    }

    private func takeHeld(_ shared: inout Shared, _ frame: (Int, UnsafeRawBufferPointer) -> Void) -> Int {
        let frames = shared.held[shared.next]
        shared.held[shared.next] = Frames()
        shared.next += 1
        shared.heldBytes -= Self.size(frames)
        if shared.next == shared.held.count {
            shared.held.removeAll()
            shared.next = 0
        }
        for index in 0..<frames.count { frames.withFrame(index) { frame(index, $0) } }
        return frames.count
    }

    /// One look of the warden's (``ReceiveWarden``), unless the budget was stopped.
    ///
    /// - Parameter asIfMemoryGrew: take as when the process's memory grew by that many bytes
    ///   (tests drive the warden's reads with it, without growing memory or waiting for a look).
    /// - Returns: whether it took messages off the socket.
    func look(asIfMemoryGrew: Int? = nil) -> Bool {
        self.lock.withLock { shared in
            guard !shared.stopped else { return false }
            let taken = shared.taken
            let growth = asIfMemoryGrew ?? self.memoryGrowth(&shared)
            if growth > self.bytes / 2 { self.take(&shared, pastCount: growth > self.bytes) }
            return shared.taken > taken
        }
    }

    /// How much the process's memory grew while the owner did not get to the end of its queue
    /// (0 when it did).
    private func memoryGrowth(_ shared: inout Shared) -> Int {
        defer { shared.ownerEmptied = false }
        let resident = Self.residentBytes()
        defer { shared.residentAtLastLook = resident }
        if shared.ownerEmptied {
            // The owner emptied the queue between the last look and this one, and what arrived
            // since may already be resident: the last look's reading came before that arrival
            // (a flood that filled the queue before this look, under a warden late for its
            // core, would otherwise be the baseline and never count as growth).
            shared.residentWhenEmptied = min(resident, shared.residentAtLastLook)
            return 0
        }
        // From the lowest point since: memory the rest of the process gave back does not hide
        // the queue's growth.
        shared.residentWhenEmptied = min(shared.residentWhenEmptied, resident)
        return resident - shared.residentWhenEmptied
    }

    /// Reads the socket into the held queue until it would block, the queue holds
    /// ``highWaterMark`` messages (unless `pastCount`), or a queue's worth was read (so a
    /// publisher faster than the warden cannot keep the owner locked out); then wakes the owner
    /// unless the socket was empty at once.
    private func take(_ shared: inout Shared, pastCount: Bool) {
        let taken = shared.taken
        var wouldBlock = false
        var frames = Frames()
        var reads = 0
        while reads < self.highWaterMark, pastCount || shared.held.count - shared.next < self.highWaterMark {
            reads += 1
            guard (try? self.socket.receive(into: &frames, dontWait: true)) == true else {
                wouldBlock = true
                break
            }
            shared.taken += 1
            let size = Self.size(frames)
            if shared.heldBytes + size > self.bytes {
                self.statistics.countReason("receive_over_budget")
                continue
            }
            shared.held.append(frames)
            shared.heldBytes += size
            frames = Frames()
        }
        // The reads consumed libzmq's signal for what the owner now holds, or for what is still
        // on the socket (a look that stopped early); one that would block at once took nothing
        // and leaves libzmq to signal the next message.
        guard !shared.wakeupWritten, shared.taken > taken || !wouldBlock else { return }
        shared.wakeupWritten = true
        var one: UInt64 = 1
        _ = Glibc.write(self.wakeup, &one, MemoryLayout<UInt64>.size)
    }

    /// `/proc/self/statm`, open for the process's life and shared by every budget (`pread` at
    /// offset 0 from any thread); -1 without /proc, where the heap in use stands in.
    private static let statm = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)

    /// The process's resident bytes (the second field of `/proc/self/statm`, in pages).
    private static func residentBytes() -> Int {
        var text = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let count = withUnsafeMutableBytes(of: &text) { pread(Self.statm, $0.baseAddress, $0.count, 0) }
        guard Self.statm >= 0, count > 0 else { return Int(clinux_heap_in_use()) }
        let pages = withUnsafeBytes(of: &text) { bytes in
            bytes.prefix(count).split(separator: UInt8(ascii: " "), maxSplits: 2).dropFirst().first
                .map { $0.reduce(0) { $0 * 10 + Int($1 &- UInt8(ascii: "0")) } } ?? 0
        }
        return pages * Self.pageSize
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// What a held message counts against the budget: its bytes and a little for each frame.
    private static func size(_ frames: Frames) -> Int {
        frames.byteCount + 64 * frames.count
    }
}
