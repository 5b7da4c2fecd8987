/// A dynamically typed message value: what a MessagePack or JSON document holds.
///
/// Tools (`bus-tap`, schema examples, the offline modes) work with `Value`; hot paths
/// encode typed messages straight through ``MessagePackWriter`` instead.
public enum Value: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    /// An unsigned integer above `Int64.max`; smaller ones are always ``int(_:)``.
    case uint(UInt64)
    case double(Double)
    case string(String)
    case binary([UInt8])
    case array([Value])
    case map(ValueMap)
}

/// A string-keyed map that keeps its keys in insertion order, so documents round-trip unchanged.
public struct ValueMap: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var entries: [(key: String, value: Value)]

    /// Creates a map from key/value pairs, in order; a repeated key keeps its last value.
    public init(_ pairs: [(String, Value)] = []) {
        self.entries = []
        self.entries.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(elements)
    }

    public var count: Int { self.entries.count }
    public var keys: [String] { self.entries.map(\.key) }

    public subscript(key: String) -> Value? {
        get { self.entries.first(where: { $0.key == key })?.value }
        set {
            let index = self.entries.firstIndex(where: { $0.key == key })
            switch (index, newValue) {
            case (let index?, let value?): self.entries[index].value = value
            case (let index?, nil): self.entries.remove(at: index)
            case (nil, let value?): self.entries.append((key, value))
            case (nil, nil): break
            }
        }
    }

    public func makeIterator() -> IndexingIterator<[(key: String, value: Value)]> {
        self.entries.makeIterator()
    }

    public static func == (lhs: ValueMap, rhs: ValueMap) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(self.entries.count)
        for entry in self.entries {
            hasher.combine(entry.key)
            hasher.combine(entry.value)
        }
    }
}

extension Value {
    /// Creates the integer case that MessagePack and JSON readers produce for `value`.
    public init(_ value: UInt64) {
        self = value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
    }

    /// The member `key` of a map, or nil for a missing key or a value that is not a map.
    public subscript(key: String) -> Value? {
        if case .map(let map) = self { return map[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The value as a signed integer, if it is an integer that fits.
    public var intValue: Int64? {
        switch self {
        case .int(let int): return int
        case .uint(let uint): return Int64(exactly: uint)
        default: return nil
        }
    }

    /// The value as an unsigned integer, if it is a non-negative integer.
    public var uintValue: UInt64? {
        switch self {
        case .int(let int): return UInt64(exactly: int)
        case .uint(let uint): return uint
        default: return nil
        }
    }

    /// The value as a floating-point number: integers convert, other kinds give nil.
    public var doubleValue: Double? {
        switch self {
        case .double(let double): return double
        case .int(let int): return Double(int)
        case .uint(let uint): return Double(uint)
        default: return nil
        }
    }

    public var arrayValue: [Value]? {
        if case .array(let array) = self { return array }
        return nil
    }

    public var mapValue: ValueMap? {
        if case .map(let map) = self { return map }
        return nil
    }

    /// The JSON Schema type name of this value (`integer`, `number`, `string`, …).
    public var jsonTypeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .uint: return "integer"
        case .double: return "number"
        case .string: return "string"
        case .binary: return "binary"
        case .array: return "array"
        case .map: return "object"
        }
    }
}
