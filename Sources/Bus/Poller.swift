import CZeroMQ

/// Waits until sockets or plain file descriptors are readable.
///
/// The poll items belong to the thread that polls, like the sockets themselves.
public struct Poller {
    private var items: [zmq_pollitem_t] = []

    public init() {}

    /// Adds `socket`, returning its index for ``isReadable(_:)``.
    @discardableResult
    public mutating func add(_ socket: ZMQSocket) throws -> Int {
        self.items.append(zmq_pollitem_t(socket: try socket.open(), fd: -1, events: Int16(ZMQ_POLLIN), revents: 0))
        return self.items.count - 1
    }

    /// Adds a file descriptor (a signalfd, a pipe), returning its index.
    @discardableResult
    public mutating func add(fileDescriptor: Int32) -> Int {
        self.items.append(zmq_pollitem_t(socket: nil, fd: fileDescriptor, events: Int16(ZMQ_POLLIN), revents: 0))
        return self.items.count - 1
    }

    /// Waits up to `timeoutMs` (-1: forever) for any item to be readable.
    /// The corresponding C function is `zmq_poll`; an interrupted wait returns 0.
    ///
    /// - Returns: how many items are readable.
    @discardableResult
    public mutating func poll(timeoutMs: Int) throws -> Int {
        let count = Int32(self.items.count)
        let rc = self.items.withUnsafeMutableBufferPointer { zmq_poll($0.baseAddress, count, timeoutMs) }
        if rc < 0 {
            let error = BusError.last("zmq_poll")
            if error.isInterrupted {
                for index in self.items.indices { self.items[index].revents = 0 }
                return 0
            }
            throw error
        }
        return Int(rc)
    }

    /// Whether item `index` was readable at the last ``poll(timeoutMs:)``.
    public func isReadable(_ index: Int) -> Bool {
        self.items[index].revents & Int16(ZMQ_POLLIN) != 0
    }

    /// Whether item `index` reported an error or a hang-up at the last ``poll(timeoutMs:)``:
    /// `zmq_poll` maps a descriptor's `POLLERR`/`POLLHUP` (a removed device, a pipe whose writer
    /// closed) to `ZMQ_POLLERR`, without `ZMQ_POLLIN` once no data is left.
    public func hasError(_ index: Int) -> Bool {
        self.items[index].revents & Int16(ZMQ_POLLERR) != 0
    }
}
