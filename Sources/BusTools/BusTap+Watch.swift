import Bus
import BusSchema
import ServiceSupport

extension BusTap {
    /// `echo`: one line per message, human-readable or JSON.
    func echo(prefix: String) throws {
        let count = try self.options.int("count")
        let json = self.options.flag("json")
        let duration = try self.durationMs()
        try self.options.finish(maximumPositionals: 2)
        var printed = 0
        _ = try self.listen([prefix], durationMs: duration) { delivery, subscriber in
            guard let payload = Self.payload(delivery, subscriber) else { return true }
            Log.out(json ? Self.jsonLine(delivery, payload) : Self.humanLine(delivery, payload))
            printed += 1
            return count.map { printed < $0 } ?? true
        }
    }

    /// The JSON form of one message, as `echo --json` prints it.
    public static func jsonLine(_ delivery: Delivery, _ payload: Value) -> String {
        let envelope = delivery.envelope
        let line: ValueMap = [
            "topic": .string(delivery.topic), "schema": .string(envelope.schema),
            "major": .int(Int64(envelope.major)), "minor": .int(Int64(envelope.minor)),
            "pub": .string(envelope.publisher), "epoch": Value(envelope.epoch), "seq": Value(envelope.seq),
            "mono": Value(envelope.mono), "wall": Value(envelope.wall), "payload": payload,
        ]
        return Value.map(line).json
    }

    static func humanLine(_ delivery: Delivery, _ payload: Value) -> String {
        let envelope = delivery.envelope
        return "\(delivery.topic)  \(envelope.schema) v\(envelope.major).\(envelope.minor)  "
            + "\(envelope.publisher)#\(envelope.seq)  \(payload.json)"
    }

    /// `list`: the topics seen during the window, with schema, publishers, count and rate.
    func list() throws {
        let json = self.options.flag("json")
        let duration = try self.durationMs() ?? 2000
        try self.options.finish(maximumPositionals: 1)
        var topics: [String: (schema: String, publishers: Set<String>, count: Int)] = [:]
        _ = try self.listen([""], durationMs: duration) { delivery, _ in
            let envelope = delivery.envelope
            var entry = topics[delivery.topic] ?? ("\(envelope.schema) v\(envelope.major).\(envelope.minor)", [], 0)
            entry.publishers.insert(envelope.publisher)
            entry.count += 1
            topics[delivery.topic] = entry
            return true
        }
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
                Log.out("\(topic)  \(entry.schema)  \(publishers)  \(entry.count) msgs  \(Self.format(rate))/s")
            }
        }
        if topics.isEmpty && !json { Log.error("bus-tap", "no messages in \(seconds) s") }
    }

    /// `hz`: rate, intervals, bandwidth, loss and latency of the messages under a prefix.
    func hz(prefix: String) throws {
        let count = try self.options.int("count")
        let json = self.options.flag("json")
        let duration = try self.durationMs()
        let highWaterMark = Int32(try self.options.int("hwm") ?? 100_000)
        try self.options.finish(maximumPositionals: 2)
        var stats = RateStatistics()
        var nextReport = Clock.monotonicNs() + 1_000_000_000
        let subscriber = try self.listen([prefix], durationMs: duration, highWaterMark: highWaterMark) {
            delivery, subscriber in
            let now = Clock.monotonicNs()
            stats.record(size: delivery.payload.count, receivedNs: now, stampedNs: delivery.envelope.mono)
            if !json && now >= nextReport {
                Log.out(Self.hzLine(stats, lost: subscriber.statistics.value(.gaps)))
                nextReport = now + 1_000_000_000
            }
            guard let count else { return true }
            return stats.received + subscriber.statistics.value(.gaps) < UInt64(count)
        }
        let counters = subscriber.statistics.counters
        if json {
            let summary: ValueMap = [
                "prefix": .string(prefix), "received": Value(stats.received), "lost": Value(counters.gaps),
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
        "average rate: \(Self.format(stats.rate))/s  min: \(Self.format(stats.intervalMinMs)) ms  "
            + "max: \(Self.format(stats.intervalMaxMs)) ms  std dev: \(Self.format(stats.intervalStandardDeviationMs)) ms  "
            + "bandwidth: \(Self.format(stats.bandwidth)) B/s  received: \(stats.received)  lost: \(lost)  "
            + "latency p50: \(Self.format(stats.latencyPercentileUs(0.5))) µs  "
            + "p99: \(Self.format(stats.latencyPercentileUs(0.99))) µs"
    }

    static func format(_ value: Double) -> String {
        let scaled = (value * 1000).rounded() / 1000
        return scaled == scaled.rounded() ? String(Int64(scaled)) : String(scaled)
    }
}
