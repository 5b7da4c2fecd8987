/// The counters every service reports in its health message.
public struct HealthCounters: Sendable, Hashable {
    public var sent: UInt64 = 0
    public var received: UInt64 = 0
    /// Messages missing from a sequence (publisher, epoch, topic).
    public var gaps: UInt64 = 0
    public var duplicates: UInt64 = 0
    public var reorders: UInt64 = 0
    /// Frames that could not be decoded, each also counted under a reason.
    public var rejected: UInt64 = 0
    /// Well-formed messages of a schema major this reader does not know.
    public var deadLettered: UInt64 = 0
    public var queueDepth: UInt64 = 0

    public init() {}
}

/// Each counter is always written; one a reader does not know is skipped, one it misses stays 0.
extension HealthCounters: MessagePackMap, MapFields {
    public mutating func visitFields<V: MapFieldVisitor & ~Copyable>(_ visitor: inout V) throws(V.Failure) {
        try visitor.defaulted("sent", &self.sent, 0...UInt64.max)
        try visitor.defaulted("received", &self.received, 0...UInt64.max)
        try visitor.defaulted("gaps", &self.gaps, 0...UInt64.max)
        try visitor.defaulted("duplicates", &self.duplicates, 0...UInt64.max)
        try visitor.defaulted("reorders", &self.reorders, 0...UInt64.max)
        try visitor.defaulted("rejected", &self.rejected, 0...UInt64.max)
        try visitor.defaulted("dead_lettered", &self.deadLettered, 0...UInt64.max)
        try visitor.defaulted("queue_depth", &self.queueDepth, 0...UInt64.max)
    }
}

/// A service's periodic health report (schema `health` v1), on `sys/health/<service>/`.
///
/// Minor 1 added `epoch`: with `pid` it names the process that sent the report, so a reader
/// (the supervisor) can accept health only from the process it started. Minor 2 added
/// `subscribers`, the proxy's subscriptions per prefix.
public struct Health: BusMessage, MessagePackMap, MapFields, Hashable {
    public static let schema = SchemaID("health", major: 1, minor: 2)
    public static let fields: [FieldSpec] = [
        FieldSpec("service", "string"), FieldSpec("state", "string"), FieldSpec("seq", "integer"),
        FieldSpec("uptime_ms", "integer"), FieldSpec("pid", "integer"), FieldSpec("counters", "object"),
        FieldSpec("reasons", "object"), FieldSpec("extra", "object", required: false),
        FieldSpec("epoch", "integer", required: false), FieldSpec("subscribers", "object", required: false),
    ]

    public enum State: String, Sendable, Hashable, CaseIterable, MessagePackEnum {
        case starting, ready, degraded, stopping
    }

    public var service = ""
    public var state = State.starting
    /// Counts this service's health reports, from 1.
    public var seq: UInt64 = 0
    public var uptimeMs: UInt64 = 0
    public var pid = 0
    /// The sender's epoch, as in its envelopes (absent from minor-0 senders).
    public var epoch: UInt64?
    public var counters = HealthCounters()
    /// Rejected and dead-lettered frames by reason (`truncated`, `unknown_major`, …).
    public var reasons: [(String, UInt64)] = []
    /// Service-specific numbers (the proxy's `messages_forwarded`, a rate, …).
    public var extra: ValueMap?
    /// The proxy's subscriptions per prefix (`bus-proxy` only; absent from minor-1 senders).
    public var subscribers: [(String, UInt64)]?

    public init() {}

    public mutating func visitFields<V: MapFieldVisitor & ~Copyable>(_ visitor: inout V) throws(V.Failure) {
        try visitor.field("service", &self.service, .any)
        try visitor.field("state", &self.state, .any)
        try visitor.field("seq", &self.seq, 0...UInt64.max)
        try visitor.field("uptime_ms", &self.uptimeMs, 0...UInt64.max)
        try visitor.field("pid", &self.pid, Int64.min...Int64.max)
        try visitor.optional("epoch", &self.epoch, 0...UInt64.max)
        try visitor.field("counters", &self.counters, .any)
        visitor.write("reasons", Counts(self.reasons))
        try visitor.readField("reasons", required: true) { reader, _ in self.reasons = try Counts.read(from: &reader) }
        try visitor.optional("extra", &self.extra, .any)
        visitor.write("subscribers", Counts(self.subscribers))
        try visitor.readField("subscribers", required: false) { reader, _ in
            self.subscribers = try Counts.read(from: &reader)
        }
    }

    public static func == (lhs: Health, rhs: Health) -> Bool {
        lhs.service == rhs.service && lhs.state == rhs.state && lhs.seq == rhs.seq && lhs.uptimeMs == rhs.uptimeMs
            && lhs.pid == rhs.pid && lhs.epoch == rhs.epoch && lhs.counters == rhs.counters
            && lhs.reasons.elementsEqual(rhs.reasons, by: ==)
            && lhs.extra == rhs.extra
            && lhs.subscribers.map { $0.map(\.0) } == rhs.subscribers.map { $0.map(\.0) }
            && lhs.subscribers.map { $0.map(\.1) } == rhs.subscribers.map { $0.map(\.1) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(self.service)
        hasher.combine(self.seq)
    }
}

/// A map of counts by name, in their order (`reasons`, `subscribers`), left out when nil.
private struct Counts: MessagePackValue {
    let counts: [(String, UInt64)]?

    init(_ counts: [(String, UInt64)]?) { self.counts = counts }

    var isAbsent: Bool { self.counts == nil }

    func write(to writer: inout MessagePackWriter) {
        let counts = self.counts ?? []
        writer.writeMapHeader(counts.count)
        for (key, count) in counts {
            writer.write(key)
            writer.write(count)
        }
    }

    static func read(from reader: inout MessagePackReader) throws -> [(String, UInt64)] {
        var counts: [(String, UInt64)] = []
        try reader.readMap { reader, key in counts.append((try key.string(), try reader.readUInt())) }
        return counts
    }
}
