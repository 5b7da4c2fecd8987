/// Writes MessagePack values into memory that ``MessagePackWriter`` has already reserved.
///
/// Every scalar encoding of the writer lives here, once: the writer reserves the most a value
/// can take and hands the bytes to a cursor, and a message that knows its worst-case size (a
/// touch frame) reserves once and writes all of its values with no capacity check between them.
struct MessagePackCursor {
    var pointer: UnsafeMutableRawPointer

    init(_ pointer: UnsafeMutableRawPointer) {
        self.pointer = pointer
    }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        self.pointer.storeBytes(of: byte, as: UInt8.self)
        self.pointer += 1
    }

    @inline(__always)
    mutating func put<T: FixedWidthInteger>(_ byte: UInt8, _ value: T) {
        self.pointer.storeBytes(of: byte, as: UInt8.self)
        (self.pointer + 1).storeBytes(of: value.bigEndian, as: T.self)
        self.pointer += 1 + MemoryLayout<T>.size
    }

    @inline(__always)
    mutating func put(_ raw: UnsafeRawBufferPointer) {
        guard let source = raw.baseAddress, raw.count > 0 else { return }
        self.pointer.copyMemory(from: source, byteCount: raw.count)
        self.pointer += raw.count
    }

    /// Writes `value` in the shortest MessagePack integer form (at most 9 bytes).
    @inline(__always)
    mutating func write(_ value: Int64) {
        if value >= 0 {
            self.write(UInt64(value))
        } else if value >= -32 {
            self.put(UInt8(bitPattern: Int8(value)))
        } else if value >= Int64(Int8.min) {
            self.put(0xd0, UInt8(bitPattern: Int8(value)))
        } else if value >= Int64(Int16.min) {
            self.put(0xd1, UInt16(bitPattern: Int16(value)))
        } else if value >= Int64(Int32.min) {
            self.put(0xd2, UInt32(bitPattern: Int32(value)))
        } else {
            self.put(0xd3, UInt64(bitPattern: value))
        }
    }

    /// Writes `value` in the shortest MessagePack unsigned integer form (at most 9 bytes).
    @inline(__always)
    mutating func write(_ value: UInt64) {
        if value < 0x80 {
            self.put(UInt8(value))
        } else if value <= UInt64(UInt8.max) {
            self.put(0xcc, UInt8(value))
        } else if value <= UInt64(UInt16.max) {
            self.put(0xcd, UInt16(value))
        } else if value <= UInt64(UInt32.max) {
            self.put(0xce, UInt32(value))
        } else {
            self.put(0xcf, value)
        }
    }

    /// Writes a float64 (9 bytes).
    @inline(__always)
    mutating func write(_ value: Double) {
        self.put(0xcb, value.bitPattern)
    }

    /// Writes a whole number as an integer and any other number as a float64 (at most 9 bytes).
    @inline(__always)
    mutating func writeNumber(_ value: Double) {
        // Zero first (and −0, which the integer form writes as 0 too): most of a state's offsets.
        if value == 0 {
            self.put(0)
            return
        }
        // Range-check first: Int64(_:) traps outside its range (and on NaN).
        if value > -9.0e15, value < 9.0e15, Double(Int64(value)) == value {
            self.write(Int64(value))
        } else {
            self.write(value)
        }
    }

    /// Writes a constant string (a map key, an enum's wire name): at most 5 + its length bytes.
    @inline(__always)
    mutating func writeKey(_ key: StaticString) {
        let count = key.utf8CodeUnitCount
        self.writeStringHeader(count)
        self.put(UnsafeRawBufferPointer(start: key.utf8Start, count: count))
    }

    /// Writes a string header and the UTF-8 bytes: at most 5 + `utf8.count` bytes.
    @inline(__always)
    mutating func writeString(_ utf8: UnsafeRawBufferPointer) {
        self.writeStringHeader(utf8.count)
        self.put(utf8)
    }

    /// Writes a string header (at most 5 bytes).
    @inline(__always)
    mutating func writeStringHeader(_ count: Int) {
        self.writeCount(count, fix: 0xa0, fixLimit: 32, count8: 0xd9, count16: 0xda)
    }

    /// Writes a bin header (at most 5 bytes).
    @inline(__always)
    mutating func writeBinaryHeader(_ count: Int) {
        self.writeCount(count, fix: 0, fixLimit: 0, count8: 0xc4, count16: 0xc5)
    }

    /// Starts an array of `count` values (at most 5 bytes).
    @inline(__always)
    mutating func writeArrayHeader(_ count: Int) {
        self.writeCount(count, fix: 0x90, fixLimit: 16, count8: nil, count16: 0xdc)
    }

    /// Starts a map of `count` pairs (at most 5 bytes).
    @inline(__always)
    mutating func writeMapHeader(_ count: Int) {
        self.writeCount(count, fix: 0x80, fixLimit: 16, count8: nil, count16: 0xde)
    }

    /// Writes the count that starts a string, a bin, an array or a map, as MessagePack writes all
    /// four: below `fixLimit` in the low bits of `fix`, else after the type byte `count8` (8 bits;
    /// nil for arrays and maps), `count16` (16 bits) or the one after it (32 bits).
    @inline(__always)
    private mutating func writeCount(_ count: Int, fix: UInt8, fixLimit: Int, count8: UInt8?, count16: UInt8) {
        if count < fixLimit {
            self.put(fix | UInt8(count))
        } else if let count8, count <= 0xff {
            self.put(count8, UInt8(count))
        } else if count <= 0xffff {
            self.put(count16, UInt16(count))
        } else {
            self.put(count16 + 1, UInt32(count))
        }
    }
}
