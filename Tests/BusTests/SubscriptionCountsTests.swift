import Bus
import Testing

@Suite struct SubscriptionCountsTests {
    static func notice(_ counts: inout SubscriptionCounts, _ kind: UInt8, _ prefix: String) {
        ([kind] + Array(prefix.utf8)).withUnsafeBytes { counts.notice($0) }
    }

    static func table(_ counts: SubscriptionCounts) -> [String: UInt64] {
        Dictionary(uniqueKeysWithValues: counts.entries.map { ($0.prefix, $0.count) })
    }

    @Test func subscribesAddAndCancelsTakeAwayPerPrefix() {
        var counts = SubscriptionCounts()
        Self.notice(&counts, 1, "touch/")
        Self.notice(&counts, 1, "touch/")
        Self.notice(&counts, 1, "")
        #expect(Self.table(counts) == ["touch/": 2, "": 1])
        Self.notice(&counts, 0, "touch/")
        Self.notice(&counts, 0, "")
        #expect(Self.table(counts) == ["touch/": 1])
        // A cancel of what was never subscribed (or of a prefix already gone) changes nothing.
        Self.notice(&counts, 0, "gesture/")
        Self.notice(&counts, 0, "touch/")
        Self.notice(&counts, 0, "touch/")
        #expect(counts.entries.isEmpty)
        Self.notice(&counts, 7, "touch/")
        #expect(counts.entries.isEmpty, "not a notice")
    }

    @Test func prefixesBeyondTheBoundsAreCountedAsUntracked() {
        var counts = SubscriptionCounts()
        Self.notice(&counts, 1, String(repeating: "x", count: SubscriptionCounts.maximumPrefixBytes + 1))
        for index in 0..<SubscriptionCounts.maximumPrefixes + 5 { Self.notice(&counts, 1, "t\(index)/") }
        #expect(counts.entries.count == SubscriptionCounts.maximumPrefixes)
        #expect(counts.untracked == 6)
        // A tracked prefix still counts up, and a cancel of an untracked one is ignored.
        Self.notice(&counts, 1, "t0/")
        Self.notice(&counts, 0, "t\(SubscriptionCounts.maximumPrefixes + 1)/")
        #expect(Self.table(counts)["t0/"] == 2)
        #expect(counts.entries.count == SubscriptionCounts.maximumPrefixes)
    }
}
