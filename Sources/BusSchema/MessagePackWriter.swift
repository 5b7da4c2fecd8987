/// Appends MessagePack-encoded values to a reusable byte buffer.
///
/// Keep one writer per publisher and call ``reset()`` between messages: the buffer keeps
/// its capacity, so encoding allocates nothing once warm.
public struct MessagePackWriter: Sendable {
    public private(set) var bytes: [UInt8]

    /// Creates a writer whose buffer starts with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        self.bytes = []
        self.bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer and keeps its capacity.
    public mutating func reset() {
        self.bytes.removeAll(keepingCapacity: true)
    }

    public mutating func writeNil() {
        self.bytes.append(0xc0)
    }

    public mutating func write(_ value: Bool) {
        self.bytes.append(value ? 0xc3 : 0xc2)
    }

    /// Writes `value` in the shortest MessagePack integer form.
    public mutating func write(_ value: Int64) {
        if value >= 0 {
            self.write(UInt64(value))
        } else if value >= -32 {
            self.bytes.append(UInt8(bitPattern: Int8(value)))
        } else if value >= Int64(Int8.min) {
            self.bytes.append(0xd0)
            self.bytes.append(UInt8(bitPattern: Int8(value)))
        } else if value >= Int64(Int16.min) {
            self.bytes.append(0xd1)
            self.appendBigEndian(UInt16(bitPattern: Int16(value)))
        } else if value >= Int64(Int32.min) {
            self.bytes.append(0xd2)
            self.appendBigEndian(UInt32(bitPattern: Int32(value)))
        } else {
            self.bytes.append(0xd3)
            self.appendBigEndian(UInt64(bitPattern: value))
        }
    }

    public mutating func write(_ value: Int) {
        self.write(Int64(value))
    }

    /// Writes `value` in the shortest MessagePack unsigned integer form.
    public mutating func write(_ value: UInt64) {
        if value < 0x80 {
            self.bytes.append(UInt8(value))
        } else if value <= UInt64(UInt8.max) {
            self.bytes.append(0xcc)
            self.bytes.append(UInt8(value))
        } else if value <= UInt64(UInt16.max) {
            self.bytes.append(0xcd)
            self.appendBigEndian(UInt16(value))
        } else if value <= UInt64(UInt32.max) {
            self.bytes.append(0xce)
            self.appendBigEndian(UInt32(value))
        } else {
            self.bytes.append(0xcf)
            self.appendBigEndian(value)
        }
    }

    /// Writes a float64; whole numbers are written as floats too, so the type survives.
    public mutating func write(_ value: Double) {
        self.bytes.append(0xcb)
        self.appendBigEndian(value.bitPattern)
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
            self.bytes.append(contentsOf: utf8)
        }
    }

    /// Writes a bin value.
    public mutating func writeBinary(_ value: [UInt8]) {
        let count = value.count
        if count <= 0xff {
            self.bytes.append(0xc4)
            self.bytes.append(UInt8(count))
        } else if count <= 0xffff {
            self.bytes.append(0xc5)
            self.appendBigEndian(UInt16(count))
        } else {
            self.bytes.append(0xc6)
            self.appendBigEndian(UInt32(count))
        }
        self.bytes.append(contentsOf: value)
    }

    /// Starts an array of `count` values; the caller writes them next.
    public mutating func writeArrayHeader(_ count: Int) {
        if count < 16 {
            self.bytes.append(0x90 | UInt8(count))
        } else if count <= 0xffff {
            self.bytes.append(0xdc)
            self.appendBigEndian(UInt16(count))
        } else {
            self.bytes.append(0xdd)
            self.appendBigEndian(UInt32(count))
        }
    }

    /// Starts a map of `count` pairs; the caller writes key, value, key, value, … next.
    public mutating func writeMapHeader(_ count: Int) {
        if count < 16 {
            self.bytes.append(0x80 | UInt8(count))
        } else if count <= 0xffff {
            self.bytes.append(0xde)
            self.appendBigEndian(UInt16(count))
        } else {
            self.bytes.append(0xdf)
            self.appendBigEndian(UInt32(count))
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

    private mutating func writeStringHeader(_ count: Int) {
        if count < 32 {
            self.bytes.append(0xa0 | UInt8(count))
        } else if count <= 0xff {
            self.bytes.append(0xd9)
            self.bytes.append(UInt8(count))
        } else if count <= 0xffff {
            self.bytes.append(0xda)
            self.appendBigEndian(UInt16(count))
        } else {
            self.bytes.append(0xdb)
            self.appendBigEndian(UInt32(count))
        }
    }

    @inline(__always)
    private mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { self.bytes.append(contentsOf: $0) }
    }
}
