/// Appends MessagePack-encoded values to a reusable byte buffer.
///
/// Keep one writer per publisher and call ``reset()`` between messages: the buffer keeps
/// its capacity, so encoding allocates nothing once warm. The buffer is raw memory written
/// through a pointer (an `Array` append per byte cost more than the encoding itself), and the
/// writer cannot be copied, so no write ever pays for a copy-on-write check: pass it `inout`.
public struct MessagePackWriter: ~Copyable, @unchecked Sendable {
    private var storage: ByteStorage

    /// Creates a writer whose buffer starts with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        self.storage = ByteStorage(capacity: capacity)
    }

    /// How many bytes have been written.
    public var count: Int { self.storage.count }

    /// A copy of the bytes written so far.
    public var bytes: [UInt8] {
        self.withUnsafeBytes { Array($0) }
    }

    /// Calls `body` with the bytes written so far, without copying them.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: self.storage.base, count: self.storage.count))
    }

    /// Empties the buffer and keeps its capacity.
    public mutating func reset() {
        self.storage.count = 0
    }

    /// Reserves `maximum` bytes, lets `body` write at most that many through a cursor and keeps
    /// what it wrote: one capacity check for any number of values.
    @inline(__always)
    mutating func withReserved<R>(_ maximum: Int, _ body: (inout MessagePackCursor) -> R) -> R {
        if self.storage.count + maximum > self.storage.capacity {
            self.storage.grow(toHold: self.storage.count + maximum)
        }
        let start = self.storage.base + self.storage.count
        var cursor = MessagePackCursor(start)
        let result = body(&cursor)
        self.storage.count += cursor.pointer - start
        return result
    }

    public mutating func writeNil() {
        self.withReserved(1) { $0.put(0xc0) }
    }

    public mutating func write(_ value: Bool) {
        self.withReserved(1) { $0.put(value ? 0xc3 : 0xc2) }
    }

    /// Writes `value` in the shortest MessagePack integer form.
    public mutating func write(_ value: Int64) {
        self.withReserved(9) { $0.write(value) }
    }

    public mutating func write(_ value: Int) {
        self.write(Int64(value))
    }

    /// Writes `value` in the shortest MessagePack unsigned integer form.
    public mutating func write(_ value: UInt64) {
        self.withReserved(9) { $0.write(value) }
    }

    /// Writes `value` as a uint64 in all nine bytes, whatever its size, so it can sit at a fixed offset.
    public mutating func writeFixedWidth(_ value: UInt64) {
        self.withReserved(9) { $0.put(0xcf, value) }
    }

    /// Appends bytes that are already MessagePack (a cached, pre-encoded part of a message).
    public mutating func writeRaw(_ bytes: UnsafeRawBufferPointer) {
        self.withReserved(bytes.count) { $0.put(bytes) }
    }

    /// Writes a float64; whole numbers are written as floats too, so the type survives.
    public mutating func write(_ value: Double) {
        self.withReserved(9) { $0.write(value) }
    }

    /// Writes a whole number as an integer and any other number as a float64, so JSON shows `42`
    /// rather than `42.0` and schemas that ask for a number accept either.
    public mutating func writeNumber(_ value: Double) {
        self.withReserved(9) { $0.writeNumber(value) }
    }

    /// Writes `values` as an array of numbers, each as ``writeNumber(_:)`` writes it, with one
    /// capacity check for the whole array.
    public mutating func writeNumbers(_ values: [Double]) {
        self.writeArrayHeader(values.count)
        self.withReserved(9 * values.count) { cursor in
            for value in values { cursor.writeNumber(value) }
        }
    }

    public mutating func write(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            let raw = UnsafeRawBufferPointer(utf8)
            self.withReserved(5 + raw.count) { $0.writeString(raw) }
        }
    }

    /// Writes a map key (or any constant string) straight from its static bytes.
    @inline(__always)
    public mutating func writeKey(_ key: StaticString) {
        self.withReserved(5 + key.utf8CodeUnitCount) { $0.writeKey(key) }
    }

    /// Writes a bin value.
    public mutating func writeBinary(_ value: [UInt8]) {
        let count = value.count
        value.withUnsafeBytes { raw in
            self.withReserved(5 + count) { cursor in
                cursor.writeBinaryHeader(count)
                cursor.put(raw)
            }
        }
    }

    /// Starts an array of `count` values; the caller writes them next.
    public mutating func writeArrayHeader(_ count: Int) {
        self.withReserved(5) { $0.writeArrayHeader(count) }
    }

    /// Starts a map of `count` pairs; the caller writes key, value, key, value, … next.
    public mutating func writeMapHeader(_ count: Int) {
        self.withReserved(5) { $0.writeMapHeader(count) }
    }

    /// Writes a dynamically typed value.
    public mutating func write(_ value: Value) {
        switch value {
        case .null: self.writeNil()
        case .bool(let bool): self.write(bool)
        case .int(let int): self.write(int)
        case .uint(let uint): self.write(uint)
        case .double(let double): self.write(double)
        case .string(let string): self.write(string)
        case .binary(let bytes): self.writeBinary(bytes)
        case .array(let array):
            self.writeArrayHeader(array.count)
            for element in array { self.write(element) }
        case .map(let map):
            self.writeMapHeader(map.count)
            for (key, element) in map {
                self.write(key)
                self.write(element)
            }
        }
    }
}

/// The writer's growable buffer, owned by exactly one (non-copyable) writer.
final class ByteStorage {
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int
    var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        self.base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 8)
    }

    deinit {
        self.base.deallocate()
    }

    /// Grows (doubling) until `size` bytes fit.
    func grow(toHold size: Int) {
        var capacity = self.capacity
        while capacity < size { capacity *= 2 }
        let base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        base.copyMemory(from: self.base, byteCount: self.count)
        self.base.deallocate()
        self.base = base
        self.capacity = capacity
    }
}
