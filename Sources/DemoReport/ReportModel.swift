import BusSchema

/// Everything the report shows, computed from a recording (the source of truth), the PNG
/// snapshot names on disk and, optionally, the supervisor's status.
public struct ReportModel: Sendable {
    /// A name and how many times it happened.
    public struct Count: Sendable, Equatable {
        public var name: String
        public var count: Int
    }

    /// The last health message of one service and what the supervisor says about it.
    public struct HealthRow: Sendable, Equatable {
        public var service: String
        public var state: String
        public var sent: Int
        public var received: Int
        public var gaps: Int
        public var duplicates: Int
        public var rejected: Int
        public var deadLettered: Int
        /// Restarts and last exit from the supervisor status, when it names this service.
        public var restarts: Int?
        public var lastExit: String?
    }

    /// A memo as the last `memo/changed/` message left it.
    public struct Memo: Sendable, Equatable {
        public var id: String
        public var text: String
        public var trashed: Bool
        public var deleted: Bool
    }

    /// A rendered frame (from `render/frame/`) or a snapshot file found on disk.
    public struct Frame: Sendable, Equatable {
        public var frameID: Int
        /// Receive time of its `render/frame/` message, if recorded.
        public var timeNs: UInt64?
        /// The snapshot's file name inside the frames directory, if there is one.
        public var fileName: String?
    }

    public var recordingPath: String
    public var messageCount: Int
    public var startNs: UInt64
    public var endNs: UInt64
    /// Publishers seen on the bus, sorted.
    public var publishers: [String]
    /// Recognized gestures by recognizer kind: discrete ones' `recognized`, continuous ones' `began`.
    public var gestures: [Count]
    /// Phase changes by component (`kind/instance`), the first state included.
    public var transitions: [Count]
    /// Distinct memos stored (upserted) during the session.
    public var memosStored: Int
    /// `memo/changed/` messages by change (`upsert`, `delete`, `settings`).
    public var memoChanges: [Count]
    /// `memo/ack/` messages by status (`ok`, `duplicate`, …).
    public var memoAcks: [Count]
    public var memos: [Memo]
    /// `render/frame/` messages.
    public var framesRendered: Int
    /// Snapshots chosen for the strip, at most ``keyFrameLimit``, evenly spread over the session.
    public var keyFrames: [Frame]
    /// Sum of `gaps` in the last health message of every service epoch.
    public var messagesLost: Int
    public var health: [HealthRow]
    public var supervisor: SupervisorStatus?
    /// Why the supervisor status given could not be read, if it could not.
    public var supervisorProblem: String?
    public var timeline: Timeline
    public var latency: LatencyHistogram
    /// Each idiom's key moments and the snapshots that show them.
    public var gallery: Gallery

    public static let keyFrameLimit = 12

    /// Builds the model.
    ///
    /// - Parameters:
    ///   - snapshotFiles: PNG file names in the frames directory.
    ///   - supervisorProblem: why the supervisor status could not be read, shown instead of it.
    public init(
        recording: Recording, snapshotFiles: [String] = [], supervisor: SupervisorStatus? = nil,
        supervisorProblem: String? = nil
    ) {
        let messages = recording.messages
        self.recordingPath = recording.path
        self.messageCount = messages.count
        self.startNs = messages.map(\.logTimeNs).min() ?? 0
        self.endNs = messages.map(\.logTimeNs).max() ?? 0
        self.publishers = Set(messages.map(\.publisher)).sorted()
        self.supervisor = supervisor
        self.supervisorProblem = supervisorProblem

        var gestures: [String: Int] = [:]
        var transitions: [String: Int] = [:]
        var lastPhase: [String: String] = [:]
        var phases = ComponentPhases()
        var memoChanges: [String: Int] = [:]
        var memoAcks: [String: Int] = [:]
        var memos: [String: Memo] = [:]
        var memoOrder: [String] = []
        var frames: [Frame] = []
        var lastHealth: [String: Value] = [:]
        var lastHealthByEpoch: [String: Value] = [:]
        var latencies: [Double] = []
        latencies.reserveCapacity(messages.count)
        var timeline = Timeline.Builder(startNs: self.startNs)
        var gallery = Gallery.Builder()

        for message in messages {
            // Subtract as integers: wall-clock ns do not fit a Double's 53-bit mantissa.
            latencies.append(Double(Int64(bitPattern: message.logTimeNs &- message.publishTimeNs)) / 1000)
            let payload = message.payload
            switch message.schema {
            case "gesture.event":
                let kind = payload["recognizer"]?.stringValue ?? "?"
                let state = payload["state"]?.stringValue ?? "?"
                if state == "recognized" || state == "began" { gestures[kind, default: 0] += 1 }
                timeline.gesture(kind: kind, state: state, payload: payload, atNs: message.logTimeNs)
            case let schema where schema.hasPrefix("state.") || schema == MemoBoardDelta.schema.id:
                if schema == MemoBoardDelta.schema.id {
                    gallery.boardDelta(payload, atNs: message.logTimeNs)
                } else {
                    gallery.state(
                        kind: String(schema.dropFirst("state.".count)),
                        instance: payload["instance"]?.stringValue ?? message.topic, payload, atNs: message.logTimeNs)
                }
                if let named = phases.phase(schema: schema, topic: message.topic, payload),
                    lastPhase[named.component] != named.phase
                {
                    transitions[named.component, default: 0] += 1
                    lastPhase[named.component] = named.phase
                    timeline.component(named.component, phase: named.phase, atNs: message.logTimeNs)
                }
            case "memo.changed":
                let change = payload["change"]?.stringValue ?? "?"
                memoChanges[change, default: 0] += 1
                guard let memo = payload["memo"], let id = memo["id"]?.stringValue else { break }
                if memos[id] == nil { memoOrder.append(id) }
                let trashed = memo["trashed_at"].map { $0 != .null } ?? false
                memos[id] = Memo(
                    id: id, text: memo["text"]?.stringValue ?? "", trashed: trashed, deleted: change == "delete")
            case "memo.ack":
                memoAcks[payload["status"]?.stringValue ?? "?", default: 0] += 1
            case "render.frame":
                gallery.frame(payload, atNs: message.logTimeNs)
                let png = payload["png"]?.stringValue
                frames.append(
                    Frame(
                        frameID: Int(payload["frame_id"]?.intValue ?? 0), timeNs: message.logTimeNs,
                        fileName: png.map { String($0.split(separator: "/").last ?? "") }))
            case "health":
                let service = payload["service"]?.stringValue ?? message.publisher
                lastHealth[service] = payload
                lastHealthByEpoch["\(service)|\(message.epoch)|\(payload["pid"]?.intValue ?? 0)"] = payload
            default:
                break
            }
        }

        self.gestures = Self.counts(gestures)
        self.transitions = Self.counts(transitions)
        self.memoChanges = Self.counts(memoChanges)
        self.memoAcks = Self.counts(memoAcks)
        self.memos = memoOrder.compactMap { memos[$0] }
        self.memosStored = memoOrder.count
        self.framesRendered = frames.count
        self.keyFrames = Self.keyFrames(recorded: frames, snapshotFiles: snapshotFiles)
        self.messagesLost = lastHealthByEpoch.values.reduce(0) { $0 + Self.counter($1, "gaps") }
        let statusByName = Dictionary(
            (supervisor?.services ?? []).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.health = lastHealth.keys.sorted().map { service in
            let health = lastHealth[service]!
            return HealthRow(
                service: service, state: health["state"]?.stringValue ?? "?", sent: Self.counter(health, "sent"),
                received: Self.counter(health, "received"), gaps: Self.counter(health, "gaps"),
                duplicates: Self.counter(health, "duplicates"), rejected: Self.counter(health, "rejected"),
                deadLettered: Self.counter(health, "dead_lettered"), restarts: statusByName[service]?.restarts,
                lastExit: statusByName[service]?.lastExit)
        }
        self.timeline = timeline.finish(endNs: self.endNs)
        self.latency = LatencyHistogram(latenciesUs: latencies)
        self.gallery = gallery.finish(endNs: self.endNs, files: Set(snapshotFiles))
    }

    /// Session length in seconds.
    public var durationSeconds: Double { Double(self.endNs - self.startNs) / 1e9 }

    private static func counts(_ table: [String: Int]) -> [Count] {
        table.keys.sorted().map { Count(name: $0, count: table[$0]!) }
    }

    private static func counter(_ health: Value, _ name: String) -> Int {
        Int(health["counters"]?[name]?.intValue ?? 0)
    }

    /// Up to ``keyFrameLimit`` snapshots, first and last included, evenly spread by frame id; each
    /// takes its time from the `render/frame/` message naming the file, else the one with its frame id.
    static func keyFrames(recorded: [Frame], snapshotFiles: [String]) -> [Frame] {
        let byName = Dictionary(
            recorded.compactMap { frame in frame.fileName.map { ($0, frame) } }, uniquingKeysWith: { first, _ in first }
        )
        let byID = Dictionary(recorded.map { ($0.frameID, $0) }, uniquingKeysWith: { first, _ in first })
        let candidates = snapshotFiles.map { name in
            if let frame = byName[name] { return frame }
            let id = Int(name.filter(\.isNumber)) ?? 0
            return Frame(frameID: id, timeNs: byID[id]?.timeNs, fileName: name)
        }.sorted { ($0.frameID, $0.fileName ?? "") < ($1.frameID, $1.fileName ?? "") }
        guard candidates.count > keyFrameLimit else { return candidates }
        let step = Double(candidates.count - 1) / Double(keyFrameLimit - 1)
        return (0..<keyFrameLimit).map { candidates[Int((Double($0) * step).rounded())] }
    }
}
