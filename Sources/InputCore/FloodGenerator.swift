import BusSchema

#if canImport(Glibc)
    import Glibc
#endif

/// An endless stream of touch frames from `devices` devices at `ratePerDevice` frames/s each, for
/// load tests: every device draws circles with one finger, lifting and landing again once a second.
///
/// Frames come in time order, devices interleaved (`d0`, `d1`, …).
public struct FloodGenerator: Sequence, IteratorProtocol, Sendable {
    public let devices: Int
    public let ratePerDevice: Double
    private var tick = 0
    private var device = 0
    private var frameNumbers: [UInt64]

    public init(devices: Int, ratePerDevice: Double) {
        self.devices = Swift.max(1, devices)
        self.ratePerDevice = Swift.max(1, ratePerDevice)
        self.frameNumbers = Array(repeating: 0, count: self.devices)
    }

    public mutating func next() -> TouchFrame? {
        let framesPerStroke = Swift.max(2, Int(self.ratePerDevice))
        let step = self.tick % framesPerStroke
        let phase: TouchContact.Phase = step == 0 ? .began : (step == framesPerStroke - 1 ? .ended : .moved)
        let angle = Double(step) / Double(framesPerStroke) * 2 * Double.pi
        let contact = TouchContact {
            $0.id = self.tick / framesPerStroke
            $0.phase = phase
            $0.x = 200 + 100 * cos(angle)
            $0.y = 200 + 100 * sin(angle)
        }
        let tNs = Int64(Double(self.tick) * 1e9 / self.ratePerDevice) + Int64(self.device)
        self.frameNumbers[self.device] += 1
        let frame = TouchFrame {
            $0.device = "d\(self.device)"
            $0.frame = self.frameNumbers[self.device]
            $0.tNs = tNs
            $0.contacts = [contact]
        }
        self.device += 1
        if self.device == self.devices {
            self.device = 0
            self.tick += 1
        }
        return frame
    }
}
