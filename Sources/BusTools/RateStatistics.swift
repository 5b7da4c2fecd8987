/// What `bus-tap hz` reports: rate, interval spread, bandwidth, loss and latency.
public struct RateStatistics: Sendable {
    public private(set) var received: UInt64 = 0
    public private(set) var bytes: UInt64 = 0
    private var firstNs: UInt64?
    private var lastNs: UInt64?
    private var intervalCount: UInt64 = 0
    private var intervalMean = 0.0
    private var intervalM2 = 0.0
    private var intervalMin = UInt64.max
    private var intervalMax: UInt64 = 0
    private var latenciesNs: [UInt64] = []

    public init() {}

    /// Records one message of `size` bytes received at `receivedNs`, stamped at `stampedNs`
    /// (both CLOCK_MONOTONIC, so the difference is the one-way latency on one host).
    public mutating func record(size: Int, receivedNs: UInt64, stampedNs: UInt64) {
        self.received += 1
        self.bytes += UInt64(size)
        if let last = self.lastNs {
            let interval = receivedNs &- last
            self.intervalCount += 1
            // Welford's running variance: stable, and no list of intervals to keep.
            let delta = Double(interval) - self.intervalMean
            self.intervalMean += delta / Double(self.intervalCount)
            self.intervalM2 += delta * (Double(interval) - self.intervalMean)
            self.intervalMin = min(self.intervalMin, interval)
            self.intervalMax = max(self.intervalMax, interval)
        } else {
            self.firstNs = receivedNs
        }
        self.lastNs = receivedNs
        self.latenciesNs.append(receivedNs >= stampedNs ? receivedNs - stampedNs : 0)
    }

    /// Messages per second between the first and the last message.
    public var rate: Double {
        guard let first = self.firstNs, let last = self.lastNs, last > first else { return 0 }
        return Double(self.received - 1) * 1e9 / Double(last - first)
    }

    /// Bytes per second between the first and the last message.
    public var bandwidth: Double {
        guard let first = self.firstNs, let last = self.lastNs, last > first else { return 0 }
        return Double(self.bytes) * 1e9 / Double(last - first)
    }

    public var intervalStandardDeviationMs: Double {
        self.intervalCount > 1 ? (self.intervalM2 / Double(self.intervalCount - 1)).squareRoot() / 1e6 : 0
    }

    public var intervalMinMs: Double { self.intervalCount > 0 ? Double(self.intervalMin) / 1e6 : 0 }
    public var intervalMaxMs: Double { Double(self.intervalMax) / 1e6 }
    public var intervalMeanMs: Double { self.intervalMean / 1e6 }

    /// The latency below which `fraction` of messages arrived, in microseconds.
    public func latencyPercentileUs(_ fraction: Double) -> Double {
        guard !self.latenciesNs.isEmpty else { return 0 }
        let sorted = self.latenciesNs.sorted()
        let index = min(sorted.count - 1, Int((fraction * Double(sorted.count)).rounded(.up)) - 1)
        return Double(sorted[max(index, 0)]) / 1e3
    }
}
