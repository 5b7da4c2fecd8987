import BusSchema
import Testing

@Suite struct CivilTimeTests {
    @Test(arguments: [
        (Int64(0), "Thu, 1 Jan 1970 00:00:00 +0000", "Thu Jan  1 00:00:00 1970"),
        (951_782_400_000, "Tue, 29 Feb 2000 00:00:00 +0000", "Tue Feb 29 00:00:00 2000"),
        (1_767_225_712_456, "Thu, 1 Jan 2026 00:01:52 +0000", "Thu Jan  1 00:01:52 2026"),
        (-1, "Wed, 31 Dec 1969 23:59:59 +0000", "Wed Dec 31 23:59:59 1969"),
        (4_107_542_399_000, "Sun, 28 Feb 2100 23:59:59 +0000", "Sun Feb 28 23:59:59 2100"),
    ])
    func formatsMillisecondsAsUTC(milliseconds: Int64, rfc5322: String, asctime: String) {
        let time = CivilTime(milliseconds: milliseconds)
        #expect(time.rfc5322 == rfc5322)
        #expect(time.asctime == asctime)
    }

    @Test func theShortFormIsYearMonthDayHoursAndMinutesZeroPadded() {
        #expect(CivilTime(milliseconds: 951_782_400_000).short == "2000/02/29 00:00")
        #expect(CivilTime(milliseconds: 1_314_007_500_000).short == "2011/08/22 10:05")
    }
}
