import CZeroMQ
import Glibc
import Synchronization

/// Caps the connections a bound socket holds, below the process's descriptor limit.
///
/// libzmq accepts every connection it is offered, one descriptor each: ~20 800 ipc connections
/// made the proxy abort ("Too many open files"), and once `accept` fails with EMFILE its
/// listener is reported readable forever and the I/O thread spins. libzmq has no per-endpoint
/// limit, so the limiter watches the socket's monitor (`zmq_socket_monitor`: accepted and
/// disconnected, with the descriptor) and shuts down each connection past the cap as soon as
/// it is accepted (`shutdown(2)`: libzmq sees the connection fail and closes it cleanly),
/// counting it. The monitor's queue is bounded and libzmq waits when it is full, so a burst of
/// connections can outrun the cap by at most that queue; the cap leaves room for it. A
/// connection that closed before its event is read may have left its descriptor to a newer
/// one, which the shutdown then ends instead: only past the cap, and never anything but a
/// socket (`shutdown` fails on other descriptors).
final class ConnectionLimiter {
    /// The monitor's end, polled with the proxy's sockets.
    let socket: ZMQSocket
    let limit: Int
    private unowned let watched: ZMQSocket
    private var open: Set<Int32> = []
    private let refusedCount = Atomic<UInt64>(0)
    private var frames = Frames()
    private static let serial = Atomic<Int>(0)

    /// Starts monitoring `watched`. The corresponding C function is `zmq_socket_monitor`.
    ///
    /// - Throws: ``BusError`` if the monitor cannot be set up.
    init(context: ZMQContext, watching watched: ZMQSocket, limit: Int) throws {
        self.limit = max(limit, 1)
        self.watched = watched
        let address =
            "inproc://uibus-connections-\(getpid())-\(Self.serial.wrappingAdd(1, ordering: .relaxed).newValue)"
        let events = ZMQ_EVENT_ACCEPTED | ZMQ_EVENT_DISCONNECTED
        guard zmq_socket_monitor(try watched.open(), address, events) == 0 else {
            throw BusError.last("zmq_socket_monitor", address)
        }
        self.socket = try ZMQSocket(context, .pair)
        try self.socket.connect(address)
    }

    /// Stops monitoring and closes the monitor's end. Call it before closing the watched socket:
    /// libzmq waits while its monitor queue is full, and nobody would empty it any more.
    func close() {
        if let handle = self.watched.handle { zmq_socket_monitor(handle, nil, 0) }
        self.socket.close()
    }

    /// Connections refused so far.
    var refused: UInt64 { self.refusedCount.load(ordering: .relaxed) }
    /// Connections open now.
    var count: Int { self.open.count }
    /// The descriptors of the connections open now.
    var descriptors: Set<Int32> { self.open }

    /// Stops counting connections the owner has shut down, before libzmq reports them closed.
    func forget(_ descriptors: [Int32]) {
        for descriptor in descriptors { self.open.remove(descriptor) }
    }

    /// Reads every event waiting, refusing connections past the cap.
    func handleEvents() throws {
        while try self.socket.receive(into: &self.frames, dontWait: true) {
            // Event frame: a 16-bit event and a 32-bit value (the descriptor), in host order.
            guard self.frames.count >= 1, self.frames[0].count >= 6 else { continue }
            let (event, descriptor) = self.frames.withFrame(0) {
                (Int32($0.loadUnaligned(as: UInt16.self)), $0.loadUnaligned(fromByteOffset: 2, as: Int32.self))
            }
            switch event {
            case ZMQ_EVENT_ACCEPTED where self.open.count >= self.limit:
                shutdown(descriptor, Int32(SHUT_RDWR))
                self.refusedCount.wrappingAdd(1, ordering: .relaxed)
            case ZMQ_EVENT_ACCEPTED:
                self.open.insert(descriptor)
            case ZMQ_EVENT_DISCONNECTED:
                self.open.remove(descriptor)
            default:
                break
            }
        }
    }

    /// How many events libzmq's monitor socket queues before it waits (its default high-water
    /// mark): the most connections a burst can hold open past the cap before the limiter sees them.
    static let monitorQueue = 1000

    /// The per-endpoint cap for a process with `descriptors` open files allowed and `endpoints`
    /// bound: what is left after a reserve for everything else and each endpoint's burst
    /// (``monitorQueue``), halved for safety, shared out. libzmq's ipc listener aborts the
    /// process when `accept` fails with EMFILE (its tcp listener does not), so the bound has to
    /// hold for bursts too; it does from about 2 200 descriptors up (the proxy raises its soft
    /// limit to the hard one, 20 000 on this machine kind).
    static func limit(descriptors: Int, endpoints: Int) -> Int {
        let endpoints = max(endpoints, 1)
        return max((descriptors - 128 - endpoints * Self.monitorQueue) / 2 / endpoints, 8)
    }

    /// Raises the soft limit on open files to the hard one (`setrlimit`), returning the soft limit.
    static func raiseDescriptorLimit() -> Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 1024 }
        if limits.rlim_cur < limits.rlim_max {
            var raised = limits
            raised.rlim_cur = limits.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
        }
        return Int(clamping: min(limits.rlim_cur, rlim_t(Int32.max)))
    }
}
