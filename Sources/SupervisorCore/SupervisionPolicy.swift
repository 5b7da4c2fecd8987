/// How the supervisor restarts, watches and stops services.
public struct SupervisionPolicy: Sendable, Equatable {
    /// The first restart delay; it doubles with each consecutive crash.
    public var initialBackoffMs: Int64 = 500
    public var maximumBackoffMs: Int64 = 30_000
    /// Each delay is scaled by a random factor in `1 − jitter … 1`, so services that crash
    /// together do not restart in lockstep; the doubling steps stay upper bounds.
    public var jitter: Double = 0.2
    /// A service that ran this long before exiting starts its backoff from the beginning again.
    public var stableAfterMs: Int64 = 60_000
    /// More than this many restarts (of any service) within ``intensityWindowMs`` stops the group.
    public var maximumRestarts = 5
    public var intensityWindowMs: Int64 = 60_000
    /// A ready service whose health messages stop for this long is killed and restarted.
    public var watchdogMs: Int64 = 3_000
    /// How long a service may take to print `ready`.
    public var startTimeoutMs: Int64 = 15_000
    /// How long a service may take to exit after SIGTERM before it gets SIGKILL.
    public var stopTimeoutMs: Int64 = 5_000
    /// Exit codes that mean "do not retry": a bad command line (64, sysexits' EX_USAGE, as
    /// `Tool.usageStatus`), bad configuration or an unknown schema major (78, EX_CONFIG).
    public var permanentExitCodes: Set<Int32> = [64, 78]

    public init() {}
}

/// One service the supervisor runs, in start order.
public struct ServiceSpec: Sendable, Equatable {
    public var name: String
    /// The executable and its arguments.
    public var command: [String]
    /// Whether its health messages are watched (a service that publishes none opts out).
    public var watchdog: Bool

    public init(name: String, command: [String], watchdog: Bool = true) {
        self.name = name
        self.command = command
        self.watchdog = watchdog
    }
}

/// How a child process ended.
public enum ExitStatus: Sendable, Equatable, CustomStringConvertible {
    case code(Int32)
    case signal(Int32)

    public var description: String {
        switch self {
        case .code(let code): return "exit code \(code)"
        case .signal(let signal): return "signal \(signal)"
        }
    }
}
