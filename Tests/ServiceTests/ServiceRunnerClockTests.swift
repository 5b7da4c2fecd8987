import Bus
import BusSchema
import BusTestSupport
import ServiceSupport
import Testing

/// The service loop on a loopback bus with a clock the test moves: timers follow that clock only.
@Suite struct ServiceRunnerClockTests {
    @Test func timersFireWhenTheServiceClockReachesThem_neverEarly_andHealthFollowsTheSameClock() throws {
        let bus = try LoopbackBus()
        defer { try? bus.stop() }
        let health = try bus.subscriber(["sys/health/clocked/"])
        let clock = ManualClock()
        let runner = try ServiceRunner(
            name: "clocked", config: bus.config, signals: SignalWatcher(signals: []), context: bus.context,
            clock: clock)
        var fired: [UInt64] = []
        runner.at(deadlineNs: clock.nowNs + 50_000_000) { fired.append(clock.nowNs) }
        try runner.start()
        // The health report `start` sends.
        #expect(try receive(health, count: 1).count == 1)

        func turns() throws {
            for _ in 0..<20 { _ = try runner.turn(timeoutMs: 1) }
        }
        clock.advance(ms: 49)
        try turns()
        #expect(fired.isEmpty)
        clock.advance(ms: 1)
        try turns()
        #expect(fired == [clock.nowNs])

        // Health every 1000 ms of the service's clock: none at 999 ms, one at 1000.
        clock.advance(ms: 949)
        try turns()
        #expect(try health.receive(timeoutMs: 100) == nil)
        clock.advance(ms: 1)
        try turns()
        #expect(try receive(health, count: 1, seconds: 5).count == 1)

        runner.stop()
        #expect(try runner.turn() == false)
        try runner.finish()
    }
}
