import BusSchema
import InputService
import MessageFixtures
import Testing

@Suite struct FramePacerTests {
    static func frames(_ times: [Int64]) -> [TouchFrame] {
        times.enumerated().map { index, tNs in
            TouchFrame.frame("d0", UInt64(index + 1), tNs: tNs, contacts: [])
        }
    }

    @Test func recordedPaceDueTimesComeFromOneAnchorSoLatenessNeverDrifts() {
        var pacer = FramePacer(frames: Self.frames([5_000, 10_005_000, 20_005_000]), pace: .recorded)
        #expect(pacer.take(dueBy: 1_000, limit: 10).map(\.tNs) == [5_000])
        #expect(pacer.nextDueNs(now: 1_000) == 10_001_000)
        // Taken 3 ms late: the third frame is still due 20 ms after the anchor, not 20 ms after this.
        #expect(pacer.take(dueBy: 13_001_000, limit: 10).map(\.tNs) == [10_005_000])
        #expect(pacer.nextDueNs(now: 13_001_000) == 20_001_000)
        #expect(pacer.take(dueBy: 20_000_999, limit: 10).isEmpty)
        #expect(pacer.take(dueBy: 20_001_000, limit: 10).count == 1)
        #expect(pacer.isFinished && pacer.nextDueNs(now: 0) == nil)
    }

    @Test func maxPaceTakesEverythingInBoundedBatches() {
        var pacer = FramePacer(frames: Self.frames(Array(0..<10).map { $0 * 1_000_000_000 }), pace: .max)
        #expect(pacer.take(dueBy: 0, limit: 4).count == 4)
        #expect(pacer.nextDueNs(now: 7) == 7)
        #expect(pacer.take(dueBy: 0, limit: 100).count == 6)
        #expect(pacer.isFinished)
    }

    @Test func loopingShiftsEachRepetitionPastTheLastWithAGap() {
        let looped = Array(FramePacer.looping(Self.frames([0, 100]), gapNs: 50).prefix(6)).map(\.tNs)
        #expect(looped == [0, 100, 150, 250, 300, 400])
    }
}
