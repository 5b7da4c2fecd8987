/// A strict RFC 8259 JSON parser producing ``Value``s; objects keep their key order.
///
/// Hand-written because Foundation's JSON is far too slow for UIBus's tools, and because
/// errors must say where they are (byte offset) rather than "data corrupted".
public struct JSONReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Parses one complete JSON document.
    ///
    /// - Parameter text: the document; leading and trailing white space is allowed.
    /// - Throws: ``CodecError`` naming the byte offset of the first problem.
    public static func parse(_ text: String) throws -> Value {
        var text = text
        return try text.withUTF8 { try Self.parse(UnsafeRawBufferPointer($0)) }
    }

    /// Parses one complete JSON document from UTF-8 bytes.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws -> Value {
        var reader = JSONReader(bytes)
        reader.skipWhitespace()
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        guard reader.offset == bytes.count else {
            throw CodecError(.trailingBytes, offset: reader.offset, context: "JSON")
        }
        return value
    }

    private mutating func readValue(depth: Int) throws -> Value {
        guard depth < MessagePackReader.maximumDepth else { throw CodecError(.tooDeep, offset: self.offset) }
        switch try self.peek() {
        case UInt8(ascii: "{"): return try self.readObject(depth: depth)
        case UInt8(ascii: "["): return try self.readArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try self.readString())
        case UInt8(ascii: "t"):
            try self.expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try self.expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try self.expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try self.readNumber()
        default: throw self.unexpected("a value")
        }
    }

    private mutating func readObject(depth: Int) throws -> Value {
        self.offset += 1
        var pairs: [(String, Value)] = []
        self.skipWhitespace()
        if try self.peek() == UInt8(ascii: "}") {
            self.offset += 1
            return .map(ValueMap())
        }
        while true {
            self.skipWhitespace()
            guard try self.peek() == UInt8(ascii: "\"") else { throw self.unexpected("a string key") }
            let key = try self.readString()
            self.skipWhitespace()
            guard try self.peek() == UInt8(ascii: ":") else { throw self.unexpected("':'") }
            self.offset += 1
            self.skipWhitespace()
            pairs.append((key, try self.readValue(depth: depth + 1)))
            self.skipWhitespace()
            switch try self.peek() {
            case UInt8(ascii: ","): self.offset += 1
            case UInt8(ascii: "}"):
                self.offset += 1
                return .map(ValueMap(pairs))
            default: throw self.unexpected("',' or '}'")
            }
        }
    }

    private mutating func readArray(depth: Int) throws -> Value {
        self.offset += 1
        var array: [Value] = []
        self.skipWhitespace()
        if try self.peek() == UInt8(ascii: "]") {
            self.offset += 1
            return .array(array)
        }
        while true {
            self.skipWhitespace()
            array.append(try self.readValue(depth: depth + 1))
            self.skipWhitespace()
            switch try self.peek() {
            case UInt8(ascii: ","): self.offset += 1
            case UInt8(ascii: "]"):
                self.offset += 1
                return .array(array)
            default: throw self.unexpected("',' or ']'")
            }
        }
    }

    private mutating func readString() throws -> String {
        self.offset += 1
        let start = self.offset
        // Fast path: no escapes, so the bytes are the string.
        while self.offset < self.bytes.count {
            let byte = self.bytes[self.offset]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeRawBufferPointer(rebasing: self.bytes[start..<self.offset])
                self.offset += 1
                guard let string = String(validatedUTF8: raw) else {
                    throw CodecError(.invalidUTF8, offset: start, context: "JSON string")
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw self.unexpected("no control character in a string") }
            self.offset += 1
        }
        var utf8 = Array(self.bytes[start..<self.offset])
        while true {
            guard self.offset < self.bytes.count else {
                throw CodecError(.truncated, offset: self.offset, context: "JSON string")
            }
            let byte = self.bytes[self.offset]
            self.offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: utf8, as: UTF8.self) else {
                    throw CodecError(.invalidUTF8, offset: start, context: "JSON string")
                }
                return string
            case UInt8(ascii: "\\"):
                try self.readEscape(into: &utf8)
            case 0..<0x20:
                self.offset -= 1
                throw self.unexpected("no control character in a string")
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func readEscape(into utf8: inout [UInt8]) throws {
        let escape = try self.peek()
        self.offset += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0c)
        case UInt8(ascii: "n"): utf8.append(0x0a)
        case UInt8(ascii: "r"): utf8.append(0x0d)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try self.readHex4()
            if (0xd800..<0xdc00).contains(scalar) {
                guard self.offset + 1 < self.bytes.count, self.bytes[self.offset] == UInt8(ascii: "\\"),
                    self.bytes[self.offset + 1] == UInt8(ascii: "u")
                else { throw CodecError(.invalidValue, offset: self.offset, context: "lone surrogate") }
                self.offset += 2
                let low = try self.readHex4()
                guard (0xdc00..<0xe000).contains(low) else {
                    throw CodecError(.invalidValue, offset: self.offset, context: "bad low surrogate")
                }
                scalar = 0x10000 + ((scalar - 0xd800) << 10) + (low - 0xdc00)
            }
            guard let unicode = Unicode.Scalar(scalar) else {
                throw CodecError(.invalidValue, offset: self.offset, context: "lone surrogate")
            }
            utf8.append(contentsOf: String(Character(unicode)).utf8)
        default:
            self.offset -= 1
            throw self.unexpected("an escape character")
        }
    }

    private mutating func readHex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = try self.peek()
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw self.unexpected("a hex digit")
            }
            value = value << 4 | UInt32(digit)
            self.offset += 1
        }
        return value
    }

    private mutating func readNumber() throws -> Value {
        let start = self.offset
        var isInteger = true
        if self.bytes[self.offset] == UInt8(ascii: "-") { self.offset += 1 }
        guard self.offset < self.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self.bytes[self.offset])
        else { throw self.unexpected("a digit") }
        if self.bytes[self.offset] == UInt8(ascii: "0") {
            self.offset += 1
        } else {
            self.skipDigits()
        }
        if self.offset < self.bytes.count, self.bytes[self.offset] == UInt8(ascii: ".") {
            isInteger = false
            self.offset += 1
            guard self.skipDigits() > 0 else { throw self.unexpected("a digit after '.'") }
        }
        if self.offset < self.bytes.count, self.bytes[self.offset] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            self.offset += 1
            if self.offset < self.bytes.count,
                self.bytes[self.offset] == UInt8(ascii: "+") || self.bytes[self.offset] == UInt8(ascii: "-")
            {
                self.offset += 1
            }
            guard self.skipDigits() > 0 else { throw self.unexpected("a digit in the exponent") }
        }
        let text = String(decoding: self.bytes[start..<self.offset], as: UTF8.self)
        if isInteger {
            if let int = Int64(text) { return .int(int) }
            if let uint = UInt64(text) { return .uint(uint) }
        }
        guard let double = Double(text), double.isFinite else {
            throw CodecError(.invalidValue, offset: start, context: "number \(text) out of range")
        }
        return .double(double)
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = self.offset
        while self.offset < self.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self.bytes[self.offset])
        {
            self.offset += 1
        }
        return self.offset - start
    }

    private mutating func expectLiteral(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard self.bytes.count - self.offset >= count,
            UnsafeRawBufferPointer(start: literal.utf8Start, count: count).elementsEqual(
                self.bytes[self.offset..<(self.offset + count)])
        else { throw self.unexpected("'\(literal)'") }
        self.offset += count
    }

    private mutating func skipWhitespace() {
        while self.offset < self.bytes.count {
            switch self.bytes[self.offset] {
            case 0x20, 0x09, 0x0a, 0x0d: self.offset += 1
            default: return
            }
        }
    }

    private func peek() throws -> UInt8 {
        guard self.offset < self.bytes.count else { throw CodecError(.truncated, offset: self.offset, context: "JSON") }
        return self.bytes[self.offset]
    }

    private func unexpected(_ expected: String) -> CodecError {
        guard self.offset < self.bytes.count else {
            return CodecError(.truncated, offset: self.offset, context: "JSON")
        }
        let byte = self.bytes[self.offset]
        let found =
            (0x20..<0x7f).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        return CodecError(.invalidByte, offset: self.offset, context: "JSON: expected \(expected), found \(found)")
    }
}
