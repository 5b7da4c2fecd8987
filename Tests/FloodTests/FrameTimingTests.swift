import Testing

@testable import Flood

@Suite struct FrameTimingTests {
    @Test func aFrameOfTheFloodGivesItsLatencyInMicroseconds() throws {
        let timing = try #require(
            FrameTiming(sentMs: 5_000.25, publishedNs: 5_000_400_000, receivedNs: 5_000_750_000, startNs: 4_000_000_000)
        )
        #expect(timing.sentNs == 5_000_250_000)
        #expect(timing.endToEndUs == 500)
    }

    @Test(arguments: [
        -1.0, 3_999.0, 6_000.0, 2e13, 1.9e16, Double.infinity, -Double.infinity, Double.nan,
        Double(UInt64.max), Double.greatestFiniteMagnitude,
    ])
    func anEventWhoseFrameTimeIsNotOneOfTheFloodsIsNoFrame(sentMs: Double) {
        #expect(
            FrameTiming(sentMs: sentMs, publishedNs: 5_000_400_000, receivedNs: 5_000_750_000, startNs: 4_000_000_000)
                == nil)
    }

    @Test func theCSVHasAHeaderAndOneLineAFrame() {
        let frames = [
            FrameTiming(sentNs: 1, publishedNs: 2, receivedNs: 3),
            FrameTiming(sentNs: 10, publishedNs: 20, receivedNs: 30),
        ]
        #expect(FrameTiming.csv(frames) == "sent_ns,published_ns,received_ns\n1,2,3\n10,20,30\n")
    }
}
