import Flood
import Testing

@Suite struct StolenTimeTests {
    @Test func stealIsTheEighthCountOfTheCpuLineInTicks() {
        let text = "cpu  6082107 55182 1438336 5039281 22813 0 8484 16559 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n"
        #expect(StolenTime.milliseconds(procStat: text, ticksPerSecond: 100) == 165_590)
        #expect(StolenTime.milliseconds(procStat: text, ticksPerSecond: 1000) == 16_559)
    }

    @Test func aFirstLineThatIsNotTheCpuLineOrHasNoStealSaysNothing() {
        #expect(StolenTime.milliseconds(procStat: "cpu0 1 2 3 4 5 6 7 8 9\n", ticksPerSecond: 100) == nil)
        #expect(StolenTime.milliseconds(procStat: "cpu  1 2 3 4 5 6 7\n", ticksPerSecond: 100) == nil)
        #expect(StolenTime.milliseconds(procStat: "cpu  1 2 3 4 5 6 7 x 9\n", ticksPerSecond: 100) == nil)
        #expect(StolenTime.milliseconds(procStat: "", ticksPerSecond: 100) == nil)
        #expect(StolenTime.milliseconds(procStat: "cpu  1 2 3 4 5 6 7 8 9\n", ticksPerSecond: 0) == nil)
    }

    @Test func thisMachineSaysHowMuchWasStolenSinceBoot() throws {
        let stolen = try #require(StolenTime.sinceBootMs())
        #expect(stolen >= 0)
    }
}
