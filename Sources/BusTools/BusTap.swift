import Bus
import BusSchema
import CZeroMQ
import Glibc
import ServiceSupport

/// `bus-tap`: look at and talk to a running bus, modelled on `ros2 topic` and `mosquitto_sub`.
public final class BusTap {
    public static let usage = """
        usage: bus-tap [--bus FILE] VERB …   (VERB --help for its options)
          endpoints                              print the bus endpoints as JSON
          list [PATTERN] [--duration S] [--json] topics seen, with schema, publishers and rate
          echo [PATTERN] [--count N | --once | --latest] [--duration S] [--field PATH] [--filter EXPR] [--json]
          hz PATTERN [--count N] [--duration S] [--json] [--hwm N]
          info TOPIC|FILE.mcap [--duration S] [--json]
          schema [ID] [--major M]                 the known ids, or one's JSON Schema and an example
          pub TOPIC --schema ID [PAYLOAD | --file F | < F] [--major M] [--rate R] [--count N] [--wait-ms MS]
          record FILE.mcap [PATTERN …] [--count N] [--duration S] [--force] [--compression zstd|none]
                           [--wait-for-proxy S]
          replay FILE.mcap [--speed X] [--loop] [--wait-ms MS]
        PATTERN: a topic prefix (touch/), or levels with * (one level) and ** (any depth): gesture/*/screen/tap/
        EXPR: comparisons of payload fields joined by and/or/not: kind == "tap" and x > 100
        """

    static let json = OptionSpec.flag("json", "one JSON object per line")
    static let duration = OptionSpec.value("duration", "S", "stop after S seconds")
    static let count = OptionSpec.value("count", "N", "stop after N messages")
    static let waitMs = OptionSpec.value("wait-ms", "MS", "how long to wait for a subscriber first (default 2000)")

    /// The options of each verb (`--bus` applies to all).
    static let commandLine = CommandLineSpec(
        common: [.bus],
        verbs: [
            "endpoints": [],
            "list": [BusTap.duration, BusTap.json],
            "echo": [
                BusTap.count, .flag("once", "stop after the first message (--count 1)"),
                .flag("latest", "the last value of each matching topic (late-joiner delivery), then exit"),
                BusTap.duration, .value("field", "PATH", "print only this payload field (contacts.0.x)"),
                .value("filter", "EXPR", "only messages whose payload passes EXPR"), BusTap.json,
            ],
            "hz": [
                BusTap.count, BusTap.duration, BusTap.json,
                .value("hwm", "N", "receive high-water mark (default 100000)"),
            ],
            "info": [.value("duration", "S", "how long to watch a topic (default 2)"), BusTap.json],
            "schema": [.value("major", "M", "the major version (default 1)")],
            "pub": [
                .value("schema", "ID", "the payload's schema id"), .value("major", "M", "its major (default 1)"),
                .value("file", "F", "read the payload from F (- for stdin)"),
                .value("rate", "R", "messages per second"),
                BusTap.count, BusTap.waitMs,
            ],
            "record": [
                BusTap.count, BusTap.duration, .flag("force", "overwrite an existing file"),
                .value("compression", "C", "chunk compression: zstd or none (default \(BusTap.recordCompression))"),
                .value("wait-for-proxy", "S", "wait up to S seconds for the proxy to come up (default 2)"),
            ],
            "replay": [
                .value(
                    "speed", "X",
                    "times the recorded pace; 0 for as fast as possible (default 1); returns once the "
                        + "touch frames' source times have passed"),
                .flag("loop", "start again at the end"), BusTap.waitMs,
            ],
        ])

    let signals: SignalWatcher
    let config: BusConfig
    var options: Options
    let verb: String
    lazy var context: ZMQContext = {
        // A context cannot fail to be created short of memory exhaustion.
        try! ZMQContext()
    }()

    /// Parses the verb and its options.
    ///
    /// - Throws: ``UsageError`` for a missing or unknown verb or option, ``ConfigurationError`` for a bad bus file.
    public init(arguments: [String], signals: SignalWatcher) throws {
        self.signals = signals
        self.options = try Self.commandLine.parse(arguments)
        self.verb = self.options.verb
        self.config = try Tool.busConfig(&self.options)
    }

    /// Runs the verb.
    public func run() throws {
        let arguments = Array(self.options.positionals.dropFirst())
        switch self.verb {
        case "endpoints":
            try self.options.finish(maximumPositionals: 1)
            Log.out(Value.map(self.config.document).json)
        case "list": try self.list(pattern: try TopicPattern(arguments.first ?? ""))
        case "echo": try self.echo(pattern: try TopicPattern(arguments.first ?? ""))
        case "hz":
            guard let pattern = arguments.first else { throw UsageError("hz needs a topic pattern") }
            try self.hz(pattern: try TopicPattern(pattern))
        case "info":
            guard let target = arguments.first else { throw UsageError("info needs a topic or an MCAP file") }
            try self.info(target)
        case "schema": try self.schema(id: arguments.first)
        case "pub":
            guard let topic = arguments.first else { throw UsageError("pub needs a topic") }
            try self.pub(topic: topic, inline: arguments.dropFirst().first)
        case "record":
            guard let path = arguments.first else { throw UsageError("record needs an output file") }
            try self.record(path: path, patterns: try arguments.dropFirst().map(TopicPattern.init))
        case "replay":
            guard let path = arguments.first else { throw UsageError("replay needs an MCAP file") }
            try self.replay(path: path)
        default:
            throw UsageError("unknown verb '\(self.verb)'")
        }
    }

    /// Fails within 2 s (or `waitMs`), naming the endpoint, if no proxy listens on `endpoint` (one
    /// of the two it binds): ZeroMQ itself would wait silently. A proxy that comes up meanwhile is
    /// taken, so a tool started alongside the stack does not lose the race.
    func requireProxy(at endpoint: String, waitMs: Int = 1800) throws {
        let deadline = Clock.monotonicNs() + UInt64(waitMs) * 1_000_000
        while let problem = EndpointProbe.problem(endpoint, timeoutMs: Int32(clamping: waitMs)) {
            guard Clock.monotonicNs() < deadline else {
                throw ToolError(
                    "no bus proxy reachable at \(endpoint) (\(problem)); is the stack up? (deploy/uibus up)")
            }
            if try self.waitForSignal(until: min(deadline, Clock.monotonicNs() + 100_000_000)) {
                throw ToolError("stopped while waiting for a bus proxy at \(endpoint)")
            }
        }
    }

    /// Subscribes to what `patterns` cover and hands every matching delivery to `body` until it
    /// returns false, the deadline passes, a stop signal arrives or stdout's reader goes away.
    func listen(
        _ patterns: [TopicPattern], durationMs: Int?, highWaterMark: Int32 = 100_000,
        _ body: (Delivery, Subscriber) throws -> Bool
    ) throws -> Subscriber {
        try self.requireProxy(at: self.config.subscribe)
        let subscriber = try Subscriber(
            context: self.context, endpoint: self.config.subscribe, prefixes: Array(Set(patterns.map(\.subscription))),
            receiveHighWaterMark: highWaterMark, curve: try self.config.curveClient())
        subscriber.onProblem = { Log.error("bus-tap", $0) }
        var poller = Poller()
        let socketIndex = try poller.add(subscriber.socket)
        let signalIndex = poller.add(fileDescriptor: self.signals.descriptor)
        // A pipe's reader closing (`| head -1`) shows as an error on stdout even while nothing arrives.
        let stdoutIndex = Self.stdoutIsPipe ? poller.add(fileDescriptor: STDOUT_FILENO) : nil
        let deadline = durationMs.map { Clock.monotonicNs() + UInt64($0) * 1_000_000 }
        while true {
            var timeout = -1
            if let deadline {
                let now = Clock.monotonicNs()
                if now >= deadline { return subscriber }
                timeout = Int((deadline - now) / 1_000_000) + 1
            }
            try poller.poll(timeoutMs: timeout)
            if poller.isReadable(signalIndex), self.signals.pending() != nil { return subscriber }
            if let stdoutIndex, poller.hasError(stdoutIndex) { return subscriber }
            guard poller.isReadable(socketIndex) else { continue }
            while true {
                let (received, delivery) = try subscriber.receiveQueued()
                guard received else { break }
                guard let delivery, patterns.contains(where: { $0.matches(delivery.topic) }) else { continue }
                if try !body(delivery, subscriber) { return subscriber }
            }
        }
    }

    static var stdoutIsPipe: Bool {
        var status = stat()
        return fstat(STDOUT_FILENO, &status) == 0 && (status.st_mode & mode_t(S_IFMT)) == mode_t(S_IFIFO)
    }

    /// Milliseconds from `--duration S`, if given.
    func durationMs() throws -> Int? {
        guard let seconds = try self.options.double("duration") else { return nil }
        guard seconds > 0, seconds <= 86_400 else {
            throw UsageError("--duration takes seconds above 0, not \(seconds)")
        }
        return Int(seconds * 1000)
    }

    /// Decodes a delivery's payload as a value, counting a failure as `bad_payload`.
    static func payload(_ delivery: Delivery, _ subscriber: Subscriber) -> Value? {
        do {
            return try Value(messagePack: delivery.payload)
        } catch {
            subscriber.statistics.reject("bad_payload")
            Log.error("bus-tap", "bad_payload: \(delivery.envelope.schema) on \(delivery.topic): \(error)")
            return nil
        }
    }
}
