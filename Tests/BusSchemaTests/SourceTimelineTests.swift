import BusSchema
import Testing

@Suite("Source timeline")
struct SourceTimelineTests {
    static let start = MonotonicInstant(nanoseconds: 5_000_000_000)

    @Test("Before any input, the start is source instant zero and the source's clock runs with the monotonic one")
    func startIsZero() {
        let timeline = SourceTimeline(at: Self.start)
        #expect(timeline.source(at: Self.start) == SourceInstant(nanoseconds: 0))
        #expect(timeline.source(at: Self.start + .milliseconds(16)) == SourceInstant(milliseconds: 16))
    }

    @Test("After an input, a moment is its source instant plus the monotonic time since it arrived, never before it")
    func anchoredOnTheLatestInput() {
        var timeline = SourceTimeline(at: Self.start)
        let arrived = Self.start + .seconds(3)
        timeline.anchor(SourceInstant(milliseconds: 120), at: arrived)
        #expect(timeline.source(at: arrived + .milliseconds(16)) == SourceInstant(milliseconds: 136))
        #expect(timeline.source(at: arrived - .milliseconds(5)) == SourceInstant(milliseconds: 120))
        #expect(timeline.monotonic(at: SourceInstant(milliseconds: 136)) == arrived + .milliseconds(16))
        #expect(timeline.monotonic(at: SourceInstant(milliseconds: 100)) == arrived)
    }
}
