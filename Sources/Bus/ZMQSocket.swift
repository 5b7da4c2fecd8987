import CZeroMQ

/// One ZeroMQ socket, owned by the thread that created it.
///
/// libzmq's PUB/SUB/XPUB/XSUB sockets are not thread-safe, so a socket must never be used
/// from two threads at once; the type is deliberately not `Sendable`. (A subscriber's socket is
/// shared with its budget's warden under a lock: ``ReceiveBudget``.) ``close()`` is idempotent and
/// `deinit` closes a socket that is still open. Every socket gets a bounded linger so that
/// closing it never blocks process exit for long.
public final class ZMQSocket {
    /// The ZeroMQ socket types UIBus uses.
    public struct Kind: Sendable, Hashable {
        let rawValue: Int32
        public static let pub = Kind(rawValue: ZMQ_PUB)
        public static let sub = Kind(rawValue: ZMQ_SUB)
        public static let xpub = Kind(rawValue: ZMQ_XPUB)
        public static let xsub = Kind(rawValue: ZMQ_XSUB)
        public static let pair = Kind(rawValue: ZMQ_PAIR)
        public static let rep = Kind(rawValue: ZMQ_REP)
    }

    /// The linger every socket starts with, in milliseconds.
    public static let defaultLingerMs: Int32 = 1000

    private(set) var handle: UnsafeMutableRawPointer?
    /// A descriptor ``Poller`` watches beside `ZMQ_FD`: a subscriber's ``ReceiveBudget`` signals
    /// on it the messages its warden took off the socket, whose signal libzmq then consumed.
    var wakeDescriptor: Int32?
    /// Called before the socket closes (a subscriber's warden stops using it).
    var willClose: (() -> Void)?
    /// Keeps the context alive for as long as the socket exists.
    private let context: ZMQContext

    /// Creates a socket. The corresponding C function is `zmq_socket`.
    ///
    /// - Throws: ``BusError`` if libzmq refuses (too many sockets, terminated context).
    public init(_ context: ZMQContext, _ kind: Kind) throws {
        guard let handle = zmq_socket(context.handle, kind.rawValue) else {
            throw BusError.last("zmq_socket")
        }
        self.handle = handle
        self.context = context
        try self.setOption(ZMQ_LINGER, Self.defaultLingerMs)
    }

    deinit {
        self.close()
    }

    /// Closes the socket; later calls do nothing. The corresponding C function is `zmq_close`.
    public func close() {
        guard let handle = self.handle else { return }
        self.willClose?()
        zmq_close(handle)
        self.handle = nil
    }

    public var isOpen: Bool { self.handle != nil }

    /// Binds to `endpoint`. The corresponding C function is `zmq_bind`.
    public func bind(_ endpoint: String) throws {
        try self.check(zmq_bind(try self.open(), endpoint), "zmq_bind", endpoint)
    }

    /// How often a connecting socket retries while nobody listens at its endpoint. libzmq's
    /// default of 100 ms is what a socket that connected before the proxy bound (or while a
    /// killed proxy restarts) loses before its first message: measured here, 35–160 ms at
    /// 100 ms against 20–24 ms at 20 ms. A retry is one failed `connect(2)`, so this stays cheap.
    public static let reconnectIntervalMs: Int32 = 20

    /// Connects to `endpoint`; the connection completes in the background and is retried every
    /// ``reconnectIntervalMs`` while it fails. The corresponding C function is `zmq_connect`.
    public func connect(_ endpoint: String) throws {
        try self.setOption(ZMQ_RECONNECT_IVL, Self.reconnectIntervalMs)
        try self.check(zmq_connect(try self.open(), endpoint), "zmq_connect", endpoint)
    }

    /// Sets an integer option. The corresponding C function is `zmq_setsockopt`.
    public func setOption(_ option: Int32, _ value: Int32) throws {
        var value = value
        let rc = zmq_setsockopt(try self.open(), option, &value, MemoryLayout<Int32>.size)
        try self.check(rc, "zmq_setsockopt", "option \(option)")
    }

    /// Sets a 64-bit integer option (`ZMQ_MAXMSGSIZE`). The corresponding C function is `zmq_setsockopt`.
    public func setOption(_ option: Int32, int64 value: Int64) throws {
        var value = value
        let rc = zmq_setsockopt(try self.open(), option, &value, MemoryLayout<Int64>.size)
        try self.check(rc, "zmq_setsockopt", "option \(option)")
    }

    /// Sets a byte-string option (`ZMQ_SUBSCRIBE`). The corresponding C function is `zmq_setsockopt`.
    public func setOption(_ option: Int32, bytes: String) throws {
        var bytes = bytes
        let rc = bytes.withUTF8 { zmq_setsockopt(self.handle, option, $0.baseAddress, $0.count) }
        try self.check(rc, "zmq_setsockopt", "option \(option)")
    }

    /// Reads an integer option. The corresponding C function is `zmq_getsockopt`.
    public func option(_ option: Int32) throws -> Int32 {
        var value: Int32 = 0
        var size = MemoryLayout<Int32>.size
        try self.check(zmq_getsockopt(try self.open(), option, &value, &size), "zmq_getsockopt", "option \(option)")
        return value
    }

    /// The descriptor ZeroMQ signals when commands reach the socket (how ``Poller`` waits on it).
    /// The corresponding C function is `zmq_getsockopt` with `ZMQ_FD`.
    public func notificationDescriptor() throws -> Int32 {
        try self.option(ZMQ_FD)
    }

    /// The endpoint the socket last bound or connected, with a wildcard port resolved
    /// (`tcp://127.0.0.1:*` → `tcp://127.0.0.1:41234`). The corresponding C function is
    /// `zmq_getsockopt` with `ZMQ_LAST_ENDPOINT`.
    public func lastEndpoint() throws -> String {
        var buffer = [CChar](repeating: 0, count: 1024)
        var size = buffer.count
        try self.check(
            zmq_getsockopt(try self.open(), ZMQ_LAST_ENDPOINT, &buffer, &size), "zmq_getsockopt", "last endpoint")
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Sends one frame; `more` says another frame of the same message follows.
    /// The corresponding C function is `zmq_send`; EINTR is retried.
    ///
    /// - Returns: false if `dontWait` was set and the socket could not take the frame now.
    @discardableResult
    public func send(_ bytes: UnsafeRawBufferPointer, more: Bool, dontWait: Bool = false) throws -> Bool {
        let handle = try self.open()
        let flags = (more ? ZMQ_SNDMORE : 0) | (dontWait ? ZMQ_DONTWAIT : 0)
        while true {
            if zmq_send(handle, bytes.baseAddress, bytes.count, flags) >= 0 { return true }
            let error = BusError.last("zmq_send")
            if error.isInterrupted { continue }
            if error.wouldBlock && dontWait { return false }
            throw error
        }
    }

    /// Sends one frame from a byte array.
    @discardableResult
    public func send(_ bytes: [UInt8], more: Bool, dontWait: Bool = false) throws -> Bool {
        try bytes.withUnsafeBytes { try self.send($0, more: more, dontWait: dontWait) }
    }

    /// Receives every frame of the next message into `frames`, reusing its buffers.
    ///
    /// - Returns: false if `dontWait` was set and no message was waiting.
    public func receive(into frames: inout Frames, dontWait: Bool = false) throws -> Bool {
        frames.removeAll()
        return try self.receive(dontWait: dontWait) { _, bytes in frames.append(bytes) } != nil
    }

    /// Receives every frame of the next message, showing each to `frame` (its index and bytes)
    /// while libzmq still holds it, so nothing is copied unless `frame` copies it.
    /// The corresponding C functions are `zmq_msg_init`, `zmq_msg_recv`, `zmq_msg_close`;
    /// EINTR is retried, and a message is always read to its last frame.
    ///
    /// - Returns: how many frames the message had, or nil if `dontWait` was set and no
    ///   message was waiting.
    public func receive(dontWait: Bool = false, _ frame: (Int, UnsafeRawBufferPointer) -> Void) throws -> Int? {
        let handle = try self.open()
        var message = zmq_msg_t()
        zmq_msg_init(&message)
        defer { zmq_msg_close(&message) }
        var flags = dontWait ? ZMQ_DONTWAIT : 0
        var count = 0
        while true {
            if zmq_msg_recv(&message, handle, flags) < 0 {
                let error = BusError.last("zmq_msg_recv")
                if error.isInterrupted { continue }
                if error.wouldBlock && count == 0 && dontWait { return nil }
                throw error
            }
            frame(count, UnsafeRawBufferPointer(start: zmq_msg_data(&message), count: zmq_msg_size(&message)))
            count += 1
            guard zmq_msg_more(&message) != 0 else { return count }
            // The rest of a multipart message is already here: never wait for it.
            flags = 0
        }
    }

    /// Moves every frame of the next message on this socket to `destination` without copying.
    /// The corresponding C functions are `zmq_msg_recv` and `zmq_msg_send`.
    ///
    /// - Returns: frames and bytes moved, or nil if no message was waiting.
    public func forward(to destination: ZMQSocket) throws -> (frames: Int, bytes: Int)? {
        try self.forward(to: destination, offerFirst: false, inspect: { _, _ in }, whenFull: {})
    }

    /// Moves every frame of the next message on this socket to `destination` without copying,
    /// showing each frame to `inspect` (its index and bytes) before it goes.
    ///
    /// - Returns: frames and bytes moved, or nil if no message was waiting.
    public func forward(
        to destination: ZMQSocket, inspect: (Int, UnsafeRawBufferPointer) -> Void
    ) throws -> (frames: Int, bytes: Int)? {
        try self.forward(to: destination, offerFirst: false, inspect: inspect, whenFull: {})
    }

    /// Forwards like ``forward(to:inspect:)``, but offers the first frame without waiting: when
    /// `destination` refuses it (an XPUB with `ZMQ_XPUB_NODROP` whose subscriber queue is full),
    /// `whenFull` is called to make room or let the message drop, and the frame is sent again.
    public func forward(
        to destination: ZMQSocket, inspect: (Int, UnsafeRawBufferPointer) -> Void, whenFull: () throws -> Void
    ) throws -> (frames: Int, bytes: Int)? {
        try self.forward(to: destination, offerFirst: true, inspect: inspect, whenFull: whenFull)
    }

    private func forward(
        to destination: ZMQSocket, offerFirst: Bool, inspect: (Int, UnsafeRawBufferPointer) -> Void,
        whenFull: () throws -> Void
    ) throws -> (frames: Int, bytes: Int)? {
        let source = try self.open()
        let target = try destination.open()
        var message = zmq_msg_t()
        zmq_msg_init(&message)
        defer { zmq_msg_close(&message) }
        var frames = 0
        var bytes = 0
        var receiveFlags = ZMQ_DONTWAIT
        while true {
            if zmq_msg_recv(&message, source, receiveFlags) < 0 {
                let error = BusError.last("zmq_msg_recv")
                if error.isInterrupted { continue }
                if error.wouldBlock && frames == 0 { return nil }
                throw error
            }
            let more = zmq_msg_more(&message) != 0
            inspect(frames, UnsafeRawBufferPointer(start: zmq_msg_data(&message), count: zmq_msg_size(&message)))
            bytes += zmq_msg_size(&message)
            frames += 1
            var sendFlags = (more ? ZMQ_SNDMORE : 0) | (frames == 1 && offerFirst ? ZMQ_DONTWAIT : 0)
            while zmq_msg_send(&message, target, sendFlags) < 0 {
                let error = BusError.last("zmq_msg_send")
                if error.wouldBlock, sendFlags & ZMQ_DONTWAIT != 0 {
                    try whenFull()
                    sendFlags &= ~ZMQ_DONTWAIT
                } else if !error.isInterrupted {
                    throw error
                }
            }
            guard more else { return (frames, bytes) }
            receiveFlags = 0
        }
    }

    func open() throws -> UnsafeMutableRawPointer {
        guard let handle = self.handle else { throw BusError(errno: ENOTSOCK, call: "socket", context: "closed") }
        return handle
    }

    private func check(_ rc: Int32, _ call: String, _ context: String) throws {
        if rc != 0 { throw BusError.last(call, context) }
    }
}
