import Bus
import BusSchema
import ServiceSupport

extension BusTap {
    /// `info TOPIC`: what flows on a topic (schema, publishers, count, rate, bandwidth) while
    /// watching, and who listens (the subscribers the proxy counts); `info FILE.mcap`: a
    /// recording's summary, like `mcap info` / `ros2 bag info`.
    func info(_ target: String) throws {
        if target.hasSuffix(".mcap") {
            try self.options.finish(maximumPositionals: 2)
            Log.out(try MCAPSummaryText.describe(path: target))
            return
        }
        let json = self.options.flag("json")
        let duration = try self.durationMs() ?? 2000
        try self.options.finish(maximumPositionals: 2)
        let pattern = try TopicPattern(target)
        let subscriptions = try self.subscriptions(covering: pattern)
        // Counted before this tool subscribes to the topic itself.
        let subscribers = try self.proxySubscribers(overlapping: pattern.subscription)
        let topics = try self.tally(pattern, durationMs: duration)
        let seconds = Double(duration) / 1000
        let store = SchemaStore.locate()
        let expected = store?.schemas(carriedBy: pattern.text) ?? []
        var rows: [Value] = []
        for topic in topics.keys.sorted() {
            let entry = topics[topic]!
            let row: ValueMap = [
                "topic": .string(topic), "schema": .string(entry.schema),
                "publishers": .array(entry.publishers.sorted().map { .string($0) }),
                "count": .int(Int64(entry.count)), "rate_per_s": .double(Double(entry.count) / seconds),
                "bandwidth_bytes_per_s": .double(Double(entry.bytes) / seconds),
            ]
            rows.append(.map(row))
        }
        // Those whose prefix the topic starts with get all of it; longer prefixes get a part.
        let covering = subscribers.map { $0.filter { pattern.subscription.hasPrefix($0.prefix) } }
        let count = covering.map { $0.reduce(0) { $0 + $1.count } }
        if json {
            var document: ValueMap = [
                "pattern": .string(pattern.text), "watched_s": .double(seconds),
                "expected_schemas": .array(expected.map { .string($0) }),
                "subscriptions": .array(subscriptions.map { .string($0) }), "topics": .array(rows),
                "subscribers": count.map { Value($0) } ?? .null,
            ]
            if let subscribers {
                document["subscribers_by_prefix"] = .map(ValueMap(subscribers.map { ($0.prefix, Value($0.count)) }))
            }
            Log.out(Value.map(document).json)
            return
        }
        var lines = ["\(pattern.text)  (watched \(HumanUnits.duration(milliseconds: Double(duration))))"]
        if !expected.isEmpty { lines.append("  schema by convention: \(expected.joined(separator: ", "))") }
        if let subscribers, let count {
            let listed = subscribers.map { "'\($0.prefix)' \($0.count)" }.joined(separator: ", ")
            lines.append(
                "  subscribers seen by the proxy: \(count)" + (listed.isEmpty ? "" : " (by prefix: \(listed))"))
        } else {
            let quoted = subscriptions.map { "'\($0)'" }.joined(separator: ", ")
            lines.append(
                "  subscriptions at the proxy that cover it: " + (subscriptions.isEmpty ? "none" : quoted)
                    + " (no subscriber counts: the proxy sent no health with them)")
        }
        if topics.isEmpty { lines.append("  no messages") }
        for topic in topics.keys.sorted() {
            let entry = topics[topic]!
            lines.append(
                "  \(topic)  \(entry.schema)  publishers: \(entry.publishers.sorted().joined(separator: ","))  "
                    + "\(entry.count) msgs  \(HumanUnits.significant(Double(entry.count) / seconds))/s  "
                    + HumanUnits.bytesPerSecond(Double(entry.bytes) / seconds))
        }
        Log.out(lines.joined(separator: "\n"))
    }

    /// The subscription prefixes the proxy forwards to publishers that deliver some of what
    /// `pattern` matches: who listens (by prefix; the proxy does not say how many subscribers).
    func subscriptions(covering pattern: TopicPattern) throws -> [String] {
        try self.requireProxy(at: self.config.publish)
        let publisher = try Publisher(
            context: self.context, endpoint: self.config.publish, name: "bus-tap", curve: try self.config.curveClient(),
            joinGraceMs: 0)
        defer { publisher.socket.close() }
        // The proxy replays its subscriptions to a new publisher at once; 300 ms covers the hop.
        let deadline = Clock.monotonicNs() + 300_000_000
        var poller = Poller()
        _ = try poller.add(publisher.socket)
        while case let now = Clock.monotonicNs(), now < deadline {
            try poller.poll(timeoutMs: Int((deadline - now) / 1_000_000) + 1)
            try publisher.drainSubscriptions()
        }
        let literal = pattern.subscription
        return publisher.subscriptions.filter { $0.hasPrefix(literal) || literal.hasPrefix($0) }.sorted()
    }

    /// The proxy's subscriptions per prefix from its health (``Health/subscribers``), those that
    /// overlap `literal` (either is a prefix of the other); nil if no report with them came in 2.5 s.
    ///
    /// Read from the proxy's next report. Where this query's own subscription to that report
    /// overlaps `literal`, it may or may not be in the first one, so the second is read (the proxy
    /// has counted the subscription by then) and the query's own subscription taken out.
    func proxySubscribers(overlapping literal: String) throws -> [(prefix: String, count: UInt64)]? {
        let own = "sys/health/\(Self.proxyName)/"
        let overlaps = { (prefix: String) in prefix.hasPrefix(literal) || literal.hasPrefix(prefix) }
        let wanted = overlaps(own) ? 2 : 1
        var reports = 0
        var counts: [(prefix: String, count: UInt64)]?
        _ = try self.listen([try TopicPattern(own)], durationMs: 1250 * (wanted + 1)) { delivery, subscriber in
            guard let report = subscriber.decode(delivery, as: Health.self), let subscribers = report.subscribers
            else { return true }
            reports += 1
            counts = subscribers.map { (prefix: $0.0, count: $0.1) }
            return reports < wanted
        }
        guard reports == wanted, let counts else { return nil }
        return counts.compactMap { entry in
            let count = entry.prefix == own ? entry.count - min(entry.count, 1) : entry.count
            return overlaps(entry.prefix) && count > 0 ? (entry.prefix, count) : nil
        }
    }

    /// The service name the proxy reports its health under.
    static let proxyName = "bus-proxy"

    /// `schema`: the known ids (no argument), or one schema's JSON Schema and its first example.
    func schema(id: String?) throws {
        let major = try self.options.int("major") ?? 1
        try self.options.finish(maximumPositionals: 2)
        let store = try Self.schemaStore()
        guard let id else {
            let width = store.ids.map(\.count).max() ?? 0
            for known in store.ids {
                let topic = store.topicTemplate(known).map { "  \($0)" } ?? ""
                let padding = String(repeating: " ", count: width - known.count)
                Log.out(
                    "\(known)\(padding)  v\(store.majors(of: known).map(String.init).joined(separator: ",v"))\(topic)")
            }
            return
        }
        try store.requireKnown(id, major: major)
        Log.out(try store.text(id, major: major).trimmingCharacters(in: .whitespacesAndNewlines))
        if let example = try store.examples(of: id).first {
            Log.out("\n# example (\(example.name)):")
            Log.out(example.value.json)
        }
    }
}
