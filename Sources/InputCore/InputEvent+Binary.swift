import BusSchema

extension InputEvent {
    /// The size of `struct input_event` on 64-bit Linux: `timeval` (2 × 8 bytes), type, code, value.
    public static let binarySize = 24

    /// Decodes whole little-endian `struct input_event` records, as `read(2)` returns them from
    /// `/dev/input/eventN`.
    ///
    /// - Parameter bytes: a multiple of ``binarySize`` bytes; a trailing partial record is ignored
    ///   and its length returned in `leftover` so the caller can keep it for the next read.
    public static func decode(_ bytes: UnsafeRawBufferPointer) -> (events: [InputEvent], leftover: Int) {
        let count = bytes.count / Self.binarySize
        var events: [InputEvent] = []
        events.reserveCapacity(count)
        for index in 0..<count {
            let base = index * Self.binarySize
            let seconds = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: base, as: Int64.self))
            let micros = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: base + 8, as: Int64.self))
            events.append(
                InputEvent(
                    time: SourceInstant(nanoseconds: seconds &* 1_000_000_000 &+ micros &* 1000),
                    type: UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: base + 16, as: UInt16.self)),
                    code: UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: base + 18, as: UInt16.self)),
                    value: Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: base + 20, as: Int32.self))))
        }
        return (events, bytes.count - count * Self.binarySize)
    }

    /// This event as a little-endian `struct input_event` record (the inverse of ``decode(_:)``).
    public var binary: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.binarySize)
        withUnsafeBytes(of: (self.time.nanoseconds / 1_000_000_000).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: (self.time.nanoseconds % 1_000_000_000 / 1000).littleEndian) {
            bytes.append(contentsOf: $0)
        }
        withUnsafeBytes(of: self.type.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: self.code.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: self.value.littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }
}
