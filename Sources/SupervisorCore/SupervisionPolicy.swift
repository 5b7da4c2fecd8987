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
    /// A service restarted more than this many times within ``intensityWindowMs`` is marked
    /// failed (counted per service: the others keep running).
    public var maximumRestarts = 5
    public var intensityWindowMs: Int64 = 60_000
    /// A ready service whose heartbeat (its own pipe to the supervisor) stops for this long is
    /// killed and restarted.
    public var watchdogMs: Int64 = 3_000
    /// A ready service that beats but whose work loop has not turned for this long is stuck in
    /// one handler; it is killed and restarted. Far above any honest turn: a flood is handled
    /// in bounded batches, so a busy loop still turns many times a second.
    public var loopStallMs: Int64 = 30_000
    /// How long a service may take to print `ready`.
    public var startTimeoutMs: Int64 = 15_000
    /// How long a service may take to exit after SIGTERM before it gets SIGKILL.
    public var stopTimeoutMs: Int64 = 5_000
    /// Exit codes that mean "do not retry": a bad command line (64, sysexits' EX_USAGE, as
    /// `Tool.usageStatus`), invalid data such as a scene that breaks its schema (65, EX_DATAERR),
    /// bad configuration or an unknown schema major (78, EX_CONFIG).
    public var permanentExitCodes: Set<Int32> = [64, 65, 78]

    public init() {}
}

/// One service the supervisor runs, in start order.
public struct ServiceSpec: Sendable, Equatable {
    public var name: String
    /// The executable and its arguments.
    public var command: [String]
    /// Whether its heartbeat is watched (a program that has no heartbeat, not a UIBus
    /// service, opts out).
    public var watchdog: Bool
    /// Directories made (with their parents) before each start, e.g. the one a database goes in.
    public var directories: [String]

    public init(name: String, command: [String], watchdog: Bool = true, directories: [String] = []) {
        self.name = name
        self.command = command
        self.watchdog = watchdog
        self.directories = directories
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
