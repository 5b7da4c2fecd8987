import BusSchema

/// Estimates velocity from recent samples with a least-squares quadratic fit (LSQ2), as Android's
/// `VelocityTracker`, Chromium's and Flutter's do.
///
/// Keeps at most 20 samples; the fit uses the samples of the last 100 ms, walking back from the
/// newest and stopping at a gap of more than 40 ms (the pointer had stopped). Each axis is fitted
/// separately as `p(t) = b0 + b1·t + b2·t²` with `t` relative to the newest sample, and `b1` is the
/// velocity. With two samples the fit is linear; with one, or when the newest sample is more than
/// 40 ms older than the time asked about, the velocity is zero.
public struct VelocityTracker: Sendable, Hashable {
    public static let historySize = 20
    /// How far back the fit looks from the newest sample.
    public static let horizon = Duration.milliseconds(100)
    /// A gap longer than this between samples means the pointer had stopped.
    public static let stopped = Duration.milliseconds(40)
    // The fit's inner loop compares nanosecond counts: converting each sample's span to a
    // `Duration` (128-bit attoseconds) costs more than the rest of the loop.
    private static let horizonNs: Int64 = 100_000_000
    private static let stoppedNs: Int64 = 40_000_000

    private struct Sample: Sendable, Hashable {
        var at: SourceInstant
        var x: Double
        var y: Double
    }

    /// A ring of at most ``historySize`` samples; `newest` indexes the last one added.
    private var samples: [Sample] = []
    private var newest = -1

    public init() {}

    /// Records a position at `time`; a pause of more than ``stopped`` since the last sample
    /// starts afresh.
    public mutating func add(at time: SourceInstant, x: Double, y: Double) {
        if self.newest >= 0 {
            let last = self.samples[self.newest].at
            if time.nanoseconds &- last.nanoseconds > Self.stoppedNs {
                self.reset()
            } else if time == last {
                self.samples[self.newest] = Sample(at: time, x: x, y: y)
                return
            }
        }
        if self.samples.count < Self.historySize {
            if self.samples.isEmpty { self.samples.reserveCapacity(Self.historySize) }
            self.samples.append(Sample(at: time, x: x, y: y))
            self.newest = self.samples.count - 1
        } else {
            self.newest = (self.newest + 1) % Self.historySize
            self.samples[self.newest] = Sample(at: time, x: x, y: y)
        }
    }

    public mutating func reset() {
        // Guarded: removing nothing still calls the generic `replaceSubrange`.
        if !self.samples.isEmpty { self.samples.removeAll(keepingCapacity: true) }
        self.newest = -1
    }

    /// The velocity in units per second as of `time` (normally the newest sample's or a lift's time).
    public func velocity(at time: SourceInstant) -> (x: Double, y: Double) {
        guard self.newest >= 0 else { return (0, 0) }
        let newestTime = self.samples[self.newest].at.nanoseconds
        guard time.nanoseconds &- newestTime <= Self.stoppedNs else { return (0, 0) }
        // Sums for the normal equations, t in seconds relative to the newest sample, walking back
        // until a sample is older than the horizon or follows a pause.
        var (s0, s1, s2, s3, s4) = (0.0, 0.0, 0.0, 0.0, 0.0)
        var (x0, x1, x2, y0, y1, y2) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        self.samples.withUnsafeBufferPointer { samples in
            var index = self.newest
            var previousTime = newestTime
            for _ in 0..<samples.count {
                let sample = samples[index]
                let sampleTime = sample.at.nanoseconds
                if newestTime &- sampleTime > Self.horizonNs || previousTime &- sampleTime > Self.stoppedNs { break }
                previousTime = sampleTime
                let t = Double(sampleTime &- newestTime) / 1e9
                let t2 = t * t
                s0 += 1
                s1 += t
                s2 += t2
                s3 += t2 * t
                s4 += t2 * t2
                x0 += sample.x
                x1 += sample.x * t
                x2 += sample.x * t2
                y0 += sample.y
                y1 += sample.y * t
                y2 += sample.y * t2
                index = index == 0 ? samples.count - 1 : index - 1
            }
        }
        let s = (s0, s1, s2, s3, s4)
        guard s0 >= 2 else { return (0, 0) }
        if s0 == 2 { return (Self.linearSlope(s, x0, x1), Self.linearSlope(s, y0, y1)) }
        return (
            Self.quadraticSlope(s, x0, x1, x2) ?? Self.linearSlope(s, x0, x1),
            Self.quadraticSlope(s, y0, y1, y2) ?? Self.linearSlope(s, y0, y1)
        )
    }

    private typealias Sums = (Double, Double, Double, Double, Double)

    /// Slope of the least-squares line.
    private static func linearSlope(_ s: Sums, _ v0: Double, _ v1: Double) -> Double {
        let det = s.0 * s.2 - s.1 * s.1
        guard det != 0 else { return 0 }
        return (s.0 * v1 - s.1 * v0) / det
    }

    /// `b1` of the least-squares quadratic (Cramer's rule on the 3×3 normal equations), or nil if singular.
    private static func quadraticSlope(_ s: Sums, _ v0: Double, _ v1: Double, _ v2: Double) -> Double? {
        // | s0 s1 s2 |   | b0 |   | v0 |
        // | s1 s2 s3 | · | b1 | = | v1 |
        // | s2 s3 s4 |   | b2 |   | v2 |
        let det = s.0 * (s.2 * s.4 - s.3 * s.3) - s.1 * (s.1 * s.4 - s.3 * s.2) + s.2 * (s.1 * s.3 - s.2 * s.2)
        guard abs(det) > 1e-30 else { return nil }
        let detB1 = s.0 * (v1 * s.4 - s.3 * v2) - v0 * (s.1 * s.4 - s.3 * s.2) + s.2 * (s.1 * v2 - v1 * s.2)
        return detB1 / det
    }
}
