import Bus
import Testing

@Suite struct SequenceTrackerTests {
    @Test func aStreamStartsWhereverWeJoinIt() {
        var tracker = SequenceTracker()
        #expect(tracker.observe(publisher: "p", epoch: 1, topic: "t/", seq: 500) == .first)
        #expect(tracker.observe(publisher: "p", epoch: 1, topic: "t/", seq: 501) == .inOrder)
    }

    @Test func aJumpCountsEverySkippedNumber() {
        var tracker = SequenceTracker()
        _ = tracker.observe(publisher: "p", epoch: 1, topic: "t/", seq: 1)
        #expect(tracker.observe(publisher: "p", epoch: 1, topic: "t/", seq: 5) == .gap(missing: 3))
    }

    @Test func aSkippedNumberArrivingLateIsAReorderNotADuplicate() {
        var tracker = SequenceTracker()
        _ = tracker.observe(publisher: "p", epoch: 1, topic: "t/", seq: 1)
        _ = tracker.observe(publisher: "p", epoch: 1, topic: "t/", seq: 3)
        #expect(tracker.observe(publisher: "p", epoch: 1, topic: "t/", seq: 2) == .reorder)
        #expect(tracker.observe(publisher: "p", epoch: 1, topic: "t/", seq: 2) == .duplicate)
        #expect(tracker.observe(publisher: "p", epoch: 1, topic: "t/", seq: 3) == .duplicate)
    }

    @Test func aRestartedPublisherCountsWhatItsNewEpochLost() {
        var tracker = SequenceTracker()
        _ = tracker.observe(publisher: "p", epoch: 1, topic: "t/", seq: 90)
        #expect(tracker.observe(publisher: "p", epoch: 2, topic: "t/", seq: 4) == .newEpoch(missing: 3))
        #expect(tracker.observe(publisher: "p", epoch: 2, topic: "t/", seq: 5) == .inOrder)
    }

    @Test func streamsArePerPublisherAndTopic() {
        var tracker = SequenceTracker()
        _ = tracker.observe(publisher: "p", epoch: 1, topic: "a/", seq: 1)
        #expect(tracker.observe(publisher: "p", epoch: 1, topic: "b/", seq: 7) == .first)
        #expect(tracker.observe(publisher: "q", epoch: 1, topic: "a/", seq: 7) == .first)
        #expect(tracker.streamCount == 3)
    }
}
