import Bus
import BusSchema
import DemoReport
import Foundation
import ServiceSupport

/// `bus-flood`: floods a running pipeline and measures what comes out (see ``usage``).
public struct BusFlood {
    public static let usage = """
        usage: bus-flood [--bus FILE] [--cpus LIST] touch --rate R|max [--devices N] [--duration S] [--payload B] [--json] [--out DIR]
               bus-flood [--bus FILE] [--cpus LIST] memo --rate R|max [--clients N] [--duration S] [--keep] [--json] [--out DIR]
          touch   touch.frame messages on touch/flood-<pid>/ (its own devices) into gesture-recognizer and component-host
          memo    memo.command creates to memo-store as clients of its own, acks awaited on memo/ack/<client>/;
                  what it created is removed at the end (trash included) unless --keep
          --rate max   searches for the highest rate with nothing lost (each trial lasts --duration)
          --json       one JSON object on stdout; --out DIR also writes result.json and latency.svg
                       (and for touch frames.csv: each frame's send, recognizer and arrival times)
          --cpus LIST  runs the flood on these cores only (0, 1,3, 0-3), as the services' --cpus
        progress goes to stderr (once a second when it is not a terminal); exit status 1 when no trial was clean.
        """

    static let commandLine = CommandLineSpec(
        common: [
            .bus, .cpus, .value("rate", "R|max", "messages per second, or max to search"),
            .value("duration", "S", "seconds per trial (default 5)"), .flag("json", "one JSON object on stdout"),
            .value("out", "DIR", "also write result.json, latency.svg (and frames.csv) there"),
        ],
        verbs: [
            "touch": [
                .value("devices", "N", "devices to flood from (default 1)"),
                .value("payload", "B", "pad each frame to B bytes"),
            ],
            "memo": [
                .value("clients", "N", "clients to send as (default 1)"),
                .flag("keep", "leave the memos it created on the board"),
            ],
        ])

    private enum Mode {
        case touch(TouchFloodPlan)
        case memo(MemoFloodPlan)
    }

    private let config: BusConfig
    private let mode: Mode
    private let searchMax: Bool
    private let json: Bool
    private let outDirectory: String?
    /// The `--cpus` list the flood pins itself to when it runs.
    private let cpus: String?

    /// Parses a command line (without the program name).
    ///
    /// - Throws: ``UsageError`` naming the option at fault, ``ConfigurationError`` for a bad bus file.
    public init(arguments: [String]) throws {
        var options = try Self.commandLine.parse(arguments)
        self.json = options.flag("json")
        self.outDirectory = options.string("out")
        guard let rateText = options.string("rate") else { throw UsageError("missing --rate R (or --rate max)") }
        self.searchMax = rateText == "max"
        let rate = self.searchMax ? 1000 : try Self.positive("rate", Double(rateText), rateText)
        let seconds = try options.string("duration").map { try Self.positive("duration", Double($0), $0) } ?? 5
        guard seconds <= 3600 else { throw UsageError("--duration is at most 3600 seconds, not '\(seconds)'") }
        switch options.verb {
        case "touch":
            let devices = try options.string("devices").map { try Self.count("devices", $0, limit: 256) } ?? 1
            let payload = try options.string("payload").map { text in
                let bytes = try Self.count("payload", text, limit: 65_000)
                guard bytes >= TouchFloodFrames.naturalSize + 8 else {
                    throw UsageError(
                        "--payload must leave room for the frame (\(TouchFloodFrames.naturalSize) bytes) "
                            + "and its padding: at least \(TouchFloodFrames.naturalSize + 8), not \(bytes)")
                }
                return bytes
            }
            self.mode = .touch(TouchFloodPlan(devices: devices, rate: rate, seconds: seconds, payloadBytes: payload))
        case "memo":
            let clients = try options.string("clients").map { try Self.count("clients", $0, limit: 1000) } ?? 1
            var plan = MemoFloodPlan(clients: clients, rate: rate, seconds: seconds)
            plan.keep = options.flag("keep")
            self.mode = .memo(plan)
        default: throw UsageError("unknown verb '\(options.verb)' (touch or memo)")
        }
        self.cpus = options.string("cpus")
        // Checked here so that a bad list is a usage error; the flood pins itself only when it runs.
        if let cpus { _ = try CPUSet(parsing: cpus) }
        // The bus file is read last, so a bad command line is reported as such even with no bus file.
        _ = options.string("bus")
        try options.finish(maximumPositionals: 1)
        self.config = try Tool.busConfig(&options)
    }

    /// Runs the flood (or the search) and prints the result.
    ///
    /// - Throws: ``FloodError`` with the reason when no trial was clean (after printing the result).
    public func run() throws {
        try Tool.placeOnCPUs(self.cpus, tool: "bus-flood")
        for endpoint in [self.config.subscribe, self.config.publish] {
            if let problem = EndpointProbe.problem(endpoint) {
                throw FloodError("no bus proxy reachable at \(endpoint) (\(problem)); start the stack first")
            }
        }
        let environment = FloodEnvironment(context: try ZMQContext(), config: self.config, progress: ProgressLine())
        var result: FloodResult
        if self.searchMax {
            var search = RateSearch()
            var trials: [Value] = []
            var best: FloodResult?
            var last: FloodResult?
            while let rate = search.next {
                let trial = try self.flood(in: environment, rate: rate)
                search.record(clean: trial.isClean)
                if trial.isClean { best = trial }
                last = trial
                var summary: ValueMap = [
                    "target_rate_per_s": .double(rate), "sent_per_s": .double(trial.sentPerSecond.rounded()),
                    "rate_per_s": .double(trial.ratePerSecond.rounded()),
                    "lost": Value(trial.hops.map(\.lost).reduce(0, +)),
                    "unaccounted": .int(trial.hops.map(\.unaccounted).reduce(0, +)), "clean": .bool(trial.isClean),
                    "p99_us": .double(trial.latency.p99Us.rounded()),
                ]
                if let stolen = trial.stolenMs { summary["stolen_ms"] = .double(stolen.rounded()) }
                trials.append(.map(summary))
                if !self.json { Log.out(Self.trialLine(trial)) }
            }
            guard let chosen = best ?? last else { throw FloodError("the rate search ran no trial") }
            result = chosen
            result.details["max_rate_per_s"] = .double(best.map { $0.targetRate } ?? 0)
            result.details["search"] = .array(trials)
        } else {
            result = try self.flood(in: environment, rate: nil)
        }
        let document = result.value.json
        if let directory = self.outDirectory { try Self.write(result, json: document, to: directory) }
        if self.json { Log.out(document) } else { Log.out(Self.summary(result)) }
        if !result.isClean {
            let which = self.searchMax ? "no trial was clean (the last one is shown)" : "the flood was not clean"
            throw FloodError("\(which): " + result.problems.joined(separator: "; "))
        }
    }

    private func flood(in environment: FloodEnvironment, rate: Double?) throws -> FloodResult {
        let stolenBefore = StolenTime.sinceBootMs()
        var result: FloodResult
        switch self.mode {
        case .touch(var plan):
            plan.rate = rate ?? plan.rate
            result = try TouchFlood.run(plan, in: environment)
        case .memo(var plan):
            plan.rate = rate ?? plan.rate
            result = try MemoFlood.run(plan, in: environment)
        }
        if let before = stolenBefore, let after = StolenTime.sinceBootMs() { result.stolenMs = max(0, after - before) }
        return result
    }

    /// Writes `result.json`, `latency.svg` (the main latency's histogram) and, for a touch flood,
    /// `frames.csv` (``FrameTiming``) into `directory`.
    static func write(_ result: FloodResult, json: String, to directory: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data((json + "\n").utf8).write(to: URL(fileURLWithPath: directory + "/result.json"))
            let title = "bus-flood \(result.mode): \(result.latencyPath)"
            let svg = SVGChart.histogramDocument(result.latency, title: title)
            try Data(svg.utf8).write(to: URL(fileURLWithPath: directory + "/latency.svg"))
            if !result.frames.isEmpty {
                try Data(FrameTiming.csv(result.frames).utf8).write(to: URL(fileURLWithPath: directory + "/frames.csv"))
            }
        } catch {
            throw FloodError("cannot write the result to \(directory): \(error.localizedDescription)")
        }
    }

    static func summary(_ result: FloodResult) -> String {
        var lines = [
            "\(result.mode): \(result.main.sent) sent in \(Self.fixed(result.seconds, 2)) s, "
                + "\(result.main.delivered) delivered (\(Self.fixed(result.ratePerSecond, 0))/s), "
                + "\(result.main.lost) lost, \(result.main.unaccounted) unaccounted",
            "latency (\(result.latencyPath)): " + Self.percentiles(result.latency),
        ]
        let details = result.details.filter { !["search"].contains($0.key) }.map { "\($0.key) \($0.value.json)" }
        lines.append(details.joined(separator: ", "))
        if let stolen = result.stolenMs, stolen > 0 {
            lines.append(
                "the hypervisor took \(Self.fixed(stolen, 0)) ms of CPU from this machine meanwhile (steal): "
                    + "stalls in the tail that no process here caused")
        }
        for hop in result.hops {
            var line = "  \(hop.hop): sent \(hop.sent), delivered \(hop.delivered), lost \(hop.lost), "
            line += "unaccounted \(hop.unaccounted) [\(hop.countedBy)]"
            if let latency = hop.latency, latency.count > 0 { line += "; " + Self.percentiles(latency) }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    static func trialLine(_ trial: FloodResult) -> String {
        "trial at \(Self.fixed(trial.targetRate, 0))/s: sent \(Self.fixed(trial.sentPerSecond, 0))/s, "
            + "\(Self.fixed(trial.ratePerSecond, 0))/s delivered, "
            + "lost \(trial.hops.map(\.lost).reduce(0, +)), unaccounted \(trial.hops.map(\.unaccounted).reduce(0, +)), "
            + (trial.isClean ? "clean" : "not clean")
    }

    private static func percentiles(_ latency: LatencyHistogram) -> String {
        "p50 \(HumanUnits.duration(microseconds: latency.p50Us)), p99 \(HumanUnits.duration(microseconds: latency.p99Us)), "
            + "p99.9 \(HumanUnits.duration(microseconds: latency.p999Us)), max \(HumanUnits.duration(microseconds: latency.maxUs))"
    }

    private static func fixed(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    private static func positive(_ name: String, _ value: Double?, _ text: String) throws -> Double {
        guard let value, value.isFinite, value > 0 else {
            throw UsageError("--\(name) takes a number above 0, not '\(text)'")
        }
        return value
    }

    private static func count(_ name: String, _ text: String, limit: Int) throws -> Int {
        guard let value = Int(text), value > 0, value <= limit else {
            throw UsageError("--\(name) takes a whole number from 1 to \(limit), not '\(text)'")
        }
        return value
    }
}
