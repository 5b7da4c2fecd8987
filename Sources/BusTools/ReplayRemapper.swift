import BusSchema

/// Makes a recording's touch frames new to a running stack, so that replaying it again and again
/// gives the same result each time.
///
/// A recognizer remembers each device's last frame number and source time, and drops what it has
/// already seen. Each pass therefore renumbers every device's frames from `frameBase` on (same
/// gaps as recorded) and shifts their `t_ns` so the first frame of the pass is at `timeBaseNs`;
/// both bases must grow from one pass to the next (the caller takes them from its clocks), and
/// a pass sent faster than recorded stamps times ahead of the clock: the next may start only once
/// ``latestTimeNs`` has passed, or a device's source time would go back.
/// Messages other than touch frames pass through unchanged.
public struct ReplayRemapper {
    private let frameBase: Int64
    private let timeBaseNs: Int64
    private var firstFrame: [String: Int64] = [:]
    private var firstTime: [String: Int64] = [:]
    /// Per device, the first and last frame number sent in this pass.
    public private(set) var sentFrames: [String: ClosedRange<Int64>] = [:]
    /// The latest `t_ns` stamped in this pass (nil before the first touch frame).
    public private(set) var latestTimeNs: Int64?

    public init(frameBase: Int64, timeBaseNs: Int64) {
        self.frameBase = frameBase
        self.timeBaseNs = timeBaseNs
    }

    /// The payload to send for a recorded one.
    public mutating func remap(_ payload: Value, schema: String) -> Value {
        guard schema == "touch.frame", case .map(var map) = payload, let device = map["device"]?.stringValue,
            let frame = map["frame"]?.intValue, let time = map["t_ns"]?.intValue
        else { return payload }
        let first = self.firstFrame[device] ?? frame
        let start = self.firstTime[device] ?? time
        self.firstFrame[device] = first
        self.firstTime[device] = start
        let newFrame = self.frameBase + (frame - first)
        map["frame"] = .int(newFrame)
        let newTime = self.timeBaseNs + (time - start)
        map["t_ns"] = .int(newTime)
        self.latestTimeNs = max(self.latestTimeNs ?? newTime, newTime)
        let range = self.sentFrames[device]
        self.sentFrames[device] =
            min(range?.lowerBound ?? newFrame, newFrame)...max(range?.upperBound ?? newFrame, newFrame)
        return .map(map)
    }
}
