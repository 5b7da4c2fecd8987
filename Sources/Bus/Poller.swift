import CZeroMQ
import Glibc

/// Waits until sockets or plain file descriptors are signalled, with one `poll` system call.
///
/// A ZeroMQ socket is watched through its notification descriptor (`ZMQ_FD`), which ZeroMQ
/// signals when commands reach the socket, such as "a peer's queue has messages again" after
/// the socket found its queues empty. So the owner of a socket reads it until it would block
/// (`EAGAIN`) once it is reported readable, and before waiting again; a reader that stops early
/// (a bounded batch) reads on without waiting. Sending on a socket may consume its signals too,
/// so a socket that is both sent on and read is read until it would block after sending.
/// `zmq_poll` spares callers these rules at a price the hot paths cannot pay: before and after
/// every wait it checks each socket's `ZMQ_EVENTS`, two more system calls per socket.
///
/// A subscriber's socket comes with a second descriptor, watched beside `ZMQ_FD` under the same
/// index: its ``ReceiveBudget``'s warden may read the socket while the owner waits, which
/// consumes libzmq's signal, and it signals that descriptor instead.
///
/// The poll items belong to the thread that polls, like the sockets themselves.
public struct Poller {
    private var descriptors: [pollfd] = []
    /// For each descriptor, whether the next one belongs to the same item (a wake descriptor).
    private var paired: [Bool] = []

    public init() {}

    /// Adds `socket`, returning its index for ``isReadable(_:)``.
    ///
    /// - Throws: ``BusError`` if the socket is closed.
    @discardableResult
    public mutating func add(_ socket: ZMQSocket) throws -> Int {
        let index = self.add(fileDescriptor: try socket.notificationDescriptor())
        if let wake = socket.wakeDescriptor {
            self.paired[index] = true
            self.add(fileDescriptor: wake)
        }
        return index
    }

    /// Adds a file descriptor (a signalfd, a pipe), returning its index.
    @discardableResult
    public mutating func add(fileDescriptor: Int32) -> Int {
        self.descriptors.append(pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0))
        self.paired.append(false)
        return self.descriptors.count - 1
    }

    /// Waits up to `timeoutMs` (-1: forever) for any item to be signalled.
    /// The corresponding C function is `poll`; an interrupted wait returns 0.
    ///
    /// - Returns: how many items are signalled.
    /// - Throws: ``BusError`` if `poll` fails for another reason.
    @discardableResult
    public mutating func poll(timeoutMs: Int) throws -> Int {
        let count = nfds_t(self.descriptors.count)
        let timeout = Int32(clamping: timeoutMs)
        let rc = self.descriptors.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, count, timeout) }
        if rc < 0 {
            let error = BusError(errno: errno, call: "poll")
            if error.isInterrupted {
                for index in self.descriptors.indices { self.descriptors[index].revents = 0 }
                return 0
            }
            throw error
        }
        return Int(rc)
    }

    /// Whether item `index` was signalled at the last ``poll(timeoutMs:)``; for a socket, that it
    /// may have messages to read.
    public func isReadable(_ index: Int) -> Bool {
        self.descriptors[index].revents & Int16(POLLIN) != 0
            || (self.paired[index] && self.descriptors[index + 1].revents & Int16(POLLIN) != 0)
    }

    /// Whether item `index` reported an error or a hang-up at the last ``poll(timeoutMs:)`` (a
    /// removed device, a pipe whose writer closed): `POLLIN` may come with it while data is left.
    public func hasError(_ index: Int) -> Bool {
        self.descriptors[index].revents & ~Int16(POLLIN | POLLOUT) != 0
    }
}
