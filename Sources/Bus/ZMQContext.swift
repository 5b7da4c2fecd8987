import CZeroMQ

/// A ZeroMQ context: one per process, shared by every socket (the context is thread-safe).
public final class ZMQContext: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer

    /// Creates a context. The corresponding C function is `zmq_ctx_new`.
    ///
    /// - Parameter ioThreads: libzmq I/O threads; one is plenty below a few Gb/s.
    /// - Throws: ``BusError`` if libzmq cannot create it.
    public init(ioThreads: Int32 = 1) throws {
        guard let handle = zmq_ctx_new() else { throw BusError.last("zmq_ctx_new") }
        self.handle = handle
        zmq_ctx_set(handle, ZMQ_IO_THREADS, ioThreads)
        // New sockets get linger 0 unless told otherwise, so a forgotten socket never blocks exit.
        zmq_ctx_set(handle, ZMQ_BLOCKY, 0)
    }

    /// Terminates the context once every socket is closed. The corresponding C function is
    /// `zmq_ctx_term`; sockets have bounded linger, so this never hangs for long.
    deinit {
        while zmq_ctx_term(self.handle) != 0 && zmq_errno() == EINTR {}
    }

    /// The libzmq version as `major.minor.patch`. The corresponding C function is `zmq_version`.
    public static var libraryVersion: String {
        var major: Int32 = 0
        var minor: Int32 = 0
        var patch: Int32 = 0
        zmq_version(&major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }
}
