import Bus

/// What the flood's own subscriber saw of one hop: messages, sequence gaps, payload bytes, latencies.
///
/// Loss comes from the sequence numbers of each (publisher, epoch, topic) stream, as the
/// ``Subscriber`` tracks them: a gap adds its missing messages, a late arrival takes one back.
public struct HopTally: Sendable {
    public private(set) var received: UInt64 = 0
    public private(set) var lost: UInt64 = 0
    public private(set) var duplicates: UInt64 = 0
    public private(set) var bytes: UInt64 = 0
    /// One-way latencies in microseconds.
    public private(set) var latenciesUs: [Double] = []

    /// - Parameter expectedLatencies: how many latencies to make room for at once, so that a flood's
    ///   tally does not copy its growing array (half a megabyte at 10 k/s for 6 s) while it measures.
    public init(expectedLatencies: Int = 0) {
        self.latenciesUs.reserveCapacity(expectedLatencies)
    }

    /// Counts one delivery with a payload of `size` bytes whose latency was `latencyNs`, if known.
    public mutating func record(_ outcome: SequenceTracker.Outcome, size: Int, latencyNs: Int64?) {
        switch outcome {
        case .first, .inOrder, .resync: break
        case .gap(let missing), .newEpoch(let missing): self.lost += missing
        case .reorder: self.lost -= 1
        case .duplicate:
            self.duplicates += 1
            return
        }
        self.received += 1
        self.bytes += UInt64(size)
        if let latencyNs { self.latenciesUs.append(Double(latencyNs) / 1e3) }
    }

    /// The mean payload size of a message on this hop, 0 before any.
    public var meanBytes: Double { self.received == 0 ? 0 : Double(self.bytes) / Double(self.received) }
}
