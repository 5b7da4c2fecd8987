/// A message written straight to MessagePack and read back through a ``Value`` map.
///
/// Component states are encoded on every change (the hot path); they are read mostly by tools
/// and tests, so decoding goes through one ``Value`` and ``PayloadFields``, and ``payload`` (the
/// JSON lines of `component-host replay`) is the decoded encoding, so the two never disagree.
public protocol ValueMessage: BusMessage {
    /// Reads the payload map, ignoring unknown keys.
    ///
    /// - Throws: ``CodecError`` for a missing required field or a value of the wrong type.
    init(payload: Value) throws
}

extension ValueMessage {
    /// The payload map, as the encoding reads back.
    public var payload: Value { self.value }

    public init(from reader: inout MessagePackReader) throws {
        try self.init(payload: try reader.readValue())
    }
}

extension MessagePackWriter {
    /// Writes `key` and a string.
    public mutating func writeField(_ key: String, _ value: String) {
        self.write(key)
        self.write(value)
    }

    /// Writes `key` and a number (whole values as integers).
    public mutating func writeField(_ key: String, number value: Double) {
        self.write(key)
        self.writeNumber(value)
    }

    /// Writes `key` and an integer.
    public mutating func writeField(_ key: String, int value: Int) {
        self.write(key)
        self.write(value)
    }

    /// Writes `key` and an integer, or nil.
    public mutating func writeField(_ key: String, int value: Int?) {
        self.write(key)
        if let value { self.write(value) } else { self.writeNil() }
    }

    /// Writes `key` and a string, or nil.
    public mutating func writeField(_ key: String, _ value: String?) {
        self.write(key)
        if let value { self.write(value) } else { self.writeNil() }
    }

    /// Writes `key` and a boolean.
    public mutating func writeField(_ key: String, bool value: Bool) {
        self.write(key)
        self.write(value)
    }

    /// Writes `key` and `{"x": x, "y": y}`.
    public mutating func writeField(_ key: String, x: Double, y: Double) {
        self.write(key)
        self.writeMapHeader(2)
        self.writeField("x", number: x)
        self.writeField("y", number: y)
    }
}

/// Typed access to a payload map's fields, with errors that name the field.
public struct PayloadFields {
    public let value: Value
    public let path: String

    public init(_ value: Value, path: String = "") throws {
        guard value.mapValue != nil else {
            throw CodecError(.typeMismatch, offset: 0, context: "\(path.isEmpty ? "payload" : path): expected a map")
        }
        self.value = value
        self.path = path
    }

    private func name(_ key: String) -> String { self.path.isEmpty ? key : "\(self.path).\(key)" }

    private func required(_ key: String) throws -> Value {
        guard let value = self.value[key] else { throw CodecError(.missingField, offset: 0, context: self.name(key)) }
        return value
    }

    private func mismatch(_ key: String, _ expected: String) -> CodecError {
        CodecError(.typeMismatch, offset: 0, context: "\(self.name(key)): expected \(expected)")
    }

    /// Whether `key` is present and not null.
    public func has(_ key: String) -> Bool {
        guard let value = self.value[key] else { return false }
        return value != .null
    }

    public func string(_ key: String) throws -> String {
        guard let string = try self.required(key).stringValue else { throw self.mismatch(key, "a string") }
        return string
    }

    /// A finite number: no state, command or record may carry a NaN or an infinity.
    public func number(_ key: String) throws -> Double {
        guard let number = try self.required(key).doubleValue, number.isFinite else {
            throw self.mismatch(key, "a finite number")
        }
        return number
    }

    public func int(_ key: String) throws -> Int {
        guard let int = try self.required(key).intValue.flatMap({ Int(exactly: $0) }) else {
            throw self.mismatch(key, "an integer")
        }
        return int
    }

    public func bool(_ key: String) throws -> Bool {
        guard let bool = try self.required(key).boolValue else { throw self.mismatch(key, "true or false") }
        return bool
    }

    public func array(_ key: String) throws -> [Value] {
        guard let array = try self.required(key).arrayValue else { throw self.mismatch(key, "an array") }
        return array
    }

    public func object(_ key: String) throws -> PayloadFields {
        try PayloadFields(try self.required(key), path: self.name(key))
    }

    public func enumValue<E: RawRepresentable>(_ key: String, _: E.Type) throws -> E where E.RawValue == String {
        let raw = try self.string(key)
        guard let value = E(rawValue: raw) else {
            throw CodecError(.invalidValue, offset: 0, context: "\(self.name(key)): '\(raw)'")
        }
        return value
    }

    /// The field if present and not null, read with `read`.
    public func optional<T>(_ key: String, _ read: (PayloadFields) -> (String) throws -> T) throws -> T? {
        self.has(key) ? try read(self)(key) : nil
    }
}

extension Value {
    /// A JSON number: whole values become integers, so JSON output never shows `1.0`.
    public static func number(_ value: Double) -> Value {
        if value.rounded() == value, abs(value) < 9_007_199_254_740_992 { return .int(Int64(value)) }
        return .double(value)
    }

    /// `{"x": x, "y": y}`.
    public static func point(_ x: Double, _ y: Double) -> Value {
        .map(["x": .number(x), "y": .number(y)])
    }

    /// A string, or null.
    public static func optional(_ string: String?) -> Value {
        string.map(Value.string) ?? .null
    }

    /// An integer, or null.
    public static func optional(_ int: Int?) -> Value {
        int.map { .int(Int64($0)) } ?? .null
    }
}
