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
            _ = group.handle(.healthReceived(service: 0, nowMs: now))
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

    @Test func crashLoop_tripsTheIntensityCapAndStopsTheGroupInReverseOrder() {
        var group = Self.startedGroup()
        var now: Int64 = 1000
        var pid: Int32 = 102
        var effects: [Supervision.Effect] = []
        for restart in 0..<6 {
            effects = group.handle(.exited(pid: pid, status: .code(3), nowMs: now))
            if restart == 5 { break }
            guard case .backingOff(let until) = group.records[2].state else {
                Issue.record("\(effects)")
                return
            }
            now = until
            _ = group.handle(.timeElapsed(nowMs: now))
            pid += 10
            _ = group.handle(.spawned(service: 2, pid: pid, nowMs: now))
        }
        #expect(
            effects.contains {
                if case .log(let line) = $0 { line.contains("restart intensity exceeded") } else { false }
            })
        // input-source is dead; memo-store goes next, then the proxy.
        #expect(Self.signals(effects) == [101 * 100 + 15])
        effects = group.handle(.exited(pid: 101, status: .code(0), nowMs: now + 10))
        #expect(Self.signals(effects) == [100 * 100 + 15])
        effects = group.handle(.exited(pid: 100, status: .code(0), nowMs: now + 20))
        #expect(
            effects.contains { if case .finished(let failure?) = $0 { failure.contains("intensity") } else { false } })
        #expect(group.isFinished)
    }

    @Test func permanentFailure_isNotRetried() {
        var group = Self.startedGroup()
        let effects = group.handle(.exited(pid: 101, status: .code(78), nowMs: 500))
        #expect(Self.spawns(effects).isEmpty)
        #expect(group.records[1].state == .failed(reason: "exit code 78 means a permanent failure"))
        #expect(Self.signals(effects) == [102 * 100 + 15])
    }

    @Test func watchdog_killsAServiceWhoseHealthStopsThenRestartsIt() {
        var group = Self.startedGroup()
        _ = group.handle(.healthReceived(service: 0, nowMs: 1000))
        _ = group.handle(.healthReceived(service: 1, nowMs: 1000))
        _ = group.handle(.healthReceived(service: 2, nowMs: 1000))
        _ = group.handle(.healthReceived(service: 0, nowMs: 3500))
        _ = group.handle(.healthReceived(service: 2, nowMs: 3500))
        let effects = group.handle(.timeElapsed(nowMs: 4000))
        #expect(Self.signals(effects) == [101 * 100 + 9])
        let after = group.handle(.exited(pid: 101, status: .signal(9), nowMs: 4010))
        #expect(after.contains { if case .log(let line) = $0 { line.contains("after no health") } else { false } })
        #expect(group.records[1].state == .backingOff(untilMs: 4510))
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
