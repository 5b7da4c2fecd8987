import CLinux
import Glibc
import InputCore

/// A live evdev device (`/dev/input/eventN`), or anything that delivers the same raw
/// `struct input_event` records (a pipe, a FIFO): opened non-blocking for the service's poll loop.
///
/// The axes come from the device itself (`EVIOCGABS`). A descriptor that is not an input device
/// (a pipe in a test, a FIFO fed by a recorder) has none: ``axesProblem`` says why, and the caller
/// falls back to a `.desc` file or the scene size.
public final class EvdevDevice {
    public let path: String
    public let descriptor: Int32
    /// The device's name (`EVIOCGNAME`) and axes (`EVIOCGABS`); empty when ``axesProblem`` is set.
    public let description: DeviceDescription
    /// Why the axes could not be read from the descriptor, or nil when they were.
    public let axesProblem: String?
    private var buffer: [UInt8]
    /// Bytes of a partial record kept at the start of ``buffer`` for the next read.
    private var leftover = 0

    /// The absolute axes the touch decoder uses.
    static let axisCodes: [UInt16] = [
        EventCode.absX, EventCode.absY, EventCode.absPressure, EventCode.mtSlot, EventCode.mtTouchMajor,
        EventCode.mtPositionX, EventCode.mtPositionY, EventCode.mtToolType, EventCode.mtTrackingID,
        EventCode.mtPressure,
    ]

    /// Opens `path` read-only and non-blocking and reads its name and axes.
    /// The corresponding C function is `open`.
    ///
    /// - Throws: ``DeviceError`` if the path cannot be opened.
    public init(path: String) throws(DeviceError) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw DeviceError(errno: errno, call: "open", path: path) }
        self.path = path
        self.descriptor = descriptor
        self.buffer = Array(repeating: 0, count: InputEvent.binarySize * 64)
        switch Self.readAxes(descriptor) {
        case .success(let description):
            self.description = description
            self.axesProblem = nil
        case .failure(let error):
            self.description = DeviceDescription()
            self.axesProblem = "\(error)"
        }
    }

    deinit {
        close(self.descriptor)
    }

    /// What one ``read()`` found.
    public struct Batch {
        public var events: [InputEvent]
        /// Why the device is gone (end of file, `ENODEV`, another read error), or nil if it is not.
        public var end: DeviceError?
    }

    /// Reads every whole record available now (a bounded number of reads, so a flooding device
    /// cannot starve the loop). The corresponding C function is `read`.
    public func read() -> Batch {
        var batch = Batch(events: [], end: nil)
        for _ in 0..<16 {
            let capacity = self.buffer.count - self.leftover
            let count = self.buffer.withUnsafeMutableBytes { bytes in
                Glibc.read(self.descriptor, bytes.baseAddress! + self.leftover, capacity)
            }
            if count < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN { batch.end = DeviceError(errno: errno, call: "read", path: self.path) }
                return batch
            }
            if count == 0 {
                batch.end = DeviceError(errno: 0, call: "read", path: self.path)
                return batch
            }
            let filled = self.leftover + count
            let decoded = self.buffer.withUnsafeBytes {
                InputEvent.decode(UnsafeRawBufferPointer(rebasing: $0[..<filled]))
            }
            batch.events.append(contentsOf: decoded.events)
            self.leftover = decoded.leftover
            if self.leftover > 0 {
                self.buffer.withUnsafeMutableBytes { bytes in
                    bytes.baseAddress!.copyMemory(
                        from: bytes.baseAddress! + filled - self.leftover, byteCount: self.leftover)
                }
            }
        }
        return batch
    }

    /// The name and axis ranges of an evdev descriptor. The corresponding C calls are the
    /// `EVIOCGNAME` and `EVIOCGABS` ioctls.
    private static func readAxes(_ descriptor: Int32) -> Result<DeviceDescription, DeviceError> {
        var description = DeviceDescription()
        var name = [CChar](repeating: 0, count: 256)
        if clinux_eviocgname(descriptor, &name, UInt32(name.count - 1)) >= 0 {
            description.name = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        for code in Self.axisCodes {
            var info = input_absinfo()
            guard clinux_eviocgabs(descriptor, UInt32(code), &info) >= 0 else {
                // ENOTTY: not an input device at all; EINVAL: an input device with no absolute axes.
                return .failure(DeviceError(errno: errno, call: "ioctl(EVIOCGABS)", path: ""))
            }
            // The kernel answers for every axis code; an axis the device lacks comes back empty.
            guard info.maximum > info.minimum else { continue }
            description.axes[code] = AxisRange(
                minimum: info.minimum, maximum: info.maximum, fuzz: info.fuzz, flat: info.flat,
                resolution: info.resolution)
        }
        return .success(description)
    }
}

/// A failed device operation: the C call, its errno (0 for end of file) and the device path.
public struct DeviceError: Error, Sendable, Hashable, CustomStringConvertible {
    public var errno: Int32
    public var call: String
    public var path: String

    public init(errno: Int32, call: String, path: String) {
        self.errno = errno
        self.call = call
        self.path = path
    }

    public var description: String {
        let subject = self.path.isEmpty ? self.call : "\(self.call) \(self.path)"
        guard self.errno != 0 else { return "\(subject): end of file" }
        return "\(subject): \(String(cString: strerror(self.errno))) [errno \(self.errno)]"
    }

    /// The device was unplugged (`ENODEV`) or the stream ended.
    public var isRemoval: Bool { self.errno == 0 || self.errno == ENODEV }
}
