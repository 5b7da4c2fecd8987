/// The newest message of every state topic the proxy forwarded, replayed when a subscriber joins.
///
/// State (a component's `ui/<kind>/<instance>/`, the memo board's `ui/memoBoard/<instance>/`,
/// a surface's frame on `render/image/<surface>/`) is published when it changes, so a process
/// that subscribes later would wait for the next change, which on an idle screen never comes.
/// The proxy keeps the last message of each state topic, its envelope untouched, and when a
/// subscription notice arrives it marks the kept messages under that prefix for replay
/// (the zguide's last-value cache, ROS 2's transient-local durability). Events (`touch/`,
/// `gesture/`, acks) are never kept: replaying a stale tap would act on it twice. Nor are a memo
/// board's deltas (`ui/memoBoard/<instance>/delta/`): a change, not a state, the newest of them
/// need not follow the full state kept (the board restates itself in full once it is quiet).
///
/// libzmq's XPUB cannot send several messages to the one subscriber that just joined
/// (`ZMQ_XPUB_MANUAL_LAST_VALUE` targets only the next single message after each notice), so a
/// replay reaches every subscriber of the topic. Those that already have it see the same
/// (publisher, epoch, topic, seq) again, and ``Subscriber`` skips such a repeat of a state
/// topic without delivering it or counting it as a duplicate.
///
/// Bounded three ways: entries, bytes (the least recently updated topics go first), and the
/// bytes replayed per second, so a client that subscribes in a loop cannot make the proxy
/// flood everyone (its replays wait; they are not lost).
public struct LastValueCache {
    /// Topic prefixes whose messages are state, kept and replayed.
    public static let statePrefixes = ["ui/", "render/image/"]

    /// What the proxy subscribes to itself, so that publishers send state while nobody else
    /// listens and the cache has it for the first subscriber: `ui`, without the slash that every
    /// listener's prefix has, so that a publisher can tell it from a listener
    /// (``Publisher/subscriptions`` leaves it out). Not `render/image/`: the render worker encodes frames
    /// only while someone watches, and that must be a real viewer.
    public static let proxySubscriptions = ["ui"]

    /// How much the cache may hold and replay.
    public struct Limits: Sendable {
        public var entries: Int
        public var bytes: Int
        public var replayBytesPerSecond: Int

        public init(entries: Int = 4096, bytes: Int = 64 << 20, replayBytesPerSecond: Int = 256 << 20) {
            self.entries = max(entries, 0)
            self.bytes = max(bytes, 0)
            self.replayBytesPerSecond = max(replayBytesPerSecond, 1)
        }
    }

    /// Counters for the proxy's health.
    public struct Counters: Sendable, Equatable {
        /// Messages sent again to late joiners.
        public var hits: UInt64 = 0
        /// Subscriptions that matched at least one kept message.
        public var replays: UInt64 = 0
        /// Topics dropped to stay within the limits.
        public var evictions: UInt64 = 0
        /// State messages too large to keep at all.
        public var tooLarge: UInt64 = 0
    }

    /// One kept message: its three frames as they were forwarded.
    public struct Entry: Sendable {
        public var topic: [UInt8]
        public var header: [UInt8]
        public var payload: [UInt8]
        var updated: UInt64
        var pending: Bool

        var bytes: Int { self.topic.count + self.header.count + self.payload.count }
    }

    public let limits: Limits
    public private(set) var counters = Counters()
    public private(set) var bytes = 0
    private var entries: [[UInt8]: Entry] = [:]
    private var updates: UInt64 = 0
    private var pendingCount = 0
    /// Bytes that may be replayed now; refilled at `replayBytesPerSecond`, capped at one full cache.
    private var tokens: Int
    private var lastRefillNs: UInt64

    public init(limits: Limits = Limits(), nowNs: UInt64) {
        self.limits = limits
        self.tokens = max(limits.bytes, 1)
        self.lastRefillNs = nowNs
    }

    public var count: Int { self.entries.count }
    public var hasPending: Bool { self.pendingCount > 0 }

    /// Whether `topic` (its UTF-8 bytes) is a state topic.
    @inline(__always)
    public static func isState(_ topic: UnsafeRawBufferPointer) -> Bool {
        // The first byte rules out nearly every event topic (touch/, gesture/, memo/, sys/) at once.
        guard let first = topic.first, first == UInt8(ascii: "u") || first == UInt8(ascii: "r") else { return false }
        return Self.statePrefixBytes.contains { topic.starts(with: $0) }
            && !topic.reversed().starts(with: Self.deltaSuffixReversed)
    }

    /// Whether `topic` is a state topic.
    public static func isState(_ topic: String) -> Bool {
        Self.statePrefixes.contains { topic.hasPrefix($0) } && !topic.hasSuffix(Self.deltaSuffix)
    }

    /// The last segment of a delta's topic: changes published between full states, not kept.
    public static let deltaSuffix = "/delta/"

    private static let statePrefixBytes = Self.statePrefixes.map { Array($0.utf8) }
    private static let deltaSuffixReversed = Array(Self.deltaSuffix.utf8.reversed())

    /// Keeps `topic`'s newest message, replacing the one before (which is no longer pending:
    /// the new one went to every subscriber as it was forwarded).
    public mutating func keep(topic: [UInt8], header: [UInt8], payload: [UInt8]) {
        let size = topic.count + header.count + payload.count
        if let old = self.entries.removeValue(forKey: topic) { self.forget(old) }
        guard size <= self.limits.bytes, self.limits.entries > 0 else {
            self.counters.tooLarge += 1
            return
        }
        while self.entries.count >= self.limits.entries || self.bytes + size > self.limits.bytes {
            self.evictOldest()
        }
        self.updates += 1
        self.entries[topic] = Entry(
            topic: topic, header: header, payload: payload, updated: self.updates, pending: false)
        self.bytes += size
    }

    /// Marks every kept message under `prefix` for replay (a subscription notice arrived).
    public mutating func subscribed(prefix: UnsafeRawBufferPointer) {
        var matched = false
        for (key, entry) in self.entries where !entry.pending && entry.topic.starts(with: prefix) {
            self.entries[key]?.pending = true
            self.pendingCount += 1
            matched = true
        }
        if matched { self.counters.replays += 1 }
    }

    /// Hands pending messages to `send` while the replay budget lasts, oldest update first.
    ///
    /// - Returns: nanoseconds until more budget is available if messages are still pending, else nil.
    public mutating func replay(nowNs: UInt64, _ send: (Entry) throws -> Void) rethrows -> UInt64? {
        guard self.pendingCount > 0 else { return nil }
        let elapsed = nowNs &- self.lastRefillNs
        self.lastRefillNs = nowNs
        let refill = Double(elapsed) * Double(self.limits.replayBytesPerSecond) / 1e9
        self.tokens = Int(min(Double(self.tokens) + refill, Double(max(self.limits.bytes, 1))))
        let pending = self.entries.values.filter(\.pending).sorted { $0.updated < $1.updated }
        for entry in pending {
            guard self.tokens > 0 else { break }
            try send(entry)
            self.entries[entry.topic]?.pending = false
            self.pendingCount -= 1
            self.tokens -= entry.bytes
            self.counters.hits += 1
        }
        guard self.pendingCount > 0 else { return nil }
        let deficit = Double(1 - self.tokens)
        return UInt64(deficit * 1e9 / Double(self.limits.replayBytesPerSecond)) + 1
    }

    private mutating func evictOldest() {
        guard let oldest = self.entries.min(by: { $0.value.updated < $1.value.updated }) else { return }
        self.entries.removeValue(forKey: oldest.key)
        self.forget(oldest.value)
        self.counters.evictions += 1
    }

    private mutating func forget(_ entry: Entry) {
        self.bytes -= entry.bytes
        if entry.pending { self.pendingCount -= 1 }
    }
}
