import BusSchema
import DemoReport

/// The count of one hop: what went in, what came out, what was counted as lost on the way.
public struct HopResult: Sendable {
    /// Where the messages went, e.g. `bus-flood → gesture-recognizer (touch/)`.
    public var hop: String
    /// Who counted the far end: `bus-flood` (its own subscriber) or `health of <service>`.
    public var countedBy: String
    public var sent: UInt64
    public var delivered: UInt64
    /// Counted from sequence gaps.
    public var lost: UInt64
    /// One-way latency on this hop, where the far end is the flood's own subscriber.
    public var latency: LatencyHistogram?
    /// Mean payload bytes per message, where the flood saw them.
    public var meanBytes: Double?

    /// Sent − delivered − lost: messages that vanished without a gap to show for it (must be 0).
    public var unaccounted: Int64 { Int64(self.sent) - Int64(self.delivered) - Int64(self.lost) }

    var value: Value {
        var map: ValueMap = [
            "hop": .string(self.hop), "counted_by": .string(self.countedBy), "sent": Value(self.sent),
            "delivered": Value(self.delivered), "lost": Value(self.lost), "unaccounted": .int(self.unaccounted),
        ]
        if let bytes = self.meanBytes { map["mean_payload_bytes"] = .double(bytes.rounded()) }
        if let latency = self.latency { map = map.merging(LatencyFields.value(latency)) }
        return .map(map)
    }
}

/// The result of one flood: the contract's keys (`sent`, `delivered`, `lost`, `unaccounted`,
/// `rate_per_s`, `p50_us`, `p99_us`, `p999_us`, `max_us`) for its main hop, then every hop.
public struct FloodResult: Sendable {
    public var mode: String
    /// The hop the top-level counts describe.
    public var main: HopResult
    /// The latency the top-level percentiles describe, and what it measures.
    public var latency: LatencyHistogram
    public var latencyPath: String
    public var hops: [HopResult]
    /// Seconds from the first message's deadline to the last message sent.
    public var seconds: Double
    public var targetRate: Double
    /// Mode-specific numbers (devices, gestures, component updates, …), in this order.
    public var details: ValueMap = [:]
    /// Each frame's times on its way (touch floods; written as `frames.csv`, not in the JSON).
    public var frames: [FrameTiming] = []
    /// CPU time the hypervisor took from the machine while the flood ran (``StolenTime``); nil
    /// where the machine does not say.
    public var stolenMs: Double?

    /// Messages delivered on the main hop per second of sending.
    public var ratePerSecond: Double { self.seconds > 0 ? Double(self.main.delivered) / self.seconds : 0 }

    /// Messages sent per second of sending.
    public var sentPerSecond: Double { self.seconds > 0 ? Double(self.main.sent) / self.seconds : 0 }

    /// Whether nothing was lost or unaccounted on any hop and the sender kept to its rate
    /// (at least 97 % of it: a sender that cannot keep up has found a limit, not a clean rate).
    public var isClean: Bool {
        let keptUp = self.sentPerSecond >= 0.97 * self.targetRate
        return keptUp && self.main.sent > 0 && self.hops.allSatisfy { $0.lost == 0 && $0.unaccounted == 0 }
    }

    /// Why the flood is not clean, one reason per hop or limit at fault; empty when it is.
    public var problems: [String] {
        var problems: [String] = []
        if self.main.sent == 0 { problems.append("nothing was sent") }
        if self.main.sent > 0 && self.sentPerSecond < 0.97 * self.targetRate {
            problems.append(
                "the sender kept up only \(Int(self.sentPerSecond.rounded()))/s of \(Int(self.targetRate.rounded()))/s")
        }
        for hop in self.hops {
            if hop.lost > 0 { problems.append("\(hop.lost) lost on \(hop.hop)") }
            if hop.unaccounted != 0 {
                problems.append("\(hop.unaccounted) unaccounted on \(hop.hop) [\(hop.countedBy)]")
            }
            if hop.sent > 0 && hop.delivered == 0 && hop.lost == 0 {
                problems.append("nothing arrived on \(hop.hop): is that service running and on the same scene?")
            }
        }
        return problems
    }

    /// The JSON object `--json` prints.
    public var value: Value {
        var map: ValueMap = [
            "mode": .string(self.mode), "sent": Value(self.main.sent), "delivered": Value(self.main.delivered),
            "lost": Value(self.main.lost), "unaccounted": .int(self.main.unaccounted),
            "rate_per_s": .double(self.ratePerSecond.rounded()), "target_rate_per_s": .double(self.targetRate),
            "sent_per_s": .double(self.sentPerSecond.rounded()),
            "seconds": .double((self.seconds * 1000).rounded() / 1000),
        ]
        map = map.merging(LatencyFields.value(self.latency))
        map["latency_path"] = .string(self.latencyPath)
        map["main_hop"] = .string(self.main.hop)
        map = map.merging(self.details)
        if let stolen = self.stolenMs { map["stolen_ms"] = .double(stolen.rounded()) }
        map["hops"] = .array(self.hops.map(\.value))
        return .map(map)
    }
}

/// The percentile keys of a latency histogram, in whole microseconds.
enum LatencyFields {
    static func value(_ latency: LatencyHistogram) -> ValueMap {
        [
            "samples": Value(UInt64(latency.count)), "p50_us": .double(latency.p50Us.rounded()),
            "p99_us": .double(latency.p99Us.rounded()), "p999_us": .double(latency.p999Us.rounded()),
            "max_us": .double(latency.maxUs.rounded()),
        ]
    }
}

extension ValueMap {
    /// This map with the entries of `other` added (or replaced), keeping insertion order.
    func merging(_ other: ValueMap) -> ValueMap {
        var result = self
        for (key, value) in other { result[key] = value }
        return result
    }
}
