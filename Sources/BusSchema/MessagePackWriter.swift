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

    /// Makes room for `count` more bytes and returns where they go.
    @inline(__always)
    private mutating func claim(_ count: Int) -> UnsafeMutableRawPointer {
        if self.storage.count + count > self.storage.capacity { self.storage.grow(toHold: self.storage.count + count) }
        let pointer = self.storage.base + self.storage.count
        self.storage.count += count
        return pointer
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        self.claim(1).storeBytes(of: byte, as: UInt8.self)
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8, _ value: UInt16) {
        let pointer = self.claim(3)
        pointer.storeBytes(of: byte, as: UInt8.self)
        pointer.storeBytes(of: value.bigEndian, toByteOffset: 1, as: UInt16.self)
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8, _ value: UInt32) {
        let pointer = self.claim(5)
        pointer.storeBytes(of: byte, as: UInt8.self)
        pointer.storeBytes(of: value.bigEndian, toByteOffset: 1, as: UInt32.self)
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8, _ value: UInt64) {
        let pointer = self.claim(9)
        pointer.storeBytes(of: byte, as: UInt8.self)
        pointer.storeBytes(of: value.bigEndian, toByteOffset: 1, as: UInt64.self)
    }

    @inline(__always)
    private mutating func append(_ raw: UnsafeRawBufferPointer) {
        guard let source = raw.baseAddress, raw.count > 0 else { return }
        self.claim(raw.count).copyMemory(from: source, byteCount: raw.count)
    }

    public mutating func writeNil() {
        self.append(0xc0)
    }

    public mutating func write(_ value: Bool) {
        self.append(value ? 0xc3 : 0xc2)
    }

    /// Writes `value` in the shortest MessagePack integer form.
    public mutating func write(_ value: Int64) {
        if value >= 0 {
            self.write(UInt64(value))
        } else if value >= -32 {
            self.append(UInt8(bitPattern: Int8(value)))
        } else if value >= Int64(Int8.min) {
            self.append(0xd0)
            self.append(UInt8(bitPattern: Int8(value)))
        } else if value >= Int64(Int16.min) {
            self.append(0xd1, UInt16(bitPattern: Int16(value)))
        } else if value >= Int64(Int32.min) {
            self.append(0xd2, UInt32(bitPattern: Int32(value)))
        } else {
            self.append(0xd3, UInt64(bitPattern: value))
        }
    }

    public mutating func write(_ value: Int) {
        self.write(Int64(value))
    }

    /// Writes `value` in the shortest MessagePack unsigned integer form.
    public mutating func write(_ value: UInt64) {
        if value < 0x80 {
            self.append(UInt8(value))
        } else if value <= UInt64(UInt8.max) {
            self.append(0xcc)
            self.append(UInt8(value))
        } else if value <= UInt64(UInt16.max) {
            self.append(0xcd, UInt16(value))
        } else if value <= UInt64(UInt32.max) {
            self.append(0xce, UInt32(value))
        } else {
            self.append(0xcf, value)
        }
    }

    /// Writes `value` as a uint64 in all nine bytes, whatever its size, so it can sit at a fixed offset.
    public mutating func writeFixedWidth(_ value: UInt64) {
        self.append(0xcf, value)
    }

    /// Appends bytes that are already MessagePack (a cached, pre-encoded part of a message).
    public mutating func writeRaw(_ bytes: UnsafeRawBufferPointer) {
        self.append(bytes)
    }

    /// Writes a float64; whole numbers are written as floats too, so the type survives.
    public mutating func write(_ value: Double) {
        self.append(0xcb, value.bitPattern)
    }

    /// Writes a whole number as an integer and any other number as a float64, so JSON shows `42`
    /// rather than `42.0` and schemas that ask for a number accept either.
    public mutating func writeNumber(_ value: Double) {
        // Range-check first: Int64(_:) traps outside its range (and on NaN).
        if value > -9.0e15, value < 9.0e15, Double(Int64(value)) == value {
            self.write(Int64(value))
        } else {
            self.write(value)
        }
    }

    public mutating func write(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            self.writeStringHeader(utf8.count)
            self.append(UnsafeRawBufferPointer(utf8))
        }
    }

    /// Writes a map key (or any constant string) straight from its static bytes.
    @inline(__always)
    public mutating func writeKey(_ key: StaticString) {
        let count = key.utf8CodeUnitCount
        self.writeStringHeader(count)
        self.append(UnsafeRawBufferPointer(start: key.utf8Start, count: count))
    }

    /// Writes a bin value.
    public mutating func writeBinary(_ value: [UInt8]) {
        let count = value.count
        if count <= 0xff {
            self.append(0xc4)
            self.append(UInt8(count))
        } else if count <= 0xffff {
            self.append(0xc5, UInt16(count))
        } else {
            self.append(0xc6, UInt32(count))
        }
        value.withUnsafeBytes { self.append($0) }
    }

    /// Starts an array of `count` values; the caller writes them next.
    public mutating func writeArrayHeader(_ count: Int) {
        if count < 16 {
            self.append(0x90 | UInt8(count))
        } else if count <= 0xffff {
            self.append(0xdc, UInt16(count))
        } else {
            self.append(0xdd, UInt32(count))
        }
    }

    /// Starts a map of `count` pairs; the caller writes key, value, key, value, … next.
    public mutating func writeMapHeader(_ count: Int) {
        if count < 16 {
            self.append(0x80 | UInt8(count))
        } else if count <= 0xffff {
            self.append(0xde, UInt16(count))
        } else {
            self.append(0xdf, UInt32(count))
        }
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

    @inline(__always)
    private mutating func writeStringHeader(_ count: Int) {
        if count < 32 {
            self.append(0xa0 | UInt8(count))
        } else if count <= 0xff {
            self.append(0xd9)
            self.append(UInt8(count))
        } else if count <= 0xffff {
            self.append(0xda, UInt16(count))
        } else {
            self.append(0xdb, UInt32(count))
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
