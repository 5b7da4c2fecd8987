import Testing

@testable import FaultInjection

/// The soak's growth rule: a service's last minute (median) may hold at most 1.1 × what its first
/// minute held, in memory and in descriptors; a drop passes.
@Suite struct SoakReportTests {
    static func report(rss: [Int], descriptors: [Int]) -> SoakReport {
        var report = SoakReport(services: ["svc"])
        report.durationMs = 600_000
        // Five samples in the first minute, five in the last.
        let times = [0, 10_000, 20_000, 30_000, 40_000, 550_000, 560_000, 570_000, 580_000, 590_000]
        for (index, atMs) in times.enumerated() {
            report.samples.append(
                ("svc", SoakDrill.Sample(atMs: atMs, pid: 1, rssKiB: rss[index], descriptors: descriptors[index])))
        }
        return report
    }

    @Test func aDropInDescriptorsPasses() {
        let report = Self.report(
            rss: Array(repeating: 1000, count: 10), descriptors: [15, 15, 15, 15, 15, 13, 13, 13, 13, 13])
        #expect(report.isFlat)
    }

    @Test func growthPastTenPercentFails() {
        let report = Self.report(
            rss: [1000, 1000, 1000, 1000, 1000, 1120, 1120, 1120, 1120, 1120],
            descriptors: Array(repeating: 15, count: 10))
        #expect(!report.isFlat)
    }

    @Test func oneSamplesTransientSocketDoesNotDecide() {
        let report = Self.report(
            rss: Array(repeating: 1000, count: 10), descriptors: [15, 15, 15, 15, 15, 15, 19, 15, 15, 15])
        #expect(report.isFlat)
    }
}
