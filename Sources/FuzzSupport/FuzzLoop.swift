/// What a run of one target saw.
public struct FuzzReport: Sendable {
    public var target: String
    public var inputs = 0
    /// Inputs the decoder accepted.
    public var accepted = 0
    /// Inputs the decoder rejected, by the error code it gave.
    public var rejected: [String: Int] = [:]
    /// The slowest input: its index and how long it took.
    public var slowestIndex = 0
    public var slowestNs: Int64 = 0
    public var elapsedNs: Int64 = 0

    public init(target: String) {
        self.target = target
    }

    /// Inputs per second over the whole run.
    public var inputsPerSecond: Double {
        self.elapsedNs > 0 ? Double(self.inputs) * 1e9 / Double(self.elapsedNs) : 0
    }
}

/// The seeded, deterministic mutation loop: input `index` of a run is always the same bytes, so a
/// finding is reproduced from the target, the seed and the index alone.
public enum FuzzLoop {
    /// Feeds inputs `range` of `harness`'s mutator to its decoder, the seeds first.
    ///
    /// - Parameters:
    ///   - inputGuard: sees every input before it runs (crash capture and hang watchdog); nil in tests.
    public static func run(
        _ harness: FuzzTarget.Harness, target: String, seed: UInt64, count: Int, inputGuard: InputGuard? = nil
    ) -> FuzzReport {
        var report = FuzzReport(target: target)
        let mutator = harness.mutator(seed: seed)
        let start = InputGuard.now()
        for index in 0..<count {
            let input = harness.prepare(index < harness.seeds.count ? harness.seeds[index] : mutator.input(index))
            let begun = InputGuard.now()
            inputGuard?.begin(input, index: index)
            let outcome = harness.run(input)
            inputGuard?.end()
            let took = InputGuard.now() - begun
            if took > report.slowestNs {
                report.slowestNs = took
                report.slowestIndex = index
            }
            if let outcome {
                report.rejected[outcome, default: 0] += 1
            } else {
                report.accepted += 1
            }
        }
        report.inputs = count
        report.elapsedNs = InputGuard.now() - start
        return report
    }

    /// Input `index` of a run, as the loop fed it (for reproducing a finding).
    public static func input(_ harness: FuzzTarget.Harness, seed: UInt64, index: Int) -> [UInt8] {
        harness.prepare(index < harness.seeds.count ? harness.seeds[index] : harness.mutator(seed: seed).input(index))
    }
}
