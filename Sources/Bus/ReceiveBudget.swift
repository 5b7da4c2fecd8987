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
/// thread empties into the queue anyway. So a warden thread empties the queue itself when it
/// grows: every ``periodMs`` it looks, and if the owner did not get to the end of the queue
/// since its last look while the process's resident memory grew by half the budget since the
/// owner last did (from the lowest it was since) (a queued message's bytes are resident; `/proc/self/statm`, one `pread`), it
/// reads every queued message into a queue of its own that holds at most ``bytes``. A message
/// past that is dropped and counted (`receive_over_budget` in health, beside the sequence gap
/// its subscriber sees). The owner's reads take that queue first, in order, then the socket.
/// What the process holds unread is then at most the budget, half of it again before the
/// warden acts, and what arrives in one period. An owner that keeps up, or whose memory does
/// not grow, never meets the warden beyond an uncontended lock a read (and the hop benchmark's
/// instructions stay where they were). Queued small messages never reach the threshold: the
/// high-water mark bounds them (10 000 touch frames are 2 MB).
///
/// The socket is shared with the warden under ``lock``: libzmq lets a socket change threads
/// with a full memory barrier between, which the lock gives. The owner waits on an epoll
/// descriptor (``notifications``) that is readable when libzmq signals the socket or when the
/// warden has put messages in the queue the owner has not seen, because the warden's reads
/// consume libzmq's signal.
final class ReceiveBudget: @unchecked Sendable {
    /// How often the warden looks.
    static let periodMs = 10

    let bytes: Int
    /// What the owner polls instead of the socket's `ZMQ_FD`.
    let notifications: Int32
    private let socket: ZMQSocket
    private let statistics: BusStatistics
    /// Written when the warden queues messages; emptied when the owner has taken them all.
    private let wakeup: Int32
    /// `/proc/self/statm`, kept open; -1 without /proc (the heap in use stands in).
    private let statm: Int32
    private let lock: Mutex<Shared>

    private struct Shared {
        var held: [Frames] = []
        /// Where the owner's next message is in ``held`` (taken ones are removed in batches).
        var next = 0
        var heldBytes = 0
        /// Whether the owner got to the end of the queue since the warden's last look.
        var ownerEmptied = false
        /// Resident bytes at the last look after the owner got to the end of the queue, or the
        /// fewest seen at a look since.
        var residentWhenEmptied: Int
        var stopped = false
    }

    /// Shares `socket` with a warden that keeps what it holds unread within `bytes`.
    ///
    /// - Throws: ``BusError`` if the descriptors or the thread cannot be made.
    init(socket: ZMQSocket, bytes: Int, statistics: BusStatistics) throws {
        self.socket = socket
        self.bytes = max(bytes, 1 << 20)
        self.statistics = statistics
        self.statm = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        self.lock = Mutex(Shared(residentWhenEmptied: 0))
        let socketDescriptor = try socket.notificationDescriptor()
        self.wakeup = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard self.wakeup >= 0 else {
            let error = BusError(errno: errno, call: "eventfd")
            if self.statm >= 0 { Glibc.close(self.statm) }
            throw error
        }
        self.notifications = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard self.notifications >= 0 else {
            let error = BusError(errno: errno, call: "epoll_create1")
            Glibc.close(self.wakeup)
            if self.statm >= 0 { Glibc.close(self.statm) }
            throw error
        }
        for descriptor in [socketDescriptor, self.wakeup] {
            var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: descriptor))
            // The descriptors are closed by deinit from here on.
            guard epoll_ctl(self.notifications, EPOLL_CTL_ADD, descriptor, &event) == 0 else {
                throw BusError(errno: errno, call: "epoll_ctl")
            }
        }
        self.lock.withLock { $0.residentWhenEmptied = self.residentBytes() }
        var thread = pthread_t()
        let retained = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<ReceiveBudget>.fromOpaque(raw!).takeRetainedValue().watch()
                return nil
            }, retained)
        guard started == 0 else {
            Unmanaged<ReceiveBudget>.fromOpaque(retained).release()
            throw BusError(errno: started, call: "pthread_create")
        }
        pthread_detach(thread)
    }

    deinit {
        Glibc.close(self.wakeup)
        Glibc.close(self.notifications)
        if self.statm >= 0 { Glibc.close(self.statm) }
    }

    /// Stops the warden before the socket closes; the socket is the owner's alone from then on.
    func stop() {
        self.lock.withLock { $0.stopped = true }
    }

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
            if count == nil { shared.ownerEmptied = true }
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
            var value: UInt64 = 0
            _ = Glibc.read(self.wakeup, &value, MemoryLayout<UInt64>.size)
        }
        for index in 0..<frames.count { frames.withFrame(index) { frame(index, $0) } }
        return frames.count
    }

    /// The warden's loop: a look every ``periodMs`` until ``stop()``.
    private func watch() {
        while true {
            usleep(UInt32(Self.periodMs * 1000))
            let stopped = self.lock.withLock { shared in
                if !shared.stopped { self.look(&shared) }
                return shared.stopped
            }
            if stopped { return }
        }
    }

    private func look(_ shared: inout Shared) {
        defer { shared.ownerEmptied = false }
        let resident = self.residentBytes()
        if shared.ownerEmptied {
            shared.residentWhenEmptied = resident
            return
        }
        // From the lowest point since: memory the rest of the process gave back does not hide
        // the queue's growth.
        shared.residentWhenEmptied = min(shared.residentWhenEmptied, resident)
        guard resident - shared.residentWhenEmptied > self.bytes / 2 else { return }
        let wasEmpty = shared.next == shared.held.count
        var frames = Frames()
        // At most a queue's worth a look, so a publisher faster than the warden cannot keep the
        // owner locked out.
        for _ in 0..<Subscriber.defaultReceiveHighWaterMark {
            guard (try? self.socket.receive(into: &frames, dontWait: true)) == true else { break }
            let size = Self.size(frames)
            if shared.heldBytes + size > self.bytes {
                self.statistics.countReason("receive_over_budget")
                continue
            }
            shared.held.append(frames)
            shared.heldBytes += size
            frames = Frames()
        }
        if wasEmpty, shared.next < shared.held.count {
            var one: UInt64 = 1
            _ = Glibc.write(self.wakeup, &one, MemoryLayout<UInt64>.size)
        }
    }

    /// The process's resident bytes (the second field of `/proc/self/statm`, in pages).
    private func residentBytes() -> Int {
        var text = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let count = withUnsafeMutableBytes(of: &text) { pread(self.statm, $0.baseAddress, $0.count, 0) }
        guard self.statm >= 0, count > 0 else { return Int(clinux_heap_in_use()) }
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
