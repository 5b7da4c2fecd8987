import Testing

@testable import Flood

/// The pure parts of a flood: absolute send deadlines and the max-rate search.
@Suite struct ScheduleTests {
    @Test func deadlinesAreAbsoluteFromOneStartSoLatenessNeverShiftsLaterMessages() {
        let schedule = SendSchedule(startNs: 1_000, ratePerSecond: 3, count: 10)
        #expect(schedule.deadlineNs(of: 0) == 1_000)
        #expect(schedule.deadlineNs(of: 3) == 1_000 + 1_000_000_000)
        #expect(schedule.deadlineNs(of: 1) == 1_000 + 333_333_333)
        // A sender that wakes 2.5 s late owes every message due by then, no more, no fewer.
        #expect(schedule.dueCount(at: 1_000 + 2_500_000_000) == 8)
        #expect(schedule.dueCount(at: 999) == 0)
        #expect(schedule.dueCount(at: 1_000) == 1)
        #expect(schedule.dueCount(at: 1_000 + 333_333_332) == 1)
        #expect(schedule.dueCount(at: 1_000 + 333_333_333) == 2)
        #expect(schedule.dueCount(at: .max / 2) == 10)
    }

    @Test func everyDeadlineIsDueExactlyAtItsOwnTime() {
        let schedule = SendSchedule(startNs: 17, ratePerSecond: 7_919, count: 5_000)
        for index in 0..<schedule.count {
            let deadline = schedule.deadlineNs(of: index)
            #expect(schedule.dueCount(at: deadline) == index + 1)
            #expect(schedule.dueCount(at: deadline - 1) == index)
        }
    }

    @Test func theSearchDoublesUntilALossThenHalvesTheGap() {
        var search = RateSearch(start: 1000, limit: 1_000_000, refinements: 3)
        var tried: [Double] = []
        // Pretend anything up to 5000/s is clean.
        while let rate = search.next {
            tried.append(rate)
            search.record(clean: rate <= 5000)
        }
        #expect(tried == [1000, 2000, 4000, 8000, 6000, 5000, 5500])
        #expect(search.best == 5000)
    }

    @Test func aSearchWhoseFirstRateLosesLooksBelowItAndOneThatNeverLosesStopsAtTheLimit() {
        var low = RateSearch(start: 1000, limit: 1_000_000, refinements: 2)
        var tried: [Double] = []
        while let rate = low.next {
            tried.append(rate)
            low.record(clean: rate <= 300)
        }
        #expect(tried == [1000, 500, 250])
        #expect(low.best == 250)

        var high = RateSearch(start: 1000, limit: 4000, refinements: 2)
        tried = []
        while let rate = high.next {
            tried.append(rate)
            high.record(clean: true)
        }
        #expect(tried == [1000, 2000, 4000])
        #expect(high.best == 4000)
    }
}
