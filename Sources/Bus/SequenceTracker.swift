import BusSchema

/// Follows the sequence numbers of every (publisher, epoch, topic) stream a subscriber sees.
///
/// A stream seen for the first time starts wherever it is (messages before we joined are not
/// ours to count). After that, a jump counts the skipped numbers as gaps; a number already
/// seen is a duplicate; a skipped number that turns up late is a reorder and is taken back
/// out of the gaps. A publisher that restarts (a new epoch on a topic we follow) starts its
/// new stream at 1, so everything before the first number we see of it counts as a gap.
///
/// Counters must not be forgeable by one message: anyone on the bus can publish under any name,
/// epoch and seq. So one message adds at most ``maxGap`` to the gaps. A jump past that is no
/// loss a real stream could have had, and is reported as ``Outcome/resync(skipped:)``, counting
/// nothing as lost: a new epoch starting at 9·10^15 becomes the stream's baseline, as a stream's
/// first message does; a seq leaping ahead within an epoch is left out of the stream, which goes
/// on from where it was (so the real publisher's next message is in order, not a duplicate).
/// Seqs above 2^53 − 1 never get here: the envelope decoder refuses them.
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
        /// A jump of `skipped` numbers, more than ``SequenceTracker/maxGap``: nothing is counted
        /// as lost (see the type's rule).
        case resync(skipped: UInt64)
    }

    /// The most messages one message may reveal as lost: a subscriber paused for half a minute
    /// while a publisher floods at half a million messages a second.
    public static let maxGap: UInt64 = 1 << 24

    fileprivate struct StreamKey: Hashable {
        var publisher: String
        var topic: String
    }

    fileprivate struct Stream {
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

    /// The streams in the order they appeared, updated in place by index: one hash lookup per
    /// message at most, none for a stream heard lately (a subscriber hears a few interleaved).
    private var streams: [Stream] = []
    /// Each stream's key, by the stream's position.
    private var keys: [StreamKey] = []
    private var index = RecentlyUsedDictionary<StreamKey, Int>()

    public init() {}

    public var streamCount: Int { self.streams.count }

    /// Records message `seq` of `publisher`'s `epoch` on `topic`.
    public mutating func observe(publisher: String, epoch: UInt64, topic: String, seq: UInt64) -> Outcome {
        var position = -1
        return self.observe(publisher: publisher, epoch: epoch, topic: topic, seq: seq, position: &position)
    }

    /// Records message `seq` of `publisher`'s `epoch` on `topic`, trying the stream at `position`
    /// first: a caller that tells its topics apart anyway keeps each topic's last position and
    /// spares the lookup, which compares keys of strings (a few hundred instructions a message).
    ///
    /// - Parameter position: a stream's position, or any number; on return, this message's stream's.
    public mutating func observe(
        publisher: String, epoch: UInt64, topic: String, seq: UInt64, position: inout Int
    ) -> Outcome {
        if self.keys.indices.contains(position), self.keys[position].topic == topic,
            self.keys[position].publisher == publisher
        {
            return self.streams[position].observe(epoch: epoch, seq: seq)
        }
        let next = self.streams.count
        let key = StreamKey(publisher: publisher, topic: topic)
        position = self.index.value(for: key) { next }
        if position == next {
            self.streams.append(Stream(epoch: epoch, last: seq))
            self.keys.append(key)
            return .first
        }
        return self.streams[position].observe(epoch: epoch, seq: seq)
    }
}

extension SequenceTracker.Stream {
    /// Records message `seq` of `epoch` on this stream.
    mutating func observe(epoch: UInt64, seq: UInt64) -> SequenceTracker.Outcome {
        if self.epoch != epoch {
            self = Self(epoch: epoch, last: 0)
            let missing = seq > 1 ? seq - 1 : 0
            self.last = seq
            guard missing <= SequenceTracker.maxGap else { return .resync(skipped: missing) }
            self.remember(missingFrom: 1, to: seq)
            return .newEpoch(missing: missing)
        }
        if seq == self.last &+ 1 {
            self.last = seq
            return .inOrder
        }
        if seq > self.last {
            let missing = seq - self.last - 1
            guard missing <= SequenceTracker.maxGap else { return .resync(skipped: missing) }
            self.remember(missingFrom: self.last + 1, to: seq)
            self.last = seq
            return .gap(missing: missing)
        }
        if let index = self.missing.firstIndex(of: seq) {
            self.missing.remove(at: index)
            return .reorder
        }
        return .duplicate
    }
}
