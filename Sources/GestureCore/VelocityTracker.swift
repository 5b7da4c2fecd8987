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
    public static let horizonNs: Int64 = 100_000_000
    public static let stoppedNs: Int64 = 40_000_000

    private var times: [Int64] = []
    private var xs: [Double] = []
    private var ys: [Double] = []

    public init() {
        self.times.reserveCapacity(Self.historySize)
        self.xs.reserveCapacity(Self.historySize)
        self.ys.reserveCapacity(Self.historySize)
    }

    /// Records a position at `tNs`; a pause of more than 40 ms since the last sample starts afresh.
    public mutating func add(tNs: Int64, x: Double, y: Double) {
        if let last = self.times.last, tNs - last > Self.stoppedNs { self.reset() }
        if let last = self.times.last, last == tNs {
            self.xs[self.xs.count - 1] = x
            self.ys[self.ys.count - 1] = y
            return
        }
        if self.times.count == Self.historySize {
            self.times.removeFirst()
            self.xs.removeFirst()
            self.ys.removeFirst()
        }
        self.times.append(tNs)
        self.xs.append(x)
        self.ys.append(y)
    }

    public mutating func reset() {
        self.times.removeAll(keepingCapacity: true)
        self.xs.removeAll(keepingCapacity: true)
        self.ys.removeAll(keepingCapacity: true)
    }

    /// The velocity in units per second as of `tNs` (normally the newest sample's or a lift's time).
    public func velocity(atNs tNs: Int64) -> (x: Double, y: Double) {
        guard let newest = self.times.last, tNs - newest <= Self.stoppedNs else { return (0, 0) }
        var first = self.times.count - 1
        while first > 0, newest - self.times[first - 1] <= Self.horizonNs,
            self.times[first] - self.times[first - 1] <= Self.stoppedNs
        {
            first -= 1
        }
        let count = self.times.count - first
        guard count >= 2 else { return (0, 0) }
        // Sums for the normal equations, t in seconds relative to the newest sample.
        var s = [Double](repeating: 0, count: 5)
        var sx = (0.0, 0.0, 0.0)
        var sy = (0.0, 0.0, 0.0)
        for index in first..<self.times.count {
            let t = Double(self.times[index] - newest) / 1e9
            let t2 = t * t
            s[0] += 1
            s[1] += t
            s[2] += t2
            s[3] += t2 * t
            s[4] += t2 * t2
            sx.0 += self.xs[index]
            sx.1 += self.xs[index] * t
            sx.2 += self.xs[index] * t2
            sy.0 += self.ys[index]
            sy.1 += self.ys[index] * t
            sy.2 += self.ys[index] * t2
        }
        if count == 2 {
            return (Self.linearSlope(s, sx), Self.linearSlope(s, sy))
        }
        return (
            Self.quadraticSlope(s, sx) ?? Self.linearSlope(s, sx), Self.quadraticSlope(s, sy) ?? Self.linearSlope(s, sy)
        )
    }

    /// Slope of the least-squares line.
    private static func linearSlope(_ s: [Double], _ v: (Double, Double, Double)) -> Double {
        let det = s[0] * s[2] - s[1] * s[1]
        guard det != 0 else { return 0 }
        return (s[0] * v.1 - s[1] * v.0) / det
    }

    /// `b1` of the least-squares quadratic (Cramer's rule on the 3×3 normal equations), or nil if singular.
    private static func quadraticSlope(_ s: [Double], _ v: (Double, Double, Double)) -> Double? {
        // | s0 s1 s2 |   | b0 |   | v0 |
        // | s1 s2 s3 | · | b1 | = | v1 |
        // | s2 s3 s4 |   | b2 |   | v2 |
        let det =
            s[0] * (s[2] * s[4] - s[3] * s[3]) - s[1] * (s[1] * s[4] - s[3] * s[2]) + s[2] * (s[1] * s[3] - s[2] * s[2])
        guard abs(det) > 1e-30 else { return nil }
        let detB1 =
            s[0] * (v.1 * s[4] - s[3] * v.2) - v.0 * (s[1] * s[4] - s[3] * s[2]) + s[2] * (s[1] * v.2 - v.1 * s[2])
        return detB1 / det
    }
}
