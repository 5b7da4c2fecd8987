import Foundation

/// What a fault drill runs: the stack, the load on it and the faults, in order.
public struct FaultPlan: Sendable {
    /// One fault: a signal to one service's process group.
    public struct Fault: Sendable, Equatable {
        public enum Kind: String, Sendable {
            /// SIGKILL; recovered when the restarted process is heard on the bus.
            case kill = "SIGKILL"
            /// SIGSTOP, then SIGCONT after ``FaultPlan/stopMs``; recovered when the same process
            /// is heard again.
            case stop = "SIGSTOP/SIGCONT"
        }

        public var kind: Kind
        public var service: String

        public init(_ kind: Kind, _ service: String) {
            self.kind = kind
            self.service = service
        }
    }

    /// The services in start order, each a name and its command (a program in `binDirectory`).
    public static let stack: [(name: String, command: [String])] = [
        ("bus-proxy", ["bus-proxy"]),
        ("memo-store", ["memo-store", "--db", "{dir}/memo.sqlite"]),
        ("component-host", ["component-host", "--scene", "deploy/scenes/demo.json"]),
        ("render-worker", ["render-worker", "--scene", "deploy/scenes/demo.json", "--snapshot-dir", "{dir}/frames"]),
        ("gesture-recognizer", ["gesture-recognizer", "--scene", "deploy/scenes/demo.json"]),
        ("input-source", ["input-source", "run", "--flood", "--devices", "{devices}", "--rate", "{rate}"]),
    ]

    /// SIGKILL of every service in turn (the proxy last: it disturbs everyone), then a pause of
    /// the store and of the recognizer.
    public static let everyService: [Fault] =
        ["input-source", "gesture-recognizer", "render-worker", "component-host", "memo-store", "bus-proxy"].map {
            Fault(.kill, $0)
        } + [Fault(.stop, "memo-store"), Fault(.stop, "gesture-recognizer")]

    /// Memo subscribers that must ask the store for a snapshot and get it after a SIGKILL of the
    /// service named: everyone when the store restarts (a new epoch), a restarted subscriber
    /// itself (it starts empty). `board1` is the demo scene's memo board in the component host.
    public static let resyncs: [String: Set<String>] = [
        "memo-store": ["board1", "render-worker"], "component-host": ["board1"], "render-worker": ["render-worker"],
    ]

    /// The repository (the services' working directory, where `deploy/scenes/` is).
    public var root: String
    /// Where the built executables are.
    public var binDirectory: String
    /// A scratch directory for the run (bus endpoints, database, logs).
    public var directory: String
    public var faults: [Fault] = FaultPlan.everyService
    /// Touch devices of the flood and frames a second from each.
    public var devices = 2
    public var ratePerDevice = 250.0
    /// Added to the render worker's command: a debug build draws a full-size demo frame in
    /// seconds, too slow to answer its watchdog under a flood, so tests draw it smaller.
    public var renderArguments = ["--fps", "10"]
    /// The supervisor's watchdog, if not its default 3 s: a debug build drawing a board of a
    /// few hundred memos can take longer than that over one frame.
    public var watchdogMs: Int?
    /// New memo commands a second.
    public var memoRate = 40.0
    /// Memos the driver creates before it only edits them (nil: every command creates one).
    public var memoEdits: Int?
    /// Load before the first fault, to have a baseline.
    public var warmupMs = 1500
    /// How long a stopped process stays stopped (below the 3 s watchdog, so it is not restarted).
    public var stopMs = 1000
    /// Load after a service recovered, before the next fault, so late losses land on the right fault.
    public var settleMs = 1500
    /// How long a service may take to recover before the drill calls it failed.
    public var recoveryTimeoutMs = 15_000

    public init(root: String, binDirectory: String, directory: String) {
        self.root = root
        self.binDirectory = binDirectory
        self.directory = directory
    }

    /// `services.json` for the supervisor. The restart-intensity cap is raised: this drill
    /// restarts every service within a minute on purpose.
    var servicesFile: String {
        let entries = Self.stack.map { service in
            let command = service.command + (service.name == "render-worker" ? self.renderArguments : [])
            let words = command.map {
                "\""
                    + $0.replacingOccurrences(of: "{dir}", with: self.directory)
                    .replacingOccurrences(of: "{devices}", with: "\(self.devices)")
                    .replacingOccurrences(of: "{rate}", with: "\(self.ratePerDevice)") + "\""
            }
            return #"{"name": "\#(service.name)", "command": [\#(words.joined(separator: ", "))]}"#
        }
        let watchdog = self.watchdogMs.map { ", \"watchdog_ms\": \($0)" } ?? ""
        return #"{"policy": {"maximum_restarts": 100\#(watchdog)}, "services": [\#(entries.joined(separator: ",\n"))]}"#
    }
}
