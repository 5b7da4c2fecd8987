import BusTestSupport
import FaultInjection
import Foundation
import Testing

/// The fault drill (`benchmarks/faults/run` runs it in full) on the whole stack, shortened.
@Suite struct SupervisorAcceptanceTests {
    @Test func killingEachServiceDuringAFloodLosesNoAcknowledgedMemoAndTheSubscribersResync() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "uibus-drill-\(UUID().uuidString.prefix(8))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var plan = FaultPlan(
            root: ChildProcess.repositoryRoot, binDirectory: ChildProcess.binDirectory, directory: directory)
        plan.ratePerDevice = 100
        plan.memoRate = 5
        plan.renderArguments = ["--fps", "2"]
        plan.watchdogMs = 10_000
        plan.warmupMs = 1000
        plan.settleMs = 1000
        let drill = FaultDrill(plan: plan)
        drill.log = { print($0) }
        let report = try drill.run()
        print(report.json)

        for outcome in report.faults {
            let name = "\(outcome.fault.kind.rawValue) \(outcome.fault.service)"
            #expect(
                outcome.recoveryMs != nil, "\(name): never heard again; supervisor said:\n\(drill.supervisorOutput)")
            switch outcome.fault.kind {
            case .kill:
                #expect(outcome.restarts >= 1, "\(name) was not restarted")
                // Restarted after its backoff (0.5 s, shortened by at most 20 % jitter), not before.
                let recovery = try #require(outcome.supervisorRecoveryMs, "\(name): no restart time")
                #expect(recovery >= 400, "\(name) came back after \(recovery) ms, before its backoff")
            case .stop:
                #expect(outcome.restarts == 0, "\(name): a 1 s pause is below the watchdog and restarts nothing")
            }
        }
        let resynced = Dictionary(
            report.faults.filter { $0.fault.kind == .kill }.map { ($0.fault.service, Set($0.resyncedMs.keys)) },
            uniquingKeysWith: { $0.union($1) })
        #expect(resynced["memo-store"]?.isSuperset(of: ["board1", "render-worker"]) == true, "\(resynced)")
        #expect(resynced["component-host"]?.contains("board1") == true, "\(resynced)")
        #expect(resynced["render-worker"]?.contains("render-worker") == true, "\(resynced)")

        #expect(report.memo.acknowledged > 0)
        #expect(report.memo.unacknowledged == 0)
        #expect(report.memo.check.lost == 0, "acknowledged memos missing from the database")
        #expect(report.memo.check.appliedTwice == 0, "commands applied twice")
        #expect(report.memo.check.stored == report.memo.acknowledged)
        #expect(report.supervisorExit == 0, "\(drill.supervisorOutput)")
    }
}
