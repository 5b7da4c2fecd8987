import BusSchema
import Testing

@Suite("Typed time")
struct InstantTests {
    @Test("A span between two instants of one clock is a Duration, and adding it back gives the later instant")
    func spanRoundTrips() {
        let start = SourceInstant(nanoseconds: 1_000_000_000)
        let end = SourceInstant(milliseconds: 1_250.5)
        #expect(end - start == .microseconds(250_500))
        #expect(start + (end - start) == end)
        #expect(end - .milliseconds(250) > start)
        #expect((end - start).milliseconds == 250.5)
    }

    @Test("Hostile milliseconds (NaN, infinities, 1e308) give a clamped instant, never a trap")
    func hostileMillisecondsClamp() {
        #expect(MonotonicInstant(milliseconds: .nan).nanoseconds == 0)
        #expect(MonotonicInstant(milliseconds: .infinity).nanoseconds == 1 << 62)
        #expect(MonotonicInstant(milliseconds: -1e308).nanoseconds == -(1 << 62))
        #expect(Duration.milliseconds(fractional: 1e308).nanoseconds == 1 << 62)
    }

    @Test("Arithmetic at the ends of Int64 saturates instead of overflowing")
    func arithmeticSaturates() {
        let late = MonotonicInstant(nanoseconds: .max - 1)
        #expect((late + .seconds(1)).nanoseconds == .max)
        #expect((MonotonicInstant(nanoseconds: .min) - late).nanoseconds == .min)
        #expect(Duration.seconds(Int64.max).nanoseconds == .max)
    }
}
