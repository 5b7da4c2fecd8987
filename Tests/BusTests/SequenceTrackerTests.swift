import Bus
import BusSchema
import Testing

@Suite struct SequenceTrackerTests {
    /// One publisher's stream on `t/`: the rule, then (epoch, seq) as they arrive, each with what
    /// the tracker must call it (nil where the rule says nothing of it).
    static let oneStreamCases: [(String, [(UInt64, UInt64, SequenceTracker.Outcome?)])] = [
        ("a stream starts wherever we join it", [(1, 500, .first), (1, 501, .inOrder)]),
        ("a jump counts every skipped number", [(1, 1, nil), (1, 5, .gap(missing: 3))]),
        (
            "a skipped number arriving late is a reorder, not a duplicate",
            [(1, 1, nil), (1, 3, nil), (1, 2, .reorder), (1, 2, .duplicate), (1, 3, .duplicate)]
        ),
        (
            "a restarted publisher counts what its new epoch lost",
            [(1, 90, nil), (2, 4, .newEpoch(missing: 3)), (2, 5, .inOrder)]
        ),
    ]

    @Test("each arrival on one stream gets the outcome its rule names", arguments: Self.oneStreamCases)
    func oneStream(rule: String, arrivals: [(UInt64, UInt64, SequenceTracker.Outcome?)]) {
        var tracker = SequenceTracker()
        for (epoch, seq, expected) in arrivals {
            let outcome = tracker.observe(publisher: "p", epoch: epoch, topic: "t/", seq: seq)
            if let expected {
                #expect(outcome == expected, "\(rule): epoch \(epoch), seq \(seq)")
            }
        }
    }

    @Test func streamsArePerPublisherAndTopic() {
        var tracker = SequenceTracker()
        _ = tracker.observe(publisher: "p", epoch: 1, topic: "a/", seq: 1)
        #expect(tracker.observe(publisher: "p", epoch: 1, topic: "b/", seq: 7) == .first)
        #expect(tracker.observe(publisher: "q", epoch: 1, topic: "a/", seq: 7) == .first)
        #expect(tracker.streamCount == 3)
    }
}

@Suite struct InterleavedStreamTests {
    @Test func interleavedStreamsKeepTheirOwnSequences() {
        var tracker = SequenceTracker()
        var outcomes: [SequenceTracker.Outcome] = []
        for (topic, seq) in [("a/", 1), ("b/", 1), ("a/", 2), ("b/", 3), ("a/", 3), ("b/", 2), ("a/", 3)] {
            outcomes.append(tracker.observe(publisher: "p", epoch: 1, topic: topic, seq: UInt64(seq)))
        }
        #expect(outcomes == [.first, .first, .inOrder, .gap(missing: 1), .inOrder, .reorder, .duplicate])
        #expect(tracker.streamCount == 2)
    }

    @Test func moreStreamsInterleavedThanTheTrackerKeepsAtHandKeepTheirOwnSequences() {
        var tracker = SequenceTracker()
        let topics = (0..<20).map { "t\($0)/" }
        var outcomes: [SequenceTracker.Outcome] = []
        for seq in [1, 2, 4] as [UInt64] {
            for topic in topics { outcomes.append(tracker.observe(publisher: "p", epoch: 1, topic: topic, seq: seq)) }
        }
        #expect(outcomes[..<20].allSatisfy { $0 == .first })
        #expect(outcomes[20..<40].allSatisfy { $0 == .inOrder })
        #expect(outcomes[40...].allSatisfy { $0 == .gap(missing: 1) })
        #expect(tracker.observe(publisher: "p", epoch: 1, topic: "t0/", seq: 3) == .reorder)
        #expect(tracker.observe(publisher: "q", epoch: 1, topic: "t0/", seq: 9) == .first)
        #expect(tracker.streamCount == 21)
    }

    @Test func aStreamPositionKeptPerTopicGivesTheSameOutcomesAsLookingUpEveryMessage() {
        // Two publishers on one topic make the kept position wrong half the time.
        let messages: [(String, String, UInt64)] = [
            ("p", "a/", 1), ("p", "b/", 1), ("q", "a/", 5), ("p", "a/", 2), ("q", "a/", 6), ("p", "b/", 3),
            ("p", "a/", 2), ("q", "a/", 8), ("p", "b/", 2), ("q", "a/", 7), ("p", "a/", 3),
        ]
        var looked = SequenceTracker()
        var hinted = SequenceTracker()
        var positions: [String: Int] = ["a/": 7, "b/": -3]
        for (publisher, topic, seq) in messages {
            let expected = looked.observe(publisher: publisher, epoch: 1, topic: topic, seq: seq)
            #expect(
                hinted.observe(publisher: publisher, epoch: 1, topic: topic, seq: seq, position: &positions[topic]!)
                    == expected, "\(publisher) \(topic) \(seq)")
        }
        #expect(hinted.streamCount == 3)
        var position = positions["b/"]!
        #expect(hinted.observe(publisher: "p", epoch: 1, topic: "b/", seq: 4, position: &position) == .inOrder)
        #expect(position == positions["b/"]!)
    }

    @Test func theStamperCountsEachTopicSeparatelyWhenInterleaved() throws {
        var stamper = EnvelopeStamper(publisher: "p")
        let a = try Topic("a/")
        let b = try Topic("b/")
        let seqs = [a, a, b, a, b, b].map { stamper.stamp(Health.schema, on: $0).seq }
        #expect(seqs == [1, 2, 1, 3, 2, 3])
        #expect(stamper.nextSeq(on: a) == 4)
        #expect(stamper.nextSeq(on: b) == 4)
    }

    @Test func theStamperKeepsEachOfManyInterleavedTopicsAndSchemasApart() throws {
        var stamper = EnvelopeStamper(publisher: "p")
        let topics = try (0..<12).map { try Topic("t/\($0)/") }
        let schemas = (0..<6).map { SchemaID("s\($0)", major: 1, minor: $0) }
        var decoder = EnvelopeDecoder()
        for round in 1...3 {
            for (index, topic) in topics.enumerated() {
                let schema = schemas[index % schemas.count]
                let stamped = stamper.stamp(schema, on: topic)
                #expect(stamped.seq == UInt64(round))
                let header = try stamper.header.withUnsafeBytes { try Envelope(messagePack: $0) }
                #expect(header == stamped)
                #expect(try stamper.header.withUnsafeBytes { try decoder.decode($0) } == stamped)
            }
        }
        #expect(topics.allSatisfy { stamper.nextSeq(on: $0) == 4 })
        #expect(stamper.nextSeq(on: try Topic("t/new/")) == 1)
    }

    @Test func aSpoofedNewEpochFarAhead_becomesTheBaselineWithoutCountingGaps() {
        var tracker = SequenceTracker()
        _ = tracker.observe(publisher: "p", epoch: 1, topic: "t/", seq: 10)
        let spoofed: UInt64 = 9_000_000_000_000_000
        #expect(tracker.observe(publisher: "p", epoch: 2, topic: "t/", seq: spoofed) == .resync(skipped: spoofed - 1))
        #expect(tracker.observe(publisher: "p", epoch: 2, topic: "t/", seq: spoofed + 1) == .inOrder)
    }

    @Test func aJumpPastTheGapBoundWithinAnEpoch_isLeftOutAndTheStreamGoesOn() {
        var tracker = SequenceTracker()
        _ = tracker.observe(publisher: "p", epoch: 1, topic: "t/", seq: 10)
        let jump = 11 + SequenceTracker.maxGap + 1
        #expect(tracker.observe(publisher: "p", epoch: 1, topic: "t/", seq: jump) == .resync(skipped: jump - 11))
        #expect(tracker.observe(publisher: "p", epoch: 1, topic: "t/", seq: 11) == .inOrder)
    }

    @Test func theLargestGapAMessageMayReveal_isStillCounted() {
        var tracker = SequenceTracker()
        _ = tracker.observe(publisher: "p", epoch: 1, topic: "t/", seq: 1)
        let seq = 2 + SequenceTracker.maxGap
        #expect(
            tracker.observe(publisher: "p", epoch: 1, topic: "t/", seq: seq) == .gap(missing: SequenceTracker.maxGap))
        #expect(
            tracker.observe(publisher: "p", epoch: 2, topic: "t/", seq: 1 + SequenceTracker.maxGap)
                == .newEpoch(missing: SequenceTracker.maxGap))
    }
}
