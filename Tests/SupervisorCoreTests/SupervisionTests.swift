import SupervisorCore
import Testing

@Suite struct SupervisionTests {
    static let services = [
        ServiceSpec(name: "bus-proxy", command: ["bus-proxy"]),
        ServiceSpec(name: "memo-store", command: ["memo-store"]),
        ServiceSpec(name: "input-source", command: ["input-source"]),
    ]

    static func policy(jitter: Double = 0) -> SupervisionPolicy {
        var policy = SupervisionPolicy()
        policy.jitter = jitter
        return policy
    }

    /// Starts every service: each is spawned, gets a pid (100 + index) and prints ready.
    static func startedGroup(policy: SupervisionPolicy = policy()) -> Supervision {
        var group = Supervision(services: services, policy: policy, seed: 1)
        _ = group.handle(.startRequested(nowMs: 0))
        for index in services.indices {
            _ = group.handle(.spawned(service: index, pid: Int32(100 + index), nowMs: 0))
            _ = group.handle(.readyPrinted(service: index, nowMs: 0))
        }
        return group
    }

    static func spawns(_ effects: [Supervision.Effect]) -> [Int] {
        effects.compactMap { if case .spawn(let service) = $0 { return service } else { return nil } }
    }

    static func signals(_ effects: [Supervision.Effect]) -> [Int32] {
        effects.compactMap {
            if case .signal(_, let pid, let signal) = $0 { return pid * 100 + signal } else { return nil }
        }
    }

    @Test func startUp_startsTheNextServiceOnlyWhenThePreviousIsReady() {
        var group = Supervision(services: Self.services, policy: Self.policy(), seed: 1)
        #expect(Self.spawns(group.handle(.startRequested(nowMs: 0))) == [0])
        #expect(Self.spawns(group.handle(.spawned(service: 0, pid: 100, nowMs: 5))) == [])
        #expect(Self.spawns(group.handle(.timeElapsed(nowMs: 2000))) == [])
        #expect(Self.spawns(group.handle(.readyPrinted(service: 0, nowMs: 2100))) == [1])
        _ = group.handle(.spawned(service: 1, pid: 101, nowMs: 2100))
        #expect(Self.spawns(group.handle(.readyPrinted(service: 1, nowMs: 2200))) == [2])
    }

    @Test func crash_restartsWithBackoffDoublingFromHalfASecondToThirtySeconds() {
        var group = Self.startedGroup()
        var delays: [Int64] = []
        var now: Int64 = 100_000
        var policy = Self.policy()
        policy.maximumRestarts = 100
        group = Self.startedGroup(policy: policy)
        for attempt in 0..<8 {
            let pid = Int32(100 + 1 + attempt * 10)
            if attempt > 0 { _ = group.handle(.spawned(service: 1, pid: pid, nowMs: now)) }
            let effects = group.handle(.exited(pid: attempt == 0 ? 101 : pid, status: .signal(9), nowMs: now))
            guard case .backingOff(let until) = group.records[1].state else {
                Issue.record("not backing off: \(effects)")
                return
            }
            delays.append(until - now)
            now = until
            #expect(Self.spawns(group.handle(.timeElapsed(nowMs: now))) == [1])
            now += 10
        }
        #expect(delays == [500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000])
        #expect(group.records[1].restarts == 8)
    }

    @Test func jitter_onlyShortensADelay_soTheFirstRestartIsWithinHalfASecond() {
        for seed in 0..<50 as Range<UInt64> {
            var group = Supervision(services: Self.services, policy: Self.policy(jitter: 0.2), seed: seed)
            _ = group.handle(.startRequested(nowMs: 0))
            _ = group.handle(.spawned(service: 0, pid: 100, nowMs: 0))
            _ = group.handle(.readyPrinted(service: 0, nowMs: 0))
            _ = group.handle(.exited(pid: 100, status: .code(1), nowMs: 10))
            guard case .backingOff(let until) = group.records[0].state else {
                Issue.record("no backoff")
                return
            }
            #expect((400...500).contains(until - 10), "seed \(seed): \(until - 10)")
        }
    }

    @Test func stableService_startsItsBackoffFromTheBeginningAgain() {
        var group = Self.startedGroup()
        _ = group.handle(.exited(pid: 100, status: .code(1), nowMs: 1000))
        _ = group.handle(.timeElapsed(nowMs: 1500))
        _ = group.handle(.spawned(service: 0, pid: 200, nowMs: 1500))
        _ = group.handle(.readyPrinted(service: 0, nowMs: 1600))
        // It ran for more than a minute, healthy, before the next crash.
        for now in stride(from: Int64(2000), to: 70_000, by: 1000) {
            _ = group.handle(.heartbeat(service: 0, epoch: 7, loopTurns: UInt64(now), nowMs: now))
        }
        _ = group.handle(.exited(pid: 200, status: .code(1), nowMs: 70_000))
        #expect(group.records[0].state == .backingOff(untilMs: 70_500))
    }

    @Test func recovery_isTimedFromTheUnexpectedExitToTheNextReady() {
        var group = Self.startedGroup()
        #expect(group.records[1].lastRecoveryMs == nil)
        _ = group.handle(.exited(pid: 101, status: .signal(9), nowMs: 1000))
        _ = group.handle(.timeElapsed(nowMs: 1500))
        _ = group.handle(.spawned(service: 1, pid: 201, nowMs: 1500))
        #expect(group.records[1].lastRecoveryMs == nil, "not ready yet")
        _ = group.handle(.readyPrinted(service: 1, nowMs: 1730))
        #expect(group.records[1].lastRecoveryMs == 730)
    }

    /// Crashes service 2 (input-source) until it exceeds the intensity cap; returns the last effects.
    static func crashLoop(_ group: inout Supervision, service: Int = 2, crashes: Int = 6, from start: Int64 = 1000)
        -> [Supervision.Effect]
    {
        var now = start
        var pid = Int32(100 + service)
        var effects: [Supervision.Effect] = []
        for crash in 0..<crashes {
            effects = group.handle(.exited(pid: pid, status: .code(3), nowMs: now))
            if crash == crashes - 1 { break }
            guard case .backingOff(let until) = group.records[service].state else { return effects }
            now = until
            _ = group.handle(.timeElapsed(nowMs: now))
            pid += 10
            _ = group.handle(.spawned(service: service, pid: pid, nowMs: now))
            _ = group.handle(.readyPrinted(service: service, nowMs: now))
        }
        return effects
    }

    static func logs(_ effects: [Supervision.Effect]) -> [String] {
        effects.compactMap { if case .log(let line, _) = $0 { line } else { nil } }
    }

    @Test func crashLoop_marksOnlyThatServiceFailed_andTheProxyAndMemoStoreKeepRunning() {
        var group = Self.startedGroup()
        let effects = Self.crashLoop(&group)
        #expect(
            group.records[2].state
                == .failed(reason: "restart intensity exceeded: 6 restarts within 60 s (last: exit code 3)"))
        #expect(Self.logs(effects).contains { $0.contains("marked failed") && $0.contains("keep running") })
        #expect(Self.signals(effects).isEmpty, "nothing else is stopped")
        #expect(group.records[0].state == .running(pid: 100, sinceMs: 0))
        #expect(group.records[1].state == .running(pid: 101, sinceMs: 0))
        #expect(!group.isFinished)
        #expect(!effects.contains { if case .finished = $0 { true } else { false } })
    }

    @Test func intensity_isCountedPerService_soCrashesSpreadOverServicesFailNone() {
        var policy = Self.policy()
        policy.maximumRestarts = 3
        var group = Self.startedGroup(policy: policy)
        // Three crashes each (nine in the group) stay within each service's own allowance.
        for service in 0..<3 { _ = Self.crashLoop(&group, service: service, crashes: 3, from: 1000 + Int64(service)) }
        for record in group.records {
            if case .failed = record.state { Issue.record("a service failed: \(group.records)") }
        }
        #expect(group.records.map(\.restarts) == [3, 3, 3])
    }

    @Test func theGroupGivesUpOnlyWhenEveryServiceHasFailed() {
        let services = [ServiceSpec(name: "crasher", command: ["crasher"])]
        var group = Supervision(services: services, policy: Self.policy(), seed: 1)
        _ = group.handle(.startRequested(nowMs: 0))
        _ = group.handle(.spawned(service: 0, pid: 100, nowMs: 0))
        _ = group.handle(.readyPrinted(service: 0, nowMs: 0))
        let effects = Self.crashLoop(&group, service: 0)
        #expect(group.isFinished)
        #expect(
            effects.contains {
                if case .finished(let failure?) = $0 {
                    failure.contains("crasher restart intensity exceeded")
                } else {
                    false
                }
            })
    }

    @Test func permanentFailure_isNotRetried_andStopsNothingElse() {
        var group = Self.startedGroup()
        let effects = group.handle(.exited(pid: 101, status: .code(78), nowMs: 500))
        #expect(Self.spawns(effects).isEmpty)
        #expect(group.records[1].state == .failed(reason: "failed permanently (exit code 78): not retried"))
        #expect(Self.signals(effects).isEmpty)
        #expect(group.isUp)
    }

    @Test func startUp_goesOnPastAServiceThatCannotStart() {
        var group = Supervision(services: Self.services, policy: Self.policy(), seed: 1)
        _ = group.handle(.startRequested(nowMs: 0))
        _ = group.handle(.spawned(service: 0, pid: 100, nowMs: 0))
        _ = group.handle(.readyPrinted(service: 0, nowMs: 0))
        #expect(Self.spawns(group.handle(.spawnFailed(service: 1, reason: "ENOENT", nowMs: 1))) == [2])
        _ = group.handle(.spawned(service: 2, pid: 102, nowMs: 2))
        let effects = group.handle(.readyPrinted(service: 2, nowMs: 3))
        #expect(group.isUp)
        #expect(Self.logs(effects).contains("start-up done, 1 failed"))
    }

    @Test func watchdog_killsAServiceWhoseHeartbeatStopsThenRestartsIt() {
        var group = Self.startedGroup()
        for service in 0..<3 { _ = group.handle(.heartbeat(service: service, epoch: 1, loopTurns: 1, nowMs: 1000)) }
        _ = group.handle(.heartbeat(service: 0, epoch: 1, loopTurns: 2, nowMs: 3500))
        _ = group.handle(.heartbeat(service: 2, epoch: 1, loopTurns: 2, nowMs: 3500))
        let effects = group.handle(.timeElapsed(nowMs: 4000))
        #expect(Self.signals(effects) == [101 * 100 + 9])
        let after = group.handle(.exited(pid: 101, status: .signal(9), nowMs: 4010))
        #expect(Self.logs(after).contains { $0.contains("after no heartbeat for 3000 ms") })
        #expect(group.records[1].state == .backingOff(untilMs: 4510))
        #expect(group.records[1].epoch == nil, "the dead process's epoch is forgotten")
    }

    @Test func watchdog_killsAServiceThatBeatsButWhoseLoopIsStuck() {
        var group = Self.startedGroup()
        var killed: [Int32] = []
        // Service 0 beats on time with a loop that turns; service 1 beats with a frozen count.
        for now in stride(from: Int64(500), through: 31_000, by: 500) {
            _ = group.handle(.heartbeat(service: 0, epoch: 1, loopTurns: UInt64(now), nowMs: now))
            _ = group.handle(.heartbeat(service: 1, epoch: 2, loopTurns: 42, nowMs: now))
            _ = group.handle(.heartbeat(service: 2, epoch: 3, loopTurns: nil, nowMs: now))
            killed += Self.signals(group.handle(.timeElapsed(nowMs: now)))
        }
        #expect(killed == [101 * 100 + 9], "only the stuck loop; a service that counts no turns is judged by its beat")
        #expect(group.records[1].epoch == 2)
    }

    @Test func heartbeatsFromAProcessThatIsNotRunningAreIgnored() {
        var group = Self.startedGroup()
        _ = group.handle(.exited(pid: 101, status: .signal(9), nowMs: 10))
        _ = group.handle(.heartbeat(service: 1, epoch: 9, loopTurns: 1, nowMs: 20))
        #expect(group.records[1].epoch == nil)
    }

    static func replies(_ effects: [Supervision.Effect]) -> [String] {
        effects.compactMap { if case .reply(_, let message) = $0 { message } else { nil } }
    }

    @Test func control_restartStopsThatServiceAndStartsItAgain_countingNoCrash() {
        var group = Self.startedGroup()
        var effects = group.handle(.controlRequested(service: 1, command: .restart, nowMs: 100))
        #expect(Self.signals(effects) == [101 * 100 + 15])
        #expect(Self.replies(effects) == ["restarting memo-store"])
        effects = group.handle(.exited(pid: 101, status: .code(0), nowMs: 200))
        #expect(Self.spawns(effects) == [1])
        _ = group.handle(.spawned(service: 1, pid: 201, nowMs: 210))
        _ = group.handle(.readyPrinted(service: 1, nowMs: 300))
        #expect(group.records[1].state == .running(pid: 201, sinceMs: 300))
        #expect(group.records[1].restarts == 0)
        #expect(group.records[0].state == .running(pid: 100, sinceMs: 0))
    }

    @Test func control_aStoppedServiceStaysStoppedUntilStarted() {
        var group = Self.startedGroup()
        _ = group.handle(.controlRequested(service: 2, command: .stop, nowMs: 100))
        #expect(Self.spawns(group.handle(.exited(pid: 102, status: .code(0), nowMs: 150))).isEmpty)
        #expect(group.records[2].state == .stopped)
        #expect(Self.spawns(group.handle(.timeElapsed(nowMs: 100_000))).isEmpty)
        #expect(group.isUp, "a held service does not end the group")
        let effects = group.handle(.controlRequested(service: 2, command: .start, nowMs: 100_001))
        #expect(Self.spawns(effects) == [2])
        #expect(Self.replies(effects) == ["starting input-source"])
    }

    @Test func control_startRevivesAFailedService() {
        var group = Self.startedGroup()
        _ = Self.crashLoop(&group)
        let effects = group.handle(.controlRequested(service: 2, command: .start, nowMs: 200_000))
        #expect(Self.spawns(effects) == [2])
        // Its intensity starts afresh: one crash now is a restart, not a failure.
        _ = group.handle(.spawned(service: 2, pid: 300, nowMs: 200_001))
        _ = group.handle(.readyPrinted(service: 2, nowMs: 200_002))
        _ = group.handle(.exited(pid: 300, status: .code(3), nowMs: 200_003))
        #expect(group.records[2].state == .backingOff(untilMs: 200_503))
    }

    @Test func control_isRefusedWhileTheGroupStartsOrStops() {
        var group = Supervision(services: Self.services, policy: Self.policy(), seed: 1)
        _ = group.handle(.startRequested(nowMs: 0))
        let effects = group.handle(.controlRequested(service: 0, command: .restart, nowMs: 1))
        #expect(
            effects.contains(.reply(ok: false, message: "the group is still starting up; restart bus-proxy refused")))
        #expect(Self.signals(effects).isEmpty)
    }

    @Test func startTimeout_killsAServiceThatNeverPrintsReady() {
        var group = Supervision(services: Self.services, policy: Self.policy(), seed: 1)
        _ = group.handle(.startRequested(nowMs: 0))
        _ = group.handle(.spawned(service: 0, pid: 100, nowMs: 0))
        #expect(Self.signals(group.handle(.timeElapsed(nowMs: 14_999))).isEmpty)
        #expect(Self.signals(group.handle(.timeElapsed(nowMs: 15_000))) == [100 * 100 + 9])
    }

    @Test func stop_sendsSigtermInReverseOrderThenSigkillAfterTheTimeout() {
        var group = Self.startedGroup()
        #expect(Self.signals(group.handle(.stopRequested(nowMs: 0))) == [102 * 100 + 15])
        #expect(Self.signals(group.handle(.timeElapsed(nowMs: 5000))) == [102 * 100 + 9])
        #expect(Self.signals(group.handle(.exited(pid: 102, status: .signal(9), nowMs: 5001))) == [101 * 100 + 15])
        #expect(Self.signals(group.handle(.exited(pid: 101, status: .code(0), nowMs: 5002))) == [100 * 100 + 15])
        let last = group.handle(.exited(pid: 100, status: .code(0), nowMs: 5003))
        #expect(last.contains(.finished(failure: nil)))
    }

    @Test func stop_whileBackingOffNeverRespawns() {
        var group = Self.startedGroup()
        _ = group.handle(.exited(pid: 102, status: .code(1), nowMs: 10))
        _ = group.handle(.stopRequested(nowMs: 20))
        #expect(group.records[2].state == .stopped)
        #expect(Self.spawns(group.handle(.timeElapsed(nowMs: 10_000))).isEmpty)
    }

    @Test func exitsOfUnknownPidsAreIgnored() {
        var group = Self.startedGroup()
        #expect(group.handle(.exited(pid: 999, status: .code(0), nowMs: 1)).isEmpty)
    }
}
