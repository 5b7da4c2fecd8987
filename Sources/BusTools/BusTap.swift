import Bus
import BusSchema
import CZeroMQ
import ServiceSupport

/// `bus-tap`: look at and talk to a running bus, modelled on `ros2 topic` and `mosquitto_sub`.
public final class BusTap {
    public static let usage = """
        usage: bus-tap [--bus FILE] VERB …
          endpoints                              print the bus endpoints as JSON
          list [--duration S] [--json]           topics seen, with schema, publishers and rate
          echo [PREFIX] [--count N] [--duration S] [--json]
          hz PREFIX [--count N] [--duration S] [--json] [--hwm N]
          pub TOPIC --schema ID --json '{…}' [--major M] [--rate R] [--count N] [--wait-ms MS]
          record FILE.mcap [PREFIX …] [--count N] [--duration S]
          replay FILE.mcap [--rate X] [--loop] [--wait-ms MS]
        """

    let signals: SignalWatcher
    let config: BusConfig
    var options: Options
    let verb: String
    lazy var context: ZMQContext = {
        // A context cannot fail to be created short of memory exhaustion.
        try! ZMQContext()
    }()

    /// Parses the verb and the `--bus` option.
    ///
    /// - Throws: ``UsageError`` for a missing verb, ``ConfigurationError`` for a bad bus file.
    public init(arguments: [String], signals: SignalWatcher) throws {
        self.signals = signals
        // `pub --json` takes a document; everywhere else `--json` is a flag.
        let flags: Set<String> = Self.verb(in: arguments) == "pub" ? [] : ["json", "loop"]
        self.options = try Options(arguments, flags: flags)
        self.config = try Tool.busConfig(&self.options)
        guard let verb = self.options.positionals.first else { throw UsageError("missing verb") }
        self.verb = verb
    }

    /// The first word that is neither an option nor the value of `--bus`.
    static func verb(in arguments: [String]) -> String? {
        var index = 0
        while index < arguments.count {
            if arguments[index] == "--bus" {
                index += 2
                continue
            }
            if !arguments[index].hasPrefix("--") { return arguments[index] }
            index += 1
        }
        return nil
    }

    /// Runs the verb.
    public func run() throws {
        let arguments = Array(self.options.positionals.dropFirst())
        switch self.verb {
        case "endpoints":
            try self.options.finish(maximumPositionals: 1)
            Log.out(Value.map(self.config.document).json)
        case "list": try self.list()
        case "echo": try self.echo(prefix: arguments.first ?? "")
        case "hz":
            guard let prefix = arguments.first else { throw UsageError("hz needs a topic prefix") }
            try self.hz(prefix: prefix)
        case "pub":
            guard let topic = arguments.first else { throw UsageError("pub needs a topic") }
            try self.pub(topic: topic)
        case "record":
            guard let path = arguments.first else { throw UsageError("record needs an output file") }
            try self.record(path: path, prefixes: Array(arguments.dropFirst()))
        case "replay":
            guard let path = arguments.first else { throw UsageError("replay needs an MCAP file") }
            try self.replay(path: path)
        default:
            throw UsageError("unknown verb '\(self.verb)'")
        }
    }

    /// Subscribes to `prefixes` and hands every delivery to `body` until it returns false,
    /// the deadline passes or a stop signal arrives.
    func listen(
        _ prefixes: [String], durationMs: Int?, highWaterMark: Int32 = 100_000,
        _ body: (Delivery, Subscriber) throws -> Bool
    ) throws -> Subscriber {
        let subscriber = try Subscriber(
            context: self.context, endpoint: self.config.subscribe, prefixes: prefixes,
            receiveHighWaterMark: highWaterMark, curve: try self.config.curveClient())
        subscriber.onProblem = { Log.error("bus-tap", $0) }
        var poller = Poller()
        let socketIndex = try poller.add(subscriber.socket)
        let signalIndex = poller.add(fileDescriptor: self.signals.descriptor)
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
            guard poller.isReadable(socketIndex) else { continue }
            while true {
                let (received, delivery) = try subscriber.receiveQueued()
                guard received else { break }
                if let delivery, try !body(delivery, subscriber) { return subscriber }
            }
        }
    }

    /// Milliseconds from `--duration S`, if given.
    func durationMs() throws -> Int? {
        try self.options.double("duration").map { Int($0 * 1000) }
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
