import Bus
import Flood
import Testing

/// What a hop's tally counts, and that measuring does not move its latency array.
@Suite struct HopTallyTests {
    @Test func gapsCountAsLostDuplicatesAsNeitherAndAReorderFillsAGap() {
        var tally = HopTally()
        tally.record(.first, size: 10, latencyNs: 1_000)
        tally.record(.gap(missing: 3), size: 20, latencyNs: nil)
        tally.record(.reorder, size: 30, latencyNs: 2_000)
        tally.record(.duplicate, size: 40, latencyNs: 5_000)
        #expect(tally.received == 3)
        #expect(tally.lost == 2)
        #expect(tally.duplicates == 1)
        #expect(tally.meanBytes == 20)
        #expect(tally.latenciesUs == [1, 2])
    }

    @Test func aTallyWithRoomForItsLatenciesNeverMovesThemWhileItMeasures() {
        var tally = HopTally(expectedLatencies: 5_000)
        let start = tally.latenciesUs.withUnsafeBufferPointer { $0.baseAddress }
        for index in 0..<5_000 { tally.record(.inOrder, size: 1, latencyNs: Int64(index)) }
        #expect(tally.latenciesUs.count == 5_000)
        #expect(tally.latenciesUs.withUnsafeBufferPointer { $0.baseAddress } == start)
    }
}
