import BusSchema
import CLinux
import Glibc

/// The proxy's byte budget for what it holds queued for subscribers, kept by cutting off the
/// subscribers that fall behind.
///
/// libzmq's high-water marks count messages: a queue of 100 000 touch frames is a few megabytes,
/// one of 100 000 rendered frames a hundred gigabytes (a subscriber that stopped reading 1 MB
/// messages took the proxy to 3 GB in 12 s). libzmq has no byte limit, cannot say how much one
/// subscriber's queue holds, and a mark lowered on an open connection can stall it for good (its
/// reader acknowledges every `hwm / 2` messages it reads). So the proxy measures instead: every
/// message queued for a subscriber lives on the heap, and glibc knows how much of it is in use
/// (`mallinfo2`). Less the late joiners' cache, which has its own limit, that is held against the
/// budget after every eighth of it forwarded and once a second. Over budget, each subscriber
/// connection whose kernel send queue is at least half full (`SIOCOUTQ` against `SO_SNDBUF`: a
/// subscriber that keeps up leaves it nearly empty, one that does not keeps it full while its
/// queue in the proxy grows) is shut down, the way ``ConnectionLimiter`` refuses connections:
/// libzmq closes it and frees its queue. The subscriber reconnects at once, counts what it lost
/// as gaps, and the cache hands it the newest state. NATS (a "slow consumer") and Redis
/// (`client-output-buffer-limit pubsub`) treat subscribers that fall behind the same way.
///
/// Cuts are counted in all and per subscriber (its pid over ipc, its address over tcp), the
/// most recent ``peersKept`` of them, for the proxy's health.
struct QueueBudget {
    /// Subscribers whose cuts health names one by one.
    static let peersKept = 8

    let bytes: Int
    /// Heap in use beyond the cache at the last check.
    private(set) var queuedBytes = 0
    /// Subscribers cut off so far.
    private(set) var cuts: UInt64 = 0
    /// Cuts of the subscribers cut lately, by a health key naming the subscriber, newest last.
    private(set) var cutsByPeer: [(key: String, cuts: UInt64)] = []
    private var forwardedSinceCheck = 0

    init(bytes: Int) {
        self.bytes = max(bytes, 1 << 20)
    }

    /// Counts `bytes` forwarded; true once an eighth of the budget went by since the last check.
    @inline(__always)
    mutating func forwarded(_ bytes: Int) -> Bool {
        self.forwardedSinceCheck &+= bytes
        return self.forwardedSinceCheck >= self.bytes / 8
    }

    /// Measures the heap against the budget and, if over it, cuts the subscribers behind.
    ///
    /// - Parameters:
    ///   - cacheBytes: what the late joiners' cache holds, which it bounds itself.
    ///   - subscribers: the descriptors of the output's connections.
    /// - Returns: the descriptors cut.
    @discardableResult
    mutating func check(cacheBytes: Int, subscribers: Set<Int32>) -> [Int32] {
        self.forwardedSinceCheck = 0
        self.queuedBytes = max(Int(clinux_heap_in_use()) - cacheBytes, 0)
        guard self.queuedBytes > self.bytes else { return [] }
        let behind = subscribers.filter(Self.isBehind)
        for descriptor in behind {
            let key = Self.healthKey(descriptor)
            shutdown(descriptor, Int32(SHUT_RDWR))
            self.cuts += 1
            self.countCut(key)
        }
        return Array(behind)
    }

    /// The numbers for health: the budget, what is queued, cuts in all and per subscriber.
    var health: [(String, Value)] {
        [
            ("queue_budget_bytes", Value(UInt64(self.bytes))), ("queued_bytes", Value(UInt64(self.queuedBytes))),
            ("slow_subscriber_cuts", Value(self.cuts)),
        ] + self.cutsByPeer.map { ($0.key, Value($0.cuts)) }
    }

    private mutating func countCut(_ key: String) {
        if let index = self.cutsByPeer.firstIndex(where: { $0.key == key }) {
            let entry = self.cutsByPeer.remove(at: index)
            self.cutsByPeer.append((key, entry.cuts + 1))
        } else {
            self.cutsByPeer.append((key, 1))
            if self.cutsByPeer.count > Self.peersKept { self.cutsByPeer.removeFirst() }
        }
    }

    /// Whether a connection's kernel send queue is at least half full.
    private static func isBehind(_ descriptor: Int32) -> Bool {
        var unsent: Int32 = 0
        var capacity: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard ioctl(descriptor, UInt(TIOCOUTQ), &unsent) == 0,
            getsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &capacity, &length) == 0
        else { return false }
        return capacity > 0 && unsent >= capacity / 2
    }

    /// `slow_subscriber_cuts_pid_<pid>` over ipc, `slow_subscriber_cuts_<address>_<port>` over tcp.
    private static func healthKey(_ descriptor: Int32) -> String {
        // struct ucred (pid, uid, gid), which Glibc's module leaves out.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        if getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.pid > 0 {
            return "slow_subscriber_cuts_pid_\(credentials.pid)"
        }
        var address = sockaddr_storage()
        length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var port = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                getpeername(descriptor, pointer, &length) == 0
                    && getnameinfo(
                        pointer, length, &host, socklen_t(host.count), &port, socklen_t(port.count),
                        NI_NUMERICHOST | NI_NUMERICSERV) == 0
            }
        }
        guard named else { return "slow_subscriber_cuts_unknown" }
        let text = { (chars: [CChar]) in
            String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        let name = text(host) + "_" + text(port)
        return "slow_subscriber_cuts_" + String(name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}
