/// Follows the sequence numbers of every (publisher, epoch, topic) stream a subscriber sees.
///
/// A stream seen for the first time starts wherever it is (messages before we joined are not
/// ours to count). After that, a jump counts the skipped numbers as gaps; a number already
/// seen is a duplicate; a skipped number that turns up late is a reorder and is taken back
/// out of the gaps. A publisher that restarts (a new epoch on a topic we follow) starts its
/// new stream at 1, so everything before the first number we see of it counts as a gap.
public struct SequenceTracker: Sendable {
    /// What one message meant for its stream.
    public enum Outcome: Sendable, Hashable {
        case first
        case inOrder
        case gap(missing: UInt64)
        case duplicate
        case reorder
        /// The publisher restarted on this topic; `missing` messages of the new epoch were lost.
        case newEpoch(missing: UInt64)
    }

    private struct StreamKey: Hashable {
        var publisher: String
        var topic: String
    }

    private struct Stream {
        var epoch: UInt64
        var last: UInt64
        /// Recently skipped numbers, so a late arrival can be told from a duplicate.
        var missing: [UInt64] = []

        mutating func remember(missingFrom start: UInt64, to end: UInt64) {
            guard start < end else { return }
            let first = max(start, end - min(end - start, UInt64(SequenceTracker.missingWindow)))
            self.missing.append(contentsOf: first..<end)
            if self.missing.count > SequenceTracker.missingWindow {
                self.missing.removeFirst(self.missing.count - SequenceTracker.missingWindow)
            }
        }
    }

    /// How many skipped numbers per stream are remembered for reorder detection.
    public static let missingWindow = 256

    private var streams: [StreamKey: Stream] = [:]
    /// The stream of the previous message, kept out of the dictionary: traffic comes in runs
    /// from one stream, and hashing two strings per message was a tenth of a bus hop.
    private var current: (key: StreamKey, stream: Stream)?

    public init() {}

    public var streamCount: Int { self.streams.count + (self.current == nil ? 0 : 1) }

    /// Records message `seq` of `publisher`'s `epoch` on `topic`.
    public mutating func observe(publisher: String, epoch: UInt64, topic: String, seq: UInt64) -> Outcome {
        let key = StreamKey(publisher: publisher, topic: topic)
        if let current = self.current, current.key != key {
            self.streams[current.key] = current.stream
            self.current = nil
        }
        guard var stream = self.current?.stream ?? self.streams.removeValue(forKey: key) else {
            self.current = (key, Stream(epoch: epoch, last: seq))
            return .first
        }
        defer { self.current = (key, stream) }
        if stream.epoch != epoch {
            stream = Stream(epoch: epoch, last: 0)
            let missing = seq > 1 ? seq - 1 : 0
            stream.remember(missingFrom: 1, to: seq)
            stream.last = seq
            return .newEpoch(missing: missing)
        }
        if seq == stream.last &+ 1 {
            stream.last = seq
            return .inOrder
        }
        if seq > stream.last {
            let missing = seq - stream.last - 1
            stream.remember(missingFrom: stream.last + 1, to: seq)
            stream.last = seq
            return .gap(missing: missing)
        }
        if let index = stream.missing.firstIndex(of: seq) {
            stream.missing.remove(at: index)
            return .reorder
        }
        return .duplicate
    }
}
