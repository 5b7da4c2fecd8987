import CZeroMQ

/// A failed bus operation: which C call failed, its errno, and what it was doing.
public struct BusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The errno reported by `zmq_errno()` (0 for errors raised by UIBus itself).
    public var errno: Int32
    /// The C function that failed, or the UIBus operation for errors of our own.
    public var call: String
    /// The endpoint, option or file involved.
    public var context: String

    public init(errno: Int32, call: String, context: String = "") {
        self.errno = errno
        self.call = call
        self.context = context
    }

    /// Captures `zmq_errno()` for a failed `call`.
    static func last(_ call: String, _ context: String = "") -> BusError {
        BusError(errno: zmq_errno(), call: call, context: context)
    }

    /// The text `zmq_strerror` gives for ``errno``.
    public var message: String {
        self.errno == 0 ? "" : String(cString: zmq_strerror(self.errno))
    }

    public var description: String {
        var text = self.call
        if !self.context.isEmpty { text += " (\(self.context))" }
        if self.errno != 0 { text += ": \(self.message) [errno \(self.errno)]" }
        return text
    }

    /// The call was interrupted by a signal and can be retried.
    public var isInterrupted: Bool { self.errno == EINTR }
    /// A non-blocking call found nothing to do.
    public var wouldBlock: Bool { self.errno == EAGAIN }
    /// The context was terminated; the socket must be closed.
    public var isTerminated: Bool { self.errno == CZMQ_ETERM }
}
