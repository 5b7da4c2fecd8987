/// What the generated ``TouchInput`` (the optional `input` field of `gesture.event`, every
/// component state and `render.image`) needs by hand: where it comes from and the fast check the
/// gesture event's specialised decoder makes.
///
/// The gesture recognizer names the frame that caused an event, the component host passes it on
/// to the states the event changed, and the render worker to the frame that drew them, so a viewer
/// can tell which of its touches a frame shows (input → pixels latency).
extension TouchInput {
    /// Sequence numbers stay exact in JSON (2^53 − 1).
    public static let maximumSeq: UInt64 = (1 << 53) - 1

    /// The input of a touch frame.
    public init(_ frame: TouchFrame) {
        self.init()
        self.device = frame.device
        self.seq = frame.frame
        self.sourceTimeNs = frame.tNs
    }

    /// The input if its values are within the schema's rules, else nil (the generated decoder then
    /// names what is wrong).
    static func valid(device: String, seq: Int64, sourceTimeNs: Int64) -> TouchInput? {
        guard StringPattern.topicSegment.matches(device), seq >= 1, UInt64(seq) <= Self.maximumSeq, sourceTimeNs >= 0
        else { return nil }
        return TouchInput {
            $0.device = device
            $0.seq = UInt64(seq)
            $0.sourceTimeNs = sourceTimeNs
        }
    }
}
