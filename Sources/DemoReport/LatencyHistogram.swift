import Foundation

/// One-way bus latencies (receive wall clock minus the publisher's wall stamp) in log-scale buckets.
public struct LatencyHistogram: Sendable, Equatable {
    /// A bucket `[lowerUs, upperUs)` and how many latencies fell in it.
    public struct Bucket: Sendable, Equatable {
        public var lowerUs: Double
        public var upperUs: Double
        public var count: Int
    }

    /// Buckets per decade of microseconds.
    public static let bucketsPerDecade = 4

    public private(set) var buckets: [Bucket] = []
    public private(set) var count = 0
    /// Latencies below zero (receiver clock behind the publisher's), counted in the first bucket.
    public private(set) var negativeCount = 0
    public private(set) var p50Us = 0.0
    public private(set) var p99Us = 0.0
    public private(set) var p999Us = 0.0
    public private(set) var maxUs = 0.0

    /// Buckets `latenciesUs`, from the decade holding the smallest to the one holding the largest.
    public init(latenciesUs: [Double]) {
        guard !latenciesUs.isEmpty else { return }
        let sorted = latenciesUs.map { max($0, 0) }.sorted()
        self.count = sorted.count
        self.negativeCount = latenciesUs.count { $0 < 0 }
        self.p50Us = Self.percentile(sorted, 0.5)
        self.p99Us = Self.percentile(sorted, 0.99)
        self.p999Us = Self.percentile(sorted, 0.999)
        self.maxUs = sorted[sorted.count - 1]
        let perDecade = Double(Self.bucketsPerDecade)
        let first = Int((Self.log10(max(sorted[0], 1)) * perDecade).rounded(.down))
        let last = max(first, Int((Self.log10(max(self.maxUs, 1)) * perDecade).rounded(.down)))
        self.buckets = (first...last).map { index in
            Bucket(
                lowerUs: Self.pow10(Double(index) / perDecade), upperUs: Self.pow10(Double(index + 1) / perDecade),
                count: 0)
        }
        for latency in sorted {
            let index = Int((Self.log10(max(latency, 1)) * perDecade).rounded(.down)) - first
            self.buckets[min(max(index, 0), self.buckets.count - 1)].count += 1
        }
    }

    /// The nearest-rank percentile of an ascending list.
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    static func log10(_ value: Double) -> Double { Foundation.log10(value) }
    static func pow10(_ exponent: Double) -> Double { pow(10, exponent) }
}
