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

    static let keys = [
        "sent", "received", "gaps", "duplicates", "reorders", "rejected", "dead_lettered", "queue_depth",
    ]

    var ordered: [(String, UInt64)] {
        [
            ("sent", self.sent), ("received", self.received), ("gaps", self.gaps), ("duplicates", self.duplicates),
            ("reorders", self.reorders), ("rejected", self.rejected), ("dead_lettered", self.deadLettered),
            ("queue_depth", self.queueDepth),
        ]
    }

    init(_ counts: [(String, UInt64)]) {
        for (key, count) in counts {
            switch key {
            case "sent": self.sent = count
            case "received": self.received = count
            case "gaps": self.gaps = count
            case "duplicates": self.duplicates = count
            case "reorders": self.reorders = count
            case "rejected": self.rejected = count
            case "dead_lettered": self.deadLettered = count
            case "queue_depth": self.queueDepth = count
            default: break
            }
        }
    }
}

/// A service's periodic health report (schema `health` v1), on `sys/health/<service>/`.
///
/// Minor 1 added `epoch`: with `pid` it names the process that sent the report, so a reader
/// (the supervisor) can accept health only from the process it started. Minor 2 added
/// `subscribers`, the proxy's subscriptions per prefix.
public struct Health: BusMessage, Buildable, Hashable {
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

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(
            7 + (self.extra == nil ? 0 : 1) + (self.epoch == nil ? 0 : 1) + (self.subscribers == nil ? 0 : 1))
        writer.writeKey("service")
        writer.write(self.service)
        writer.write("state", self.state)
        writer.writeKey("seq")
        writer.write(self.seq)
        writer.writeKey("uptime_ms")
        writer.write(self.uptimeMs)
        writer.writeKey("pid")
        writer.write(self.pid)
        if let epoch = self.epoch {
            writer.writeKey("epoch")
            writer.write(epoch)
        }
        writer.writeKey("counters")
        writer.writeCounts(self.counters.ordered)
        writer.writeKey("reasons")
        writer.writeCounts(self.reasons)
        if let extra = self.extra {
            writer.writeKey("extra")
            writer.write(.map(extra))
        }
        if let subscribers = self.subscribers {
            writer.writeKey("subscribers")
            writer.writeCounts(subscribers)
        }
    }

    public init(from reader: inout MessagePackReader) throws {
        var service: String?
        var state: State?
        var seq: UInt64?
        var uptimeMs: UInt64?
        var pid: Int?
        var epoch: UInt64?
        var counters: HealthCounters?
        var reasons: [(String, UInt64)]?
        var extra: ValueMap?
        var subscribers: [(String, UInt64)]?
        try reader.readMap { reader, key in
            switch key {
            case "service": service = try reader.readString()
            case "state": state = try reader.readEnum(State.self, field: "state")
            case "seq": seq = try reader.readUInt()
            case "uptime_ms": uptimeMs = try reader.readUInt()
            case "pid": pid = try reader.readInteger()
            case "epoch": epoch = try reader.readUInt()
            case "counters": counters = HealthCounters(try reader.readCounts())
            case "reasons": reasons = try reader.readCounts()
            case "extra":
                guard case .map(let map) = try reader.readValue() else {
                    throw CodecError(.typeMismatch, offset: reader.offset, context: "extra")
                }
                extra = map
            case "subscribers": subscribers = try reader.readCounts()
            default: try reader.skip()
            }
        }
        self.service = try reader.require(service, "service")
        self.state = try reader.require(state, "state")
        self.seq = try reader.require(seq, "seq")
        self.uptimeMs = try reader.require(uptimeMs, "uptime_ms")
        self.pid = try reader.require(pid, "pid")
        self.epoch = epoch
        self.counters = try reader.require(counters, "counters")
        self.reasons = try reader.require(reasons, "reasons")
        self.extra = extra
        self.subscribers = subscribers
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
