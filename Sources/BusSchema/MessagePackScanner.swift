/// Reads MessagePack in one expected layout without throwing: each read returns nil (or false)
/// when the bytes are not exactly the form asked for, and the caller falls back to
/// ``MessagePackReader``'s general decoding.
///
/// Only the forms UIBus's own encoders write are accepted (fixmap and map16, fixarray, fixstr,
/// float64, integers); everything else is valid MessagePack that the general path handles.
struct MessagePackScanner {
    private let base: UnsafeRawPointer
    private let count: Int
    private(set) var offset: Int

    init(base: UnsafeRawPointer, count: Int, offset: Int) {
        self.base = base
        self.count = count
        self.offset = offset
    }

    @inline(__always)
    private func byte(at offset: Int) -> UInt8 {
        self.base.load(fromByteOffset: offset, as: UInt8.self)
    }

    /// Consumes `literal` if it comes next as a fixstr: a key or an enum's wire name.
    @inline(__always)
    mutating func literal(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard self.count - self.offset > length, self.byte(at: self.offset) == 0xa0 | UInt8(length) else {
            return false
        }
        guard bytesEqual(literal.utf8Start, self.base + self.offset + 1, count: length) else { return false }
        self.offset += 1 + length
        return true
    }

    /// A fixstr's bytes, borrowed from the input.
    @inline(__always)
    mutating func string() -> UnsafeRawBufferPointer? {
        guard self.offset < self.count else { return nil }
        let byte = self.byte(at: self.offset)
        let length = Int(byte & 0x1f)
        guard byte & 0xe0 == 0xa0, self.count - self.offset > length else { return nil }
        defer { self.offset += 1 + length }
        return UnsafeRawBufferPointer(start: self.base + self.offset + 1, count: length)
    }

    /// A fixstr as a string: `existing` itself if it has the same bytes (a stream of messages
    /// names the same device or view over and over), else a new string of valid UTF-8.
    @inline(__always)
    mutating func string(reusing existing: String) -> String? {
        guard let bytes = self.string() else { return nil }
        let same =
            existing.utf8.withContiguousStorageIfAvailable {
                $0.count == bytes.count
                    && (bytes.isEmpty || bytesEqual($0.baseAddress!, bytes.baseAddress!, count: bytes.count))
            } ?? false
        return same ? existing : String(validatedUTF8: bytes)
    }

    /// A map's pair count: a fixmap, or a map16 (a gesture event with most of its optional fields
    /// has more than 15).
    @inline(__always)
    mutating func mapHeader() -> Int? {
        guard self.offset < self.count else { return nil }
        let byte = self.byte(at: self.offset)
        if byte & 0xf0 == 0x80 {
            self.offset += 1
            return Int(byte & 0x0f)
        }
        guard byte == 0xde, self.count - self.offset > 2 else { return nil }
        defer { self.offset += 3 }
        return Int(UInt16(bigEndian: self.base.loadUnaligned(fromByteOffset: self.offset + 1, as: UInt16.self)))
    }

    /// A fixarray's element count.
    @inline(__always)
    mutating func arrayHeader() -> Int? {
        guard self.offset < self.count, self.byte(at: self.offset) & 0xf0 == 0x90 else { return nil }
        defer { self.offset += 1 }
        return Int(self.byte(at: self.offset) & 0x0f)
    }

    /// A float64.
    @inline(__always)
    mutating func float64() -> Double? {
        guard self.count - self.offset >= 9, self.byte(at: self.offset) == 0xcb else { return nil }
        defer { self.offset += 9 }
        return Double(
            bitPattern: UInt64(bigEndian: self.base.loadUnaligned(fromByteOffset: self.offset + 1, as: UInt64.self)))
    }

    /// A non-negative integer in any unsigned form.
    @inline(__always)
    mutating func unsigned() -> UInt64? {
        guard self.offset < self.count else { return nil }
        let byte = self.byte(at: self.offset)
        if byte < 0x80 {
            self.offset += 1
            return UInt64(byte)
        }
        guard byte >= 0xcc, byte <= 0xcf else { return nil }
        let size = 1 << Int(byte - 0xcc)
        guard self.count - self.offset > size else { return nil }
        let start = self.offset + 1
        self.offset += 1 + size
        switch size {
        case 1: return UInt64(self.byte(at: start))
        case 2: return UInt64(UInt16(bigEndian: self.base.loadUnaligned(fromByteOffset: start, as: UInt16.self)))
        case 4: return UInt64(UInt32(bigEndian: self.base.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
        default: return UInt64(bigEndian: self.base.loadUnaligned(fromByteOffset: start, as: UInt64.self))
        }
    }

    /// A non-negative integer that fits in `Int64`.
    @inline(__always)
    mutating func nonNegative() -> Int64? {
        let start = self.offset
        guard let value = self.unsigned(), let int = Int64(exactly: value) else {
            self.offset = start
            return nil
        }
        return int
    }

    /// An integer in any form that fits in `Int64`.
    @inline(__always)
    mutating func signed() -> Int64? {
        guard self.offset < self.count else { return nil }
        let byte = self.byte(at: self.offset)
        if byte >= 0xe0 {
            self.offset += 1
            return Int64(Int8(bitPattern: byte))
        }
        guard byte >= 0xd0, byte <= 0xd3 else { return self.nonNegative() }
        let size = 1 << Int(byte - 0xd0)
        guard self.count - self.offset > size else { return nil }
        let start = self.offset + 1
        self.offset += 1 + size
        switch size {
        case 1: return Int64(Int8(bitPattern: self.byte(at: start)))
        case 2: return Int64(Int16(bigEndian: self.base.loadUnaligned(fromByteOffset: start, as: Int16.self)))
        case 4: return Int64(Int32(bigEndian: self.base.loadUnaligned(fromByteOffset: start, as: Int32.self)))
        default: return Int64(bigEndian: self.base.loadUnaligned(fromByteOffset: start, as: Int64.self))
        }
    }

    /// A number as ``MessagePackReader/readDouble()`` reads it, float32 aside: a float64, or an
    /// integer in any form (`writeNumber` writes whole numbers as integers).
    @inline(__always)
    mutating func number() -> Double? {
        if let value = self.float64() { return value }
        guard self.offset < self.count else { return nil }
        let byte = self.byte(at: self.offset)
        if byte < 0x80 || (byte >= 0xcc && byte <= 0xcf) { return self.unsigned().map { Double($0) } }
        return self.signed().map { Double($0) }
    }

    /// A fixstr borrowed as a key, for matching against literals in a `switch`.
    @inline(__always)
    mutating func word() -> MessagePackKey? {
        let start = self.offset
        return self.string().map { MessagePackKey(bytes: $0, offset: start) }
    }
}

extension MessagePackReader {
    /// Lets a decoder specialised to one layout scan the unread bytes: when `body` returns true
    /// the reader moves past what it consumed; when false it stays where it was, so the general
    /// decoder can start over.
    @inline(__always)
    mutating func scan(_ body: (inout MessagePackScanner) -> Bool) -> Bool {
        var scanner = MessagePackScanner(base: self.base, count: self.count, offset: self.offset)
        guard body(&scanner) else { return false }
        self.skip(to: scanner.offset)
        return true
    }
}

/// Whether `count` bytes at `lhs` and `rhs` are equal, compared a word at a time: keys and
/// repeated header prefixes are matched this way on every message.
@inline(__always)
func bytesEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, count: Int) -> Bool {
    var offset = 0
    while offset + 8 <= count {
        if lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        {
            return false
        }
        offset += 8
    }
    if offset + 4 <= count {
        if lhs.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            != rhs.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        {
            return false
        }
        offset += 4
    }
    if offset + 2 <= count {
        if lhs.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
            != rhs.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
        {
            return false
        }
        offset += 2
    }
    return offset == count
        || lhs.load(fromByteOffset: offset, as: UInt8.self) == rhs.load(fromByteOffset: offset, as: UInt8.self)
}
