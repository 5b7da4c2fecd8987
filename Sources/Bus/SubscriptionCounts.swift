/// How many subscriptions the proxy's subscribers hold, per prefix, for `bus-tap info`'s
/// "subscribers" (what `ros2 topic info` shows).
///
/// The proxy's XPUB is verboser (`ZMQ_XPUB_VERBOSER`): every subscribe notice reaches it, and so
/// does every cancel, an unsubscribe or a subscriber's departure (libzmq cancels each prefix the
/// leaving connection held). A subscribe adds one to its prefix and a cancel takes one away, so a
/// prefix's count is the number of connections subscribed to it (a connection that subscribes
/// the same prefix twice counts twice until its first cancel, which libzmq sends once).
///
/// Bounded, since any client can subscribe: at most ``maximumPrefixes`` prefixes of at most
/// ``maximumPrefixBytes`` bytes are tracked; a subscribe beyond that is counted in ``untracked``.
public struct SubscriptionCounts: Sendable {
    /// Prefixes tracked at most.
    public static let maximumPrefixes = 1024
    /// The longest prefix tracked, in bytes (topics are far shorter).
    public static let maximumPrefixBytes = 256

    private var counts: [[UInt8]: UInt64] = [:]
    /// Subscribe notices not tracked: a prefix too long, or too many prefixes.
    public private(set) var untracked: UInt64 = 0

    public init() {}

    /// Takes in one notice as the XPUB delivers it: 1 (subscribe) or 0 (cancel), then the prefix.
    public mutating func notice(_ bytes: UnsafeRawBufferPointer) {
        guard let kind = bytes.first, kind <= 1 else { return }
        let prefix = [UInt8](bytes.dropFirst())
        if kind == 1 {
            if let count = self.counts[prefix] {
                self.counts[prefix] = count + 1
            } else if prefix.count <= Self.maximumPrefixBytes && self.counts.count < Self.maximumPrefixes {
                self.counts[prefix] = 1
            } else {
                self.untracked &+= 1
            }
        } else if let count = self.counts[prefix] {
            // A cancel of a prefix never tracked (an untracked one) changes nothing.
            self.counts[prefix] = count > 1 ? count - 1 : nil
        }
    }

    /// The prefixes subscribed now and how many subscriptions each has, sorted by prefix.
    /// Bytes that are not UTF-8 show as U+FFFD; prefixes that then read the same are added up.
    public var entries: [(prefix: String, count: UInt64)] {
        var merged: [String: UInt64] = [:]
        for (prefix, count) in self.counts { merged[String(decoding: prefix, as: UTF8.self), default: 0] += count }
        return merged.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
