import Bus
import BusSchema
import ServiceSupport

extension BusTap {
    /// `echo`: one line per message, human-readable or JSON, optionally one field of those that pass a filter.
    func echo(pattern: TopicPattern) throws {
        let once = self.options.flag("once")
        let latest = self.options.flag("latest")
        let count = once ? 1 : try self.options.int("count")
        let json = self.options.flag("json")
        let field = try self.options.string("field").map(FieldPath.init)
        let filter = try self.options.string("filter").map(PayloadFilter.init)
        var duration = try self.durationMs()
        try self.options.finish(maximumPositionals: 2)
        if latest && count != nil { throw UsageError("--latest prints one message per topic; drop --count/--once") }
        if let count, count < 1 { throw UsageError("--count takes a number above 0, not \(count)") }
        // Late joiners get each topic's cached value at once; the window only has to outlast the hop.
        if latest { duration = duration ?? 1000 }
        var printed = 0
        var topics: Set<String> = []
        var closed = false
        _ = try self.listen([pattern], durationMs: duration) { delivery, subscriber in
            guard let payload = Self.payload(delivery, subscriber) else { return true }
            if let filter, !filter.matches(payload) { return true }
            if latest, !topics.insert(delivery.topic).inserted { return true }
            let shown: Value
            if let field {
                guard let value = field.value(in: payload) else { return true }
                shown = value
            } else {
                shown = payload
            }
            let line =
                json
                ? Self.jsonLine(delivery, shown, key: field == nil ? "payload" : "value")
                : field == nil ? Self.humanLine(delivery, shown) : shown.json
            guard Log.out(line) else {
                closed = true
                return false
            }
            printed += 1
            return count.map { printed < $0 } ?? true
        }
        if latest && printed == 0 && !closed {
            throw ToolError("no value on \(pattern) within \(HumanUnits.duration(milliseconds: Double(duration!)))")
        }
    }

    /// The JSON form of one message, as `echo --json` prints it (`key` names the payload, or the
    /// field shown with `--field`).
    public static func jsonLine(_ delivery: Delivery, _ payload: Value, key: String = "payload") -> String {
        let envelope = delivery.envelope
        var line: ValueMap = [
            "topic": .string(delivery.topic), "schema": .string(envelope.schema),
            "major": .int(Int64(envelope.major)), "minor": .int(Int64(envelope.minor)),
            "pub": .string(envelope.publisher), "epoch": Value(envelope.epoch), "seq": Value(envelope.seq),
            "mono": Value(envelope.mono), "wall": Value(envelope.wall),
        ]
        line[key] = payload
        return Value.map(line).json
    }

    static func humanLine(_ delivery: Delivery, _ payload: Value) -> String {
        let envelope = delivery.envelope
        return "\(delivery.topic)  \(envelope.schema) v\(envelope.major).\(envelope.minor)  "
            + "\(envelope.publisher)#\(envelope.seq)  \(payload.json)"
    }

    /// What `list` and `info` gather per topic while watching.
    struct TopicTally {
        var schema: String
        var publishers: Set<String> = []
        var count = 0
        var bytes = 0
    }

    /// Watches `pattern` for `durationMs` and tallies each topic.
    func tally(_ pattern: TopicPattern, durationMs: Int) throws -> [String: TopicTally] {
        var topics: [String: TopicTally] = [:]
        _ = try self.listen([pattern], durationMs: durationMs) { delivery, _ in
            let envelope = delivery.envelope
            var entry =
                topics[delivery.topic] ?? TopicTally(schema: "\(envelope.schema) v\(envelope.major).\(envelope.minor)")
            entry.publishers.insert(envelope.publisher)
            entry.count += 1
            entry.bytes += delivery.payload.count
            topics[delivery.topic] = entry
            return true
        }
        return topics
    }

    /// `list`: the topics seen during the window, with schema, publishers, count and rate.
    func list(pattern: TopicPattern) throws {
        let json = self.options.flag("json")
        let duration = try self.durationMs() ?? 2000
        try self.options.finish(maximumPositionals: 2)
        let topics = try self.tally(pattern, durationMs: duration)
        let seconds = Double(duration) / 1000
        for topic in topics.keys.sorted() {
            let entry = topics[topic]!
            let rate = Double(entry.count) / seconds
            if json {
                let line: ValueMap = [
                    "topic": .string(topic), "schema": .string(entry.schema),
                    "publishers": .array(entry.publishers.sorted().map { .string($0) }),
                    "count": .int(Int64(entry.count)), "rate_per_s": .double(rate),
                ]
                Log.out(Value.map(line).json)
            } else {
                let publishers = entry.publishers.sorted().joined(separator: ",")
                Log.out(
                    "\(topic)  \(entry.schema)  \(publishers)  \(entry.count) msgs  \(HumanUnits.significant(rate))/s")
            }
        }
        if topics.isEmpty && !json {
            Log.error("bus-tap", "no messages in \(HumanUnits.duration(milliseconds: Double(duration)))")
        }
    }

    /// `hz`: rate, intervals, bandwidth, loss and latency of the messages matching a pattern.
    func hz(pattern: TopicPattern) throws {
        let count = try self.options.int("count")
        let json = self.options.flag("json")
        let duration = try self.durationMs()
        let highWaterMark = Int32(clamping: try self.options.int("hwm") ?? 100_000)
        try self.options.finish(maximumPositionals: 2)
        var stats = RateStatistics()
        var nextReport = Clock.monotonicNs() + 1_000_000_000
        let subscriber = try self.listen([pattern], durationMs: duration, highWaterMark: highWaterMark) {
            delivery, subscriber in
            let now = Clock.monotonicNs()
            stats.record(size: delivery.payload.count, receivedNs: now, stampedNs: delivery.envelope.mono)
            if !json && now >= nextReport {
                guard Log.out(Self.hzLine(stats, lost: subscriber.statistics.value(.gaps))) else { return false }
                nextReport = now + 1_000_000_000
            }
            guard let count else { return true }
            return stats.received + subscriber.statistics.value(.gaps) < UInt64(count)
        }
        let counters = subscriber.statistics.counters
        if json {
            let summary: ValueMap = [
                "prefix": .string(pattern.text), "received": Value(stats.received), "lost": Value(counters.gaps),
                "duplicates": Value(counters.duplicates), "reorders": Value(counters.reorders),
                "rejected": Value(counters.rejected), "rate_per_s": .double(stats.rate),
                "interval_mean_ms": .double(stats.intervalMeanMs), "interval_min_ms": .double(stats.intervalMinMs),
                "interval_max_ms": .double(stats.intervalMaxMs),
                "interval_std_ms": .double(stats.intervalStandardDeviationMs),
                "bandwidth_bytes_per_s": .double(stats.bandwidth),
                "latency_p50_us": .double(stats.latencyPercentileUs(0.5)),
                "latency_p99_us": .double(stats.latencyPercentileUs(0.99)),
            ]
            Log.out(Value.map(summary).json)
        } else {
            Log.out(Self.hzLine(stats, lost: counters.gaps))
        }
    }

    static func hzLine(_ stats: RateStatistics, lost: UInt64) -> String {
        "average rate: \(HumanUnits.significant(stats.rate))/s  min: \(HumanUnits.duration(milliseconds: stats.intervalMinMs))  "
            + "max: \(HumanUnits.duration(milliseconds: stats.intervalMaxMs))  "
            + "std dev: \(HumanUnits.duration(milliseconds: stats.intervalStandardDeviationMs))  "
            + "bandwidth: \(HumanUnits.bytesPerSecond(stats.bandwidth))  received: \(stats.received)  lost: \(lost)  "
            + "latency p50: \(HumanUnits.duration(microseconds: stats.latencyPercentileUs(0.5)))  "
            + "p99: \(HumanUnits.duration(microseconds: stats.latencyPercentileUs(0.99)))"
    }
}
