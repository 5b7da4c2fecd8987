import Bus
import BusSchema

/// The fault drill's own view of the bus: one subscriber per hop (so a gap is pinned on the
/// publisher that lost it), every service's health and lifecycle, and the snapshot requests and
/// answers that show a subscriber resynchronising with the memo store.
public final class BusWatch {
    /// A hop: messages of one kind from the service that publishes them.
    public struct Hop: Sendable {
        public var name: String
        public var prefix: String
        public var publisher: String
    }

    /// Received and lost (sequence gaps) so far, per hop name.
    public struct Counts: Sendable, Equatable {
        public var received: [String: UInt64] = [:]
        public var lost: [String: UInt64] = [:]
    }

    /// A message from a service process: when it arrived and which process sent it.
    public struct Sighting: Sendable {
        public var service: String
        public var pid: Int
        public var atNs: UInt64
    }

    public static let hops = [
        Hop(name: "touch", prefix: "touch/", publisher: "input-source"),
        Hop(name: "gesture", prefix: "gesture/", publisher: "gesture-recognizer"),
        Hop(name: "ui", prefix: "ui/", publisher: "component-host"),
        Hop(name: "render", prefix: "render/frame/", publisher: "render-worker"),
        Hop(name: "memo-changed", prefix: "memo/changed/", publisher: "memo-store"),
    ]

    private let hopSubscribers: [(hop: Hop, subscriber: Subscriber)]
    private let system: Subscriber
    private let memo: Subscriber
    private var received: [String: UInt64] = [:]
    /// Every health report and `ready` announcement, in arrival order.
    public private(set) var sightings: [Sighting] = []
    /// The latest health counters of each (service, pid).
    private var health: [String: [Int: HealthCounters]] = [:]
    /// Snapshot requests seen on `memo/cmd/`: cmd_id → (client, time).
    private var snapshotRequests: [String: (client: String, atNs: UInt64)] = [:]
    /// When set, the arrival of the first hop message stamped (`mono`) after it is kept in
    /// ``forwardedAtNs``: the proxy is forwarding again.
    public var forwardWatermarkNs: UInt64? {
        didSet { self.forwardedAtNs = nil }
    }
    public private(set) var forwardedAtNs: UInt64?
    /// Completed snapshots: client and when the last chunk arrived.
    public private(set) var snapshotsCompleted: [(client: String, requestedNs: UInt64, completedNs: UInt64)] = []

    public init(context: ZMQContext, bus: BusConfig) throws {
        self.hopSubscribers = try Self.hops.map { hop in
            (hop, try Subscriber(context: context, endpoint: bus.subscribe, prefixes: [hop.prefix]))
        }
        self.system = try Subscriber(
            context: context, endpoint: bus.subscribe, prefixes: ["sys/health/", "sys/lifecycle/"],
            filter: SchemaFilter([Health.self, Lifecycle.self]))
        self.memo = try Subscriber(
            context: context, endpoint: bus.subscribe, prefixes: ["memo/cmd/", "memo/snapshot/"],
            filter: SchemaFilter([MemoCommand.self, MemoSnapshot.self]))
    }

    /// Every socket to poll, for the caller's poller.
    public var sockets: [ZMQSocket] {
        self.hopSubscribers.map(\.subscriber.socket) + [self.system.socket, self.memo.socket]
    }

    /// Reads everything queued on every subscription.
    public func drain(nowNs now: UInt64) throws {
        for (hop, subscriber) in self.hopSubscribers {
            while case (true, let delivery) = try subscriber.receiveQueued() {
                guard let delivery else { continue }
                self.received[hop.name, default: 0] += 1
                if let watermark = self.forwardWatermarkNs, self.forwardedAtNs == nil,
                    delivery.envelope.mono > watermark
                {
                    self.forwardedAtNs = now
                }
            }
        }
        while case (true, let delivery) = try self.system.receiveQueued() {
            guard let delivery else { continue }
            if let report = self.system.decode(delivery, as: Health.self) {
                self.health[report.service, default: [:]][report.pid] = report.counters
                self.sightings.append(Sighting(service: report.service, pid: report.pid, atNs: now))
            } else if let message = self.system.decode(delivery, as: Lifecycle.self), message.event == .ready {
                self.sightings.append(Sighting(service: message.service, pid: message.pid, atNs: now))
            }
        }
        while case (true, let delivery) = try self.memo.receiveQueued() {
            guard let delivery else { continue }
            if let command = self.memo.decode(delivery, as: MemoCommand.self), command.op == .snapshot {
                self.snapshotRequests[command.cmdId] = self.snapshotRequests[command.cmdId] ?? (command.client, now)
            } else if let chunk = self.memo.decode(delivery, as: MemoSnapshot.self), chunk.last,
                let request = self.snapshotRequests.removeValue(forKey: chunk.requestId)
            {
                self.snapshotsCompleted.append((request.client, request.atNs, now))
            }
        }
    }

    /// What the hops have received and lost so far.
    public var counts: Counts {
        var counts = Counts()
        for (hop, subscriber) in self.hopSubscribers {
            counts.received[hop.name] = self.received[hop.name] ?? 0
            counts.lost[hop.name] = subscriber.statistics.value(.gaps)
        }
        return counts
    }

    /// Gaps each service has reported in its health, summed over its processes (a restarted
    /// service starts counting from zero again).
    public var reportedGaps: [String: UInt64] {
        self.health.mapValues { processes in processes.values.reduce(0) { $0 + $1.gaps } }
    }

    /// The first health report or `ready` of `service` after `afterNs` that passes `matching`.
    public func firstSighting(of service: String, afterNs: UInt64, where matching: (Sighting) -> Bool) -> Sighting? {
        self.sightings.first { $0.service == service && $0.atNs >= afterNs && matching($0) }
    }

    /// Clients whose snapshot, asked for after `afterNs`, has fully arrived, each with the
    /// arrival of the first such snapshot's last chunk.
    public func resynced(afterNs: UInt64) -> [String: UInt64] {
        var first: [String: UInt64] = [:]
        for snapshot in self.snapshotsCompleted where snapshot.requestedNs >= afterNs {
            first[snapshot.client] = min(first[snapshot.client] ?? .max, snapshot.completedNs)
        }
        return first
    }
}
