/// Where an input source's clock stands at a moment of this process's monotonic clock, and back.
///
/// A service that runs on source time (the input source's stuck-touch guard, the component host's
/// machines) meets moments that carry none: a timer of its loop, a lifecycle message, a command.
/// It places them on the source's clock from the latest input that carried a source instant:
/// that instant, plus the monotonic time since it arrived. Before any input, the instant given at
/// creation stands for the start. Pure: both clocks are inputs.
public struct SourceTimeline: Sendable {
    private var anchor: (source: SourceInstant, monotonic: MonotonicInstant)

    /// A timeline on which `source` is the moment `monotonic` (the start, before any input).
    public init(source: SourceInstant = SourceInstant(nanoseconds: 0), at monotonic: MonotonicInstant) {
        self.anchor = (source, monotonic)
    }

    /// An input of source instant `source` arrived (or was sent) at `monotonic`.
    public mutating func anchor(_ source: SourceInstant, at monotonic: MonotonicInstant) {
        self.anchor = (source, monotonic)
    }

    /// The source instant at `monotonic` (never before the latest input's).
    public func source(at monotonic: MonotonicInstant) -> SourceInstant {
        self.anchor.source + max(.zero, monotonic - self.anchor.monotonic)
    }

    /// The monotonic moment of source instant `source` (never before the latest input's arrival).
    public func monotonic(at source: SourceInstant) -> MonotonicInstant {
        self.anchor.monotonic + max(.zero, source - self.anchor.source)
    }
}
