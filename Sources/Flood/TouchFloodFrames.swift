import Bus
import BusSchema
import Glibc
import InputCore

/// The frames of a touch flood: ``FloodGenerator``'s circles (one stroke a second per device),
/// each stamped with the monotonic time it is sent at as its `t_ns`.
///
/// Stamping the send time into the frame is what makes the far end's latency exact: the gesture
/// recognizer runs on the frames' source time and copies it into the `t_ms` of every gesture event
/// a frame causes. With `payloadBytes` set, a `pad` field (binary zeros, which readers skip as an
/// unknown key) brings each payload to that size.
public struct TouchFloodFrames: FloodMessages {
    public let devices: Int
    /// The payload size asked for, or nil for the frames' own size.
    public let payloadBytes: Int?
    public let firstTopic: Topic
    private var generator: FloodGenerator
    private let topics: [Topic]
    private let names: [String]
    private var frameWriter = Buffer()
    private var payload: [UInt8] = []
    private let zeros: [UInt8]

    /// A class box, so the non-copyable writer can live in this copyable value.
    private final class Buffer: @unchecked Sendable {
        var writer = MessagePackWriter(capacity: 256)
    }

    /// - Parameters:
    ///   - rate: frames per second over all devices.
    public init(devices: Int, rate: Double, payloadBytes: Int?) throws {
        self.devices = devices
        self.payloadBytes = payloadBytes
        self.generator = FloodGenerator(devices: devices, ratePerDevice: rate / Double(devices))
        self.names = (0..<devices).map(Self.device)
        self.topics = try self.names.map { try Topic.touch($0) }
        self.firstTopic = self.topics[0]
        self.zeros = Array(repeating: 0, count: payloadBytes ?? 0)
    }

    /// The flood's own device names, `flood-<pid>` then `flood-<pid>-1`, …: topics no input source
    /// publishes on, so nothing else mixes into what the flood counts.
    public static func device(_ index: Int) -> String {
        index == 0 ? "flood-\(getpid())" : "flood-\(getpid())-\(index)"
    }

    /// The size of a frame's payload without padding (it varies by a few bytes with the numbers in it).
    public static let naturalSize: Int = {
        let frame = TouchFrame {
            $0.device = Self.device(0)
            $0.frame = 1
            $0.tNs = 1 << 40
            $0.contacts = [
                TouchContact {
                    $0.id = 0
                    $0.phase = .moved
                    $0.x = 250.5
                    $0.y = 250.5
                }
            ]
        }
        return frame.messagePack.count
    }()

    public mutating func publish(_ index: Int, with publisher: Publisher) throws {
        guard var frame = self.generator.next() else { return }
        frame.tNs = Int64(Clock.monotonicNs())
        // The generator interleaves its devices in index order, as the topics are.
        frame.device = self.names[index % self.devices]
        let topic = self.topics[index % self.devices]
        guard let size = self.payloadBytes else {
            try publisher.publish(frame, on: topic)
            return
        }
        self.pad(frame, to: size)
        try publisher.publish(payload: self.payload, schema: TouchFrame.schema, on: topic)
    }

    /// Builds `frame` with a trailing `pad` field in ``payload``, `size` bytes in all where the
    /// frame is small enough (else the frame with an empty pad).
    private mutating func pad(_ frame: TouchFrame, to size: Int) {
        self.frameWriter.writer.reset()
        frame.encode(to: &self.frameWriter.writer)
        self.payload.removeAll(keepingCapacity: true)
        self.frameWriter.writer.withUnsafeBytes { encoded in
            // The frame is a fixmap of 4 fields (0x84): one more field makes 0x85.
            self.payload.append(encoded[0] + 1)
            self.payload.append(contentsOf: encoded.dropFirst())
        }
        let key: [UInt8] = [0xa3, UInt8(ascii: "p"), UInt8(ascii: "a"), UInt8(ascii: "d")]
        self.payload.append(contentsOf: key)
        let room = size - self.payload.count
        if room - 2 <= 0xff {
            let length = max(room - 2, 0)
            self.payload.append(contentsOf: [0xc4, UInt8(length)])
            self.payload.append(contentsOf: self.zeros[..<length])
        } else {
            let length = room - 3
            self.payload.append(contentsOf: [0xc5, UInt8(length >> 8), UInt8(length & 0xff)])
            self.payload.append(contentsOf: self.zeros[..<length])
        }
    }
}
