/// When one touch frame was sent, when the recognizer published a gesture event it caused, and
/// when the flood received that event (CLOCK_MONOTONIC nanoseconds, one clock for all three).
///
/// `bus-flood touch --out DIR` writes them as `frames.csv`, so that a slow frame can be set
/// against what else the machine ran at that moment (`benchmarks/pipeline/tail.py`).
public struct FrameTiming: Sendable, Equatable {
    /// The frame's send time, as its gesture event carries it (`t_ms`).
    public var sentNs: UInt64
    /// The gesture event's envelope stamp (`mono`): when the recognizer published it.
    public var publishedNs: UInt64
    public var receivedNs: UInt64

    /// From the frame's send to its event's arrival, in microseconds.
    public var endToEndUs: Double { (Double(self.receivedNs) - Double(self.sentNs)) / 1e3 }

    /// The CSV header of ``csv(_:)``.
    public static let csvHeader = "sent_ns,published_ns,received_ns"

    /// `timings` as CSV, a header line and one line each.
    public static func csv(_ timings: [FrameTiming]) -> String {
        var text = Self.csvHeader + "\n"
        text.reserveCapacity(timings.count * 60 + text.utf8.count)
        for timing in timings { text += "\(timing.sentNs),\(timing.publishedNs),\(timing.receivedNs)\n" }
        return text
    }
}

extension FrameTiming {
    /// The timing of a gesture event whose `t_ms` says its frame was sent at `sentMs`, if that is
    /// a frame of this flood: sent at or after `startNs` and not after the event arrived. Anything
    /// else (another source's event, an impossible or non-finite `t_ms` from the bus) is not one.
    public init?(sentMs: Double, publishedNs: UInt64, receivedNs: UInt64, startNs: UInt64) {
        let sentNs = (sentMs * 1e6).rounded()
        guard sentNs >= Double(startNs), sentNs <= Double(receivedNs) else { return nil }
        self.init(sentNs: min(UInt64(sentNs), receivedNs), publishedNs: publishedNs, receivedNs: receivedNs)
    }
}
