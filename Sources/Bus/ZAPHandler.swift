import CZeroMQ
import Synchronization

/// Decides who may join the bus: answers libzmq's ZAP 1.0 requests (ZeroMQ RFC 27) for the
/// proxy's CURVE sockets, accepting a client only if its public key is on the allow-list.
///
/// libzmq asks the REP socket bound at ``endpoint`` in the same context about every CURVE
/// handshake and holds the connection until the answer; a denied client never gets a message
/// through or from the proxy. Use it from the proxy's thread only.
final class ZAPHandler {
    /// Where libzmq looks for the handler (fixed by RFC 27).
    static let endpoint = "inproc://zeromq.zap.01"

    let socket: ZMQSocket
    let allowed: Set<String>
    let accepted = Atomic<UInt64>(0)
    let denied = Atomic<UInt64>(0)
    private var requestID: [UInt8] = []
    private var mechanism = ""
    private var clientKey: String?

    /// Binds the handler; it must exist before the server sockets take connections.
    init(context: ZMQContext, allowed: Set<String>) throws {
        self.socket = try ZMQSocket(context, .rep)
        self.allowed = allowed
        try self.socket.bind(Self.endpoint)
    }

    /// Answers every request waiting on the socket.
    func answerPending() throws {
        while true {
            self.clientKey = nil
            self.mechanism = ""
            // Frames: version, request id, domain, address, routing id, mechanism, credentials…
            let frames = try self.socket.receive(dontWait: true) { index, bytes in
                switch index {
                case 1: self.requestID = Array(bytes)
                case 5: self.mechanism = String(decoding: bytes, as: UTF8.self)
                case 6: self.clientKey = CurveKeyPair.text(ofBinaryKey: bytes)
                default: break
                }
            }
            guard let frames else { return }
            let allow = frames >= 7 && self.mechanism == "CURVE" && self.clientKey.map(self.allowed.contains) == true
            if allow {
                self.accepted.wrappingAdd(1, ordering: .relaxed)
            } else {
                self.denied.wrappingAdd(1, ordering: .relaxed)
            }
            let status = allow ? "200" : "400"
            let text = allow ? "OK" : "client key not allowed"
            try self.socket.send(Array("1.0".utf8), more: true)
            try self.socket.send(self.requestID, more: true)
            try self.socket.send(Array(status.utf8), more: true)
            try self.socket.send(Array(text.utf8), more: true)
            try self.socket.send(allow ? Array((self.clientKey ?? "").utf8) : [], more: true)
            try self.socket.send([], more: false)
        }
    }
}
