/// Reads MessagePack values from borrowed bytes, checking every length against the input.
///
/// The reader never traps on bad input: every malformed byte sequence throws a
/// ``CodecError`` with the offset where it was found.
///
/// ```swift
/// let frame = try bytes.withUnsafeBytes { raw in
///     var reader = MessagePackReader(raw)
///     return try TouchFrame(from: &reader)
/// }
/// ```
public struct MessagePackReader {
    /// The deepest nesting ``readValue()`` and ``skip()`` accept.
    public static let maximumDepth = 64

    public let bytes: UnsafeRawBufferPointer
    public private(set) var offset: Int
    /// `bytes` as a plain pointer and length: every read checks against `count` itself, so the
    /// buffer's own (slice-building, rebasing) accessors stay off the hot path.
    let base: UnsafeRawPointer
    let count: Int

    /// Creates a reader at the start of `bytes`; the bytes must outlive the reader.
    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.offset = 0
        self.count = bytes.count
        // An empty buffer may have no address; nothing is ever read from it then.
        self.base = bytes.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(bitPattern: 1)!
    }

    public var isAtEnd: Bool { self.offset >= self.count }

    /// Throws unless every byte has been read.
    public func expectEnd() throws {
        if !self.isAtEnd { throw CodecError(.trailingBytes, offset: self.offset) }
    }

    /// Reads a nil if one comes next and reports whether it did.
    public mutating func readNil() throws -> Bool {
        guard try self.peekByte() == 0xc0 else { return false }
        self.offset += 1
        return true
    }

    public mutating func readBool() throws -> Bool {
        switch try self.peekByte() {
        case 0xc2:
            self.offset += 1
            return false
        case 0xc3:
            self.offset += 1
            return true
        default: throw self.mismatch("boolean")
        }
    }

    /// Reads any MessagePack integer that fits in `Int64`.
    public mutating func readInt() throws -> Int64 {
        let start = self.offset
        let byte = try self.peekByte()
        switch byte {
        case 0x00...0x7f:
            self.offset += 1
            return Int64(byte)
        case 0xe0...0xff:
            self.offset += 1
            return Int64(Int8(bitPattern: byte))
        case 0xcc:
            self.offset += 1
            return Int64(try self.readBigEndian(UInt8.self))
        case 0xcd:
            self.offset += 1
            return Int64(try self.readBigEndian(UInt16.self))
        case 0xce:
            self.offset += 1
            return Int64(try self.readBigEndian(UInt32.self))
        case 0xcf:
            self.offset += 1
            let value = try self.readBigEndian(UInt64.self)
            guard let int = Int64(exactly: value) else {
                throw CodecError(.invalidValue, offset: start, context: "integer above Int64.max")
            }
            return int
        case 0xd0:
            self.offset += 1
            return Int64(Int8(bitPattern: try self.readBigEndian(UInt8.self)))
        case 0xd1:
            self.offset += 1
            return Int64(Int16(bitPattern: try self.readBigEndian(UInt16.self)))
        case 0xd2:
            self.offset += 1
            return Int64(Int32(bitPattern: try self.readBigEndian(UInt32.self)))
        case 0xd3:
            self.offset += 1
            return Int64(bitPattern: try self.readBigEndian(UInt64.self))
        default: throw self.mismatch("integer")
        }
    }

    /// Reads a non-negative MessagePack integer.
    public mutating func readUInt() throws -> UInt64 {
        if try self.peekByte() == 0xcf {
            self.offset += 1
            return try self.readBigEndian(UInt64.self)
        }
        let start = self.offset
        let value = try self.readInt()
        guard let unsigned = UInt64(exactly: value) else {
            throw CodecError(.invalidValue, offset: start, context: "negative where unsigned expected")
        }
        return unsigned
    }

    /// Reads a number: float64, float32 or any integer.
    public mutating func readDouble() throws -> Double {
        switch try self.peekByte() {
        case 0xcb:
            self.offset += 1
            return Double(bitPattern: try self.readBigEndian(UInt64.self))
        case 0xca:
            self.offset += 1
            return Double(Float(bitPattern: try self.readBigEndian(UInt32.self)))
        case 0xcf:
            return Double(try self.readUInt())
        default:
            return Double(try self.readInt())
        }
    }

    /// Reads a UTF-8 string, rejecting invalid UTF-8.
    public mutating func readString() throws -> String {
        let start = self.offset
        guard let string = String(validatedUTF8: try self.readStringBytes()) else {
            throw CodecError(.invalidUTF8, offset: start)
        }
        return string
    }

    /// Reads a string's bytes without copying them; they live as long as the input.
    public mutating func readStringBytes() throws -> UnsafeRawBufferPointer {
        try self.take(try self.readCount(fix: 0xa0...0xbf, count8: 0xd9, count16: 0xda, "string"))
    }

    /// Reads a bin value.
    public mutating func readBinary() throws -> [UInt8] {
        Array(try self.readBinaryBytes())
    }

    /// Reads a bin value's bytes without copying them; they live as long as the input.
    public mutating func readBinaryBytes() throws -> UnsafeRawBufferPointer {
        try self.take(try self.readCount(fix: nil, count8: 0xc4, count16: 0xc5, "binary"))
    }

    /// Reads an array header and returns how many values follow.
    public mutating func readArrayHeader() throws -> Int {
        let count = try self.readCount(fix: 0x90...0x9f, count8: nil, count16: 0xdc, "array")
        try self.checkPlausibleCount(count)
        return count
    }

    /// Reads a map header and returns how many key/value pairs follow.
    public mutating func readMapHeader() throws -> Int {
        let count = try self.readCount(fix: 0x80...0x8f, count8: nil, count16: 0xde, "map")
        try self.checkPlausibleCount(count * 2)
        return count
    }

    /// Reads the count that starts a string, a bin, an array or a map, as MessagePack writes all
    /// four: a small one in the low bits of a type byte in `fix`, a larger one after the type byte
    /// `count8` (8 bits; nil for arrays and maps), `count16` (16 bits) or the one after it (32 bits).
    ///
    /// - Throws: a type mismatch naming `expected` for any other type byte.
    @inline(__always)
    private mutating func readCount(fix: ClosedRange<UInt8>?, count8: UInt8?, count16: UInt8, _ expected: String)
        throws -> Int
    {
        let byte = try self.peekByte()
        if let fix, fix.contains(byte) {
            self.offset += 1
            return Int(byte - fix.lowerBound)
        }
        if byte == count8 {
            self.offset += 1
            return Int(try self.readBigEndian(UInt8.self))
        }
        if byte == count16 {
            self.offset += 1
            return Int(try self.readBigEndian(UInt16.self))
        }
        if byte == count16 + 1 {
            self.offset += 1
            return Int(try self.readBigEndian(UInt32.self))
        }
        throw self.mismatch(expected)
    }

    /// Reads a map, calling `field` with each key; `field` must read or ``skip()`` the value.
    public mutating func readMap(_ field: (inout MessagePackReader, MessagePackKey) throws -> Void) throws {
        let count = try self.readMapHeader()
        for _ in 0..<count { try field(&self, try self.readKey()) }
    }

    /// Reads a map key, borrowed from the input.
    ///
    /// - Throws: ``CodecError`` `non_string_key` for a key that is not a string.
    public mutating func readKey() throws -> MessagePackKey {
        let keyOffset = self.offset
        let key: UnsafeRawBufferPointer
        // Keys are short strings (fixstr) almost always: take them inline.
        let byte = self.offset < self.count ? self.base.load(fromByteOffset: self.offset, as: UInt8.self) : 0
        if byte & 0xe0 == 0xa0, Int(byte & 0x1f) < self.count - self.offset {
            key = UnsafeRawBufferPointer(start: self.base + self.offset + 1, count: Int(byte & 0x1f))
            self.offset += 1 + Int(byte & 0x1f)
        } else {
            do {
                key = try self.readStringBytes()
            } catch let error as CodecError where error.code == .typeMismatch {
                throw CodecError(.nonStringKey, offset: keyOffset)
            }
        }
        return MessagePackKey(bytes: key, offset: keyOffset)
    }

    /// Moves to `offset`, past bytes a ``MessagePackScanner`` has read.
    mutating func skip(to offset: Int) {
        self.offset = offset
    }

    /// Skips one value of any type, however deeply nested (up to ``maximumDepth``), checking it
    /// as ``readValue()`` does (valid UTF-8, string keys) without building it: nothing is allocated.
    ///
    /// - Throws: ``CodecError`` where ``readValue()`` would.
    public mutating func skip() throws {
        try self.skip(depth: 0)
    }

    private mutating func skip(depth: Int) throws {
        guard depth < Self.maximumDepth else { throw CodecError(.tooDeep, offset: self.offset) }
        let byte = try self.peekByte()
        switch byte {
        case 0xc0: self.offset += 1
        case 0xc2, 0xc3: _ = try self.readBool()
        case 0xcf: _ = try self.readUInt()
        case 0x00...0x7f, 0xe0...0xff, 0xcc...0xce, 0xd0...0xd3: _ = try self.readInt()
        case 0xca, 0xcb: _ = try self.readDouble()
        case 0xa0...0xbf, 0xd9...0xdb: try self.skipString()
        case 0xc4...0xc6: _ = try self.readBinaryBytes()
        case 0x90...0x9f, 0xdc, 0xdd:
            for _ in 0..<(try self.readArrayHeader()) { try self.skip(depth: depth + 1) }
        case 0x80...0x8f, 0xde, 0xdf:
            for _ in 0..<(try self.readMapHeader()) {
                guard (try? self.peekStringKind()) == true else { throw CodecError(.nonStringKey, offset: self.offset) }
                try self.skipString()
                try self.skip(depth: depth + 1)
            }
        default: throw Self.invalidTypeByte(byte, at: self.offset)
        }
    }

    private mutating func skipString() throws {
        let start = self.offset
        guard String.isValidUTF8(try self.readStringBytes()) else { throw CodecError(.invalidUTF8, offset: start) }
    }

    /// 0xc1 is never used; 0xc7–0xc9 and 0xd4–0xd8 are extension types UIBus does not send.
    private static func invalidTypeByte(_ byte: UInt8, at offset: Int) -> CodecError {
        CodecError(.invalidByte, offset: offset, context: "type byte 0x\(String(byte, radix: 16))")
    }

    /// Reads one value of any type.
    public mutating func readValue() throws -> Value {
        try self.readValue(depth: 0)
    }

    private mutating func readValue(depth: Int) throws -> Value {
        guard depth < Self.maximumDepth else { throw CodecError(.tooDeep, offset: self.offset) }
        let byte = try self.peekByte()
        switch byte {
        case 0xc0:
            self.offset += 1
            return .null
        case 0xc2, 0xc3: return .bool(try self.readBool())
        case 0xcf: return Value(try self.readUInt())
        case 0x00...0x7f, 0xe0...0xff, 0xcc...0xce, 0xd0...0xd3: return .int(try self.readInt())
        case 0xca, 0xcb: return .double(try self.readDouble())
        case 0xa0...0xbf, 0xd9...0xdb: return .string(try self.readString())
        case 0xc4...0xc6: return .binary(try self.readBinary())
        case 0x90...0x9f, 0xdc, 0xdd:
            let count = try self.readArrayHeader()
            var array: [Value] = []
            array.reserveCapacity(count)
            for _ in 0..<count { array.append(try self.readValue(depth: depth + 1)) }
            return .array(array)
        case 0x80...0x8f, 0xde, 0xdf:
            let count = try self.readMapHeader()
            var pairs: [(String, Value)] = []
            pairs.reserveCapacity(count)
            for _ in 0..<count {
                let keyOffset = self.offset
                guard (try? self.peekStringKind()) == true else {
                    throw CodecError(.nonStringKey, offset: keyOffset)
                }
                let key = try self.readString()
                pairs.append((key, try self.readValue(depth: depth + 1)))
            }
            return .map(ValueMap(pairs))
        default: throw Self.invalidTypeByte(byte, at: self.offset)
        }
    }

    private func peekStringKind() throws -> Bool {
        switch try self.peekByte() {
        case 0xa0...0xbf, 0xd9...0xdb: return true
        default: return false
        }
    }

    @inline(__always)
    private func peekByte() throws -> UInt8 {
        guard self.offset < self.count else { throw CodecError(.truncated, offset: self.offset) }
        return self.base.load(fromByteOffset: self.offset, as: UInt8.self)
    }

    @inline(__always)
    private mutating func readBigEndian<T: FixedWidthInteger>(_: T.Type) throws -> T {
        let size = MemoryLayout<T>.size
        guard self.count - self.offset >= size else {
            throw CodecError(.truncated, offset: self.offset)
        }
        let value = self.base.loadUnaligned(fromByteOffset: self.offset, as: T.self)
        self.offset += size
        return T(bigEndian: value)
    }

    @inline(__always)
    private mutating func take(_ count: Int) throws -> UnsafeRawBufferPointer {
        guard self.count - self.offset >= count else {
            throw CodecError(.truncated, offset: self.offset)
        }
        let slice = UnsafeRawBufferPointer(start: self.base + self.offset, count: count)
        self.offset += count
        return slice
    }

    /// Every value takes at least one byte, so a count larger than what is left is a lie.
    private func checkPlausibleCount(_ count: Int) throws {
        guard count <= self.count - self.offset else {
            throw CodecError(.truncated, offset: self.offset, context: "count \(count) exceeds input")
        }
    }

    private func mismatch(_ expected: String) -> CodecError {
        let found = self.offset < self.count ? "0x\(String(self.bytes[self.offset], radix: 16))" : "end"
        return CodecError(.typeMismatch, offset: self.offset, context: "expected \(expected), found \(found)")
    }
}

extension Value {
    /// Decodes one complete MessagePack value from `bytes`.
    ///
    /// - Throws: ``CodecError`` for malformed input or bytes left over.
    public init(messagePack bytes: [UInt8]) throws {
        self = try bytes.withUnsafeBytes { raw in
            var reader = MessagePackReader(raw)
            let value = try reader.readValue()
            try reader.expectEnd()
            return value
        }
    }

    /// This value encoded as MessagePack.
    public var messagePack: [UInt8] {
        var writer = MessagePackWriter()
        writer.write(self)
        return writer.bytes
    }
}
