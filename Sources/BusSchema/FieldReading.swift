/// A field's place in a payload (`animation.duration_ms`, `strokes[2].width`), spelled out only
/// when an error names it: the generated decoders pass one per field read.
public struct FieldName: CustomStringConvertible {
    /// The enclosing object's path, empty at the top level.
    public let path: String
    /// The key within it; empty for an array item, whose path is the whole name.
    public let key: StaticString

    @inline(__always)
    public init(_ path: String, _ key: StaticString) {
        self.path = path
        self.key = key
    }

    /// Item `index` of the array named `array`.
    public init(item index: Int, of array: FieldName) {
        self.path = "\(array)[\(index)]"
        self.key = ""
    }

    public var description: String {
        if self.key.utf8CodeUnitCount == 0 { return self.path }
        return self.path.isEmpty ? "\(self.key)" : "\(self.path).\(self.key)"
    }
}

/// The checks the generated decoders apply: each reads one value, names the field in any error
/// (a wrong type included) and refuses what the schema does not allow.
extension MessagePackReader {
    /// Runs `read`, putting `field` in front of a type mismatch's context.
    @inline(__always)
    mutating func naming<T>(_ field: FieldName, _ read: (inout MessagePackReader) throws -> T) throws -> T {
        do {
            return try read(&self)
        } catch var error as CodecError where error.code == .typeMismatch {
            error.context = "\(field): \(error.context)"
            throw error
        }
    }

    /// Reads a nil as `nil`, anything else through `read`.
    @inlinable
    public mutating func readNullable<T>(_ read: (inout MessagePackReader) throws -> T) throws -> T? {
        if try self.readNil() { return nil }
        return try read(&self)
    }

    /// The value of a required field that was read, or a `missing_field` error naming it.
    public func require<T>(_ value: T?, _ field: FieldName) throws -> T {
        guard let value else { throw CodecError(.missingField, offset: self.offset, context: field.description) }
        return value
    }

    /// Reads a boolean.
    public mutating func readBool(_ field: FieldName) throws -> Bool {
        try self.naming(field) { try $0.readBool() }
    }

    /// Reads a finite number within `range`; with `exclusiveLower`, above its lower bound.
    ///
    /// - Throws: ``CodecError`` `invalid_value` for NaN, an infinity or a value outside the range.
    public mutating func readNumber(_ field: FieldName, in range: NumberRange, exclusiveLower: Bool = false) throws
        -> Double
    {
        let start = self.offset
        let value = try self.naming(field) { try $0.readDouble() }
        guard range.contains(value), !exclusiveLower || value > range.lower else {
            let bound = exclusiveLower ? "above \(range.lower), at most \(range.upper)" : "outside \(range)"
            throw CodecError(.invalidValue, offset: start, context: "\(field): \(value) is \(bound)")
        }
        return value
    }

    /// Reads an integer within `range`.
    public mutating func readInteger(_ field: FieldName, in range: ClosedRange<Int64>) throws -> Int64 {
        try self.read(field, in: range) { try $0.readInt() }
    }

    /// Reads a non-negative integer within `range`.
    public mutating func readUnsigned(_ field: FieldName, in range: ClosedRange<UInt64>) throws -> UInt64 {
        try self.read(field, in: range) { try $0.readUInt() }
    }

    @inline(__always)
    private mutating func read<T: FixedWidthInteger>(
        _ field: FieldName, in range: ClosedRange<T>, _ read: (inout MessagePackReader) throws -> T
    ) throws -> T {
        let start = self.offset
        let value = try self.naming(field, read)
        guard range.contains(value) else {
            throw CodecError(.invalidValue, offset: start, context: "\(field): \(value) is outside \(range)")
        }
        return value
    }

    /// Reads a string of `length` Unicode scalars that `pattern` (if any) accepts.
    public mutating func readString(
        _ field: FieldName, length: ClosedRange<Int> = 0...Int.max, pattern: StringPattern? = nil
    ) throws -> String {
        let start = self.offset
        let value = try self.naming(field) { try $0.readString() }
        if length != 0...Int.max, !length.contains(value.unicodeScalars.count) {
            throw CodecError(
                .invalidValue, offset: start,
                context: "\(field): length \(value.unicodeScalars.count) outside \(length)")
        }
        if let pattern, !pattern.matches(value) {
            throw CodecError(.invalidValue, offset: start, context: "\(field): '\(value)' does not match \(pattern)")
        }
        return value
    }

    /// Reads a string that names a case of `E`.
    public mutating func readEnum<E: RawRepresentable>(_: E.Type, _ field: FieldName) throws -> E
    where E.RawValue == String {
        let start = self.offset
        let raw = try self.naming(field) { try $0.readString() }
        guard let value = E(rawValue: raw) else {
            throw CodecError(.invalidValue, offset: start, context: "\(field): '\(raw)'")
        }
        return value
    }

    /// Reads a map of any content.
    public mutating func readMapValue(_ field: FieldName) throws -> ValueMap {
        let start = self.offset
        guard case .map(let map) = try self.readValue() else {
            throw CodecError(.typeMismatch, offset: start, context: "\(field): expected a map")
        }
        return map
    }

    /// Reads an array of `count` items, each with `item` (which gets the item's name).
    public mutating func readArray<T>(
        _ field: FieldName, count allowed: ClosedRange<Int> = 0...Int.max,
        _ item: (inout MessagePackReader, FieldName) throws -> T
    ) throws -> [T] {
        let start = self.offset
        let count = try self.naming(field) { try $0.readArrayHeader() }
        guard allowed.contains(count) else {
            throw CodecError(.invalidValue, offset: start, context: "\(field): \(count) items, not \(allowed)")
        }
        var items: [T] = []
        items.reserveCapacity(count)
        for index in 0..<count { items.append(try item(&self, FieldName(item: index, of: field))) }
        return items
    }
}

extension MessagePackReader {
    /// Reads a two-item array (a point `[x, y]`) with `read`, which reads both items.
    public mutating func readPair<T>(_ field: FieldName, _ read: (inout MessagePackReader) throws -> T) throws -> T {
        let start = self.offset
        let count = try self.naming(field) { try $0.readArrayHeader() }
        guard count == 2 else {
            throw CodecError(.invalidValue, offset: start, context: "\(field): \(count) items, not 2")
        }
        return try read(&self)
    }
}
