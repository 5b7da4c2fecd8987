import BusSchema

/// Decides when each frame of a finite or endless source is due on the monotonic clock.
///
/// Pure: the monotonic time is an input. With ``Pace/recorded`` the first frame taken anchors the
/// source's clock to the monotonic one, and every later frame is due at
/// `anchor.mono + (frame.t_ns − anchor.t_ns)`: absolute deadlines from one anchor, so lateness in
/// sending one frame never delays the ones after it (no drift). With ``Pace/max`` every frame is due
/// at once.
public struct FramePacer {
    public enum Pace: String, Sendable, CaseIterable {
        /// As recorded: frames keep the spacing of their `t_ns`.
        case recorded
        /// As fast as possible.
        case max
    }

    public let pace: Pace
    private let upcoming: AnyIterator<TouchFrame>
    private var next: TouchFrame?
    private var anchor: (sourceNs: Int64, monoNs: UInt64)?

    /// - Parameters:
    ///   - frames: the frames in source-time order (an endless sequence is fine).
    public init(frames: some Sequence<TouchFrame>, pace: Pace) {
        var iterator = frames.makeIterator()
        self.upcoming = AnyIterator { iterator.next() }
        self.next = self.upcoming.next()
        self.pace = pace
    }

    /// Whether every frame has been taken.
    public var isFinished: Bool { self.next == nil }

    /// The next frame to be taken.
    public var nextFrame: TouchFrame? { self.next }

    /// Takes the frames due by `nowNs`, at most `limit` of them (so a fast source leaves the
    /// service loop time for signals, timers and health).
    public mutating func take(dueBy nowNs: UInt64, limit: Int) -> [TouchFrame] {
        var frames: [TouchFrame] = []
        while frames.count < limit, let frame = self.next {
            if self.pace == .recorded {
                let anchor = self.anchor ?? (frame.tNs, nowNs)
                self.anchor = anchor
                guard Self.due(frame, anchor) <= nowNs else { break }
            }
            frames.append(frame)
            self.next = self.upcoming.next()
        }
        return frames
    }

    /// When the next frame is due (monotonic ns), or nil when the source is finished.
    public func nextDueNs(now nowNs: UInt64) -> UInt64? {
        guard let next = self.next else { return nil }
        guard self.pace == .recorded, let anchor = self.anchor else { return nowNs }
        return Self.due(next, anchor)
    }

    private static func due(_ frame: TouchFrame, _ anchor: (sourceNs: Int64, monoNs: UInt64)) -> UInt64 {
        anchor.monoNs + UInt64(max(0, frame.tNs - anchor.sourceNs))
    }

    /// `frames` over and over, each repetition shifted in time to start `gapNs` after the previous
    /// one ended (the stuck-touch guard renumbers the frames per device).
    public static func looping(_ frames: [TouchFrame], gapNs: Int64 = 500_000_000) -> AnySequence<TouchFrame> {
        Self.looping(gapNs: gapNs) { AnyIterator(frames.makeIterator()) }
    }

    /// The passes `pass` makes (a file read again each time), one after the other, each shifted
    /// in time to start `gapNs` after the previous one ended; ends after a pass with no frame.
    public static func looping(gapNs: Int64 = 500_000_000, _ pass: @escaping () -> AnyIterator<TouchFrame>)
        -> AnySequence<TouchFrame>
    {
        AnySequence { () -> AnyIterator<TouchFrame> in
            var current = pass()
            var offset: Int64 = 0
            var span: (first: Int64, last: Int64)?
            return AnyIterator {
                if var frame = current.next() {
                    span = (span?.first ?? frame.tNs, frame.tNs)
                    frame.tNs += offset
                    return frame
                }
                guard let ended = span else { return nil }
                offset += ended.last - ended.first + gapNs
                span = nil
                current = pass()
                guard var frame = current.next() else { return nil }
                span = (frame.tNs, frame.tNs)
                frame.tNs += offset
                return frame
            }
        }
    }
}
