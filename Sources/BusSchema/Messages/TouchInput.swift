/// The newest touch frame whose effect a message carries: the optional `input` field of
/// `gesture.event`, every component state and `render.image`. The gesture recognizer names the
/// frame that caused an event, the component host passes it on to the states the event
/// changed, and the render worker to the frame that drew them, so a viewer can tell which of
/// its touches a frame shows (input → pixels latency).
public struct TouchInput: Sendable, Hashable {
    /// The longest device name, in bytes.
    public static let maximumDeviceLength = 128
    /// Sequence numbers stay exact in JSON (2^53 − 1).
    public static let maximumSeq: UInt64 = (1 << 53) - 1

    /// The touch device (`touch/<device>/`).
    public var device: String
    /// That touch frame's `frame` number.
    public var seq: UInt64
    /// That touch frame's `t_ns` (source clock).
    public var sourceTimeNs: Int64

    public init(device: String, seq: UInt64, sourceTimeNs: Int64) {
        self.device = device
        self.seq = seq
        self.sourceTimeNs = sourceTimeNs
    }

    /// The input of a touch frame.
    public init(_ frame: TouchFrame) {
        self.init(device: frame.device, seq: frame.frame, sourceTimeNs: frame.tNs)
    }

    /// Checks a decoded input against the schema: a device name that fits a topic segment, a
    /// sequence number in 1…2^53 − 1, a non-negative time.
    ///
    /// - Throws: ``CodecError`` `invalid_value` naming `path` and the field.
    public static func checked(device: String, seq: Int64, sourceTimeNs: Int64, path: String) throws -> TouchInput {
        let problem: String? =
            if let problem = Topic.segmentProblem(device, maximumLength: Self.maximumDeviceLength) {
                "device '\(device)': \(problem)"
            } else if seq < 1 || UInt64(seq) > Self.maximumSeq {
                "seq \(seq) outside 1...\(Self.maximumSeq)"
            } else if sourceTimeNs < 0 {
                "source_time_ns \(sourceTimeNs) < 0"
            } else {
                nil
            }
        if let problem { throw CodecError(.invalidValue, offset: 0, context: "\(path).\(problem)") }
        return TouchInput(device: device, seq: UInt64(seq), sourceTimeNs: sourceTimeNs)
    }

    /// Reads `{"device", "seq", "source_time_ns"}` from a decoded payload.
    public init(fields: PayloadFields) throws {
        self = try Self.checked(
            device: try fields.string("device"), seq: Int64(try fields.int("seq")),
            sourceTimeNs: Int64(try fields.int("source_time_ns")), path: fields.path)
    }

    /// Reads `{"device", "seq", "source_time_ns"}` straight from MessagePack.
    public init(from reader: inout MessagePackReader, path: String) throws {
        var device: String?
        var seq: Int64?
        var time: Int64?
        let start = reader.offset
        try reader.readMap { reader, key in
            switch key {
            case "device": device = try reader.readString()
            case "seq": seq = try reader.readInt()
            case "source_time_ns": time = try reader.readInt()
            default: try reader.skip()
            }
        }
        do {
            self = try Self.checked(
                device: try reader.require(device, "\(path).device"), seq: try reader.require(seq, "\(path).seq"),
                sourceTimeNs: try reader.require(time, "\(path).source_time_ns"), path: path)
        } catch var error as CodecError where error.offset == 0 {
            error.offset = start
            throw error
        }
    }
}

extension MessagePackWriter {
    /// Writes `key` and the input's map.
    public mutating func writeField(_ key: String, _ input: TouchInput) {
        self.write(key)
        self.writeMapHeader(3)
        self.writeField("device", input.device)
        self.write("seq")
        self.write(input.seq)
        self.write("source_time_ns")
        self.write(input.sourceTimeNs)
    }
}
