/// A value a generated map reads as one field, refusing what its schema's rule does not allow:
/// the per-type half of decoding, so a generated type lists only its keys and rules
/// (``MapFields/visitFields(_:)``) and the reading lives here once.
public protocol MessagePackField: MessagePackValue {
    /// What the schema allows beyond the type: a range, a length, a pattern, an item count.
    associatedtype Rule

    /// Reads the value of `field`, naming it in any error.
    ///
    /// - Throws: ``CodecError`` for a wrong type or a value `rule` refuses.
    static func read(from reader: inout MessagePackReader, _ field: FieldName, _ rule: Rule) throws -> Self
}

/// The rule of a value the type alone checks: a boolean, an enum (its cases), a map (its own
/// fields), a map of anything.
public struct TypeRule: Sendable {
    public static let any = TypeRule()
}

/// A string's rule: its length in Unicode scalars and the pattern it matches.
public struct StringRule: Sendable {
    public let length: ClosedRange<Int>
    public let pattern: StringPattern?

    public init(length: ClosedRange<Int> = 0...Int.max, pattern: StringPattern? = nil) {
        self.length = length
        self.pattern = pattern
    }

    public static let any = StringRule()
}

/// A number's rule: finite, within a range, above its lower bound with `exclusiveLower`.
public struct NumberRule: Sendable {
    public let range: NumberRange
    public let exclusiveLower: Bool

    public init(_ range: NumberRange, exclusiveLower: Bool = false) {
        self.range = range
        self.exclusiveLower = exclusiveLower
    }

    public static let finite = NumberRule(.finite)
    public static func atLeast(_ lower: Double) -> NumberRule { NumberRule(.atLeast(lower)) }
    public static func atMost(_ upper: Double) -> NumberRule { NumberRule(.atMost(upper)) }
}

/// An array's rule: how many items, and each item's rule.
public struct ArrayRule<Item> {
    public let count: ClosedRange<Int>
    public let item: Item

    public init(count: ClosedRange<Int> = 0...Int.max, item: Item) {
        self.count = count
        self.item = item
    }
}

extension String: MessagePackField {
    @inlinable
    public static func read(from reader: inout MessagePackReader, _ field: FieldName, _ rule: StringRule) throws
        -> String
    {
        try reader.readString(field, length: rule.length, pattern: rule.pattern)
    }
}

extension Bool: MessagePackField {
    @inlinable
    public static func read(from reader: inout MessagePackReader, _ field: FieldName, _ rule: TypeRule) throws -> Bool {
        try reader.readBool(field)
    }
}

extension Double: MessagePackField {
    @inlinable
    public static func read(from reader: inout MessagePackReader, _ field: FieldName, _ rule: NumberRule) throws
        -> Double
    {
        try reader.readNumber(field, in: rule.range, exclusiveLower: rule.exclusiveLower)
    }
}

extension Int: MessagePackField {
    /// Bounds as the schema states them, which fit `Int64`; the value then fits `Int` on a 64-bit host.
    @inlinable
    public static func read(from reader: inout MessagePackReader, _ field: FieldName, _ rule: ClosedRange<Int64>)
        throws -> Int
    {
        Int(try reader.readInteger(field, in: rule))
    }
}

extension Int64: MessagePackField {
    @inlinable
    public static func read(from reader: inout MessagePackReader, _ field: FieldName, _ rule: ClosedRange<Int64>)
        throws -> Int64
    {
        try reader.readInteger(field, in: rule)
    }
}

extension UInt64: MessagePackField {
    @inlinable
    public static func read(from reader: inout MessagePackReader, _ field: FieldName, _ rule: ClosedRange<UInt64>)
        throws -> UInt64
    {
        try reader.readUnsigned(field, in: rule)
    }
}

extension ValueMap: MessagePackField {
    @inlinable
    public static func read(from reader: inout MessagePackReader, _ field: FieldName, _ rule: TypeRule) throws
        -> ValueMap
    {
        try reader.readMapValue(field)
    }
}

extension Array: MessagePackField where Element: MessagePackField {
    @inlinable
    public static func read(
        from reader: inout MessagePackReader, _ field: FieldName, _ rule: ArrayRule<Element.Rule>
    ) throws -> [Element] {
        try reader.readArray(field, count: rule.count) { reader, item in
            try Element.read(from: &reader, item, rule.item)
        }
    }
}

/// A half-open range of whole numbers (a search match's `[start, end)`), sent as the pair
/// `[start, end]`; a start past the end is refused.
extension Range: MessagePackValue, MessagePackField where Bound == Int {
    @inlinable
    public func write(to writer: inout MessagePackWriter) {
        writer.writeArrayHeader(2)
        writer.write(self.lowerBound)
        writer.write(self.upperBound)
    }

    @inlinable
    public static func read(from reader: inout MessagePackReader, _ field: FieldName, _ rule: TypeRule) throws
        -> Range<Int>
    {
        let start = reader.offset
        return try reader.readPair(field) { reader in
            let lower = try Int.read(from: &reader, FieldName(item: 0, of: field), Int64.min...Int64.max)
            let upper = try Int.read(from: &reader, FieldName(item: 1, of: field), Int64.min...Int64.max)
            guard lower <= upper else {
                throw CodecError(.invalidValue, offset: start, context: "\(field): start \(lower) is past end \(upper)")
            }
            return lower..<upper
        }
    }
}

extension MessagePackEnum {
    @inlinable
    public static func read(from reader: inout MessagePackReader, _ field: FieldName, _ rule: TypeRule) throws -> Self {
        try reader.readEnum(Self.self, field)
    }
}

extension MessagePackMap {
    /// A nested map: its own decoder, with the field's name as its path.
    @inlinable
    public static func read(from reader: inout MessagePackReader, _ field: FieldName, _ rule: TypeRule) throws -> Self {
        try Self(from: &reader, path: field.description)
    }
}
