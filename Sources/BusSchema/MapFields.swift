/// A map that lists its fields once, for encoding and for decoding: every generated type.
///
/// ``visitFields(_:)`` is one line a field, `try visitor.field("key", &self.value, rule)`; the
/// writer (``MessagePackWriter/writeMap(_:)``), the header's field counter and the decoder
/// (``MessagePackReader/readFields(into:path:)``) are its visitors, concrete types here, so each
/// call specializes like any generic.
///
/// ``Buildable/init()`` is what decoding starts from, required fields being refused unless read.
public protocol MapFields: Buildable {
    /// Visits each field in the order the map is written, reading or writing it.
    mutating func visitFields<Visitor: MapFieldVisitor & ~Copyable>(_ visitor: inout Visitor) throws(Visitor.Failure)
}

extension MessagePackMap where Self: MapFields {
    /// Decodes the map at `path` (empty at the top), naming the field in any error.
    public init(from reader: inout MessagePackReader, path: String) throws {
        self.init()
        try reader.readFields(into: &self, path: path)
    }

    @inlinable
    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMap(self)
    }
}

/// What visits a map's fields: an encoder writes each value, a decoder reads the values that the
/// input holds into them. The field kinds below are written once in terms of these two.
public protocol MapFieldVisitor: ~Copyable {
    associatedtype Failure: Error

    /// Encoders: writes the field, or leaves it out when the value is absent (an optional field's
    /// nil). Decoders do nothing.
    mutating func write<V: MessagePackValue>(_ key: StaticString, _ value: V)

    /// Decoders: when the input's next key is `key`, reads its value with `read`, noting that a
    /// `required` field is present. Encoders do nothing.
    mutating func readField(
        _ key: StaticString, required: Bool, _ read: (inout MessagePackReader, FieldName) throws -> Void
    ) throws(Failure)
}

extension MapFieldVisitor where Self: ~Copyable {
    /// A required field.
    @inlinable @inline(__always)
    public mutating func field<V: MessagePackField>(
        _ key: StaticString, _ value: inout V, _ rule: @autoclosure () -> V.Rule
    )
        throws(Failure)
    {
        self.write(key, value)
        try self.readField(key, required: true) { value = try V.read(from: &$0, $1, rule()) }
    }

    /// A required number written as a float64 even when whole (`x-swift-float64`), for maps whose
    /// readers expect the float type (a memo's geometry); read as any number.
    @inlinable @inline(__always)
    public mutating func float64(
        _ key: StaticString, _ value: inout Double, _ rule: @autoclosure () -> NumberRule
    )
        throws(Failure)
    {
        self.write(key, Float64Value(value))
        try self.readField(key, required: true) { value = try Double.read(from: &$0, $1, rule()) }
    }

    /// A field with a schema default, always written; when absent, `value` keeps its default.
    @inlinable @inline(__always)
    public mutating func defaulted<V: MessagePackField>(
        _ key: StaticString, _ value: inout V, _ rule: @autoclosure () -> V.Rule
    )
        throws(Failure)
    {
        self.write(key, value)
        try self.readField(key, required: false) { value = try V.read(from: &$0, $1, rule()) }
    }

    /// A field written only when it differs from its default (`x-swift-omit-default`), so messages
    /// keep the keys they had before it was added; absent or null, it is the default.
    @inlinable @inline(__always)
    public mutating func field<V: MessagePackField & Equatable>(
        _ key: StaticString, _ value: inout V, _ rule: @autoclosure () -> V.Rule, omittedAt defaultValue: V
    ) throws(Failure) {
        self.write(key, Optional(value, unless: defaultValue))
        try self.readField(key, required: false) { reader, name in
            value = try reader.readNullable { try V.read(from: &$0, name, rule()) } ?? defaultValue
        }
    }

    /// An optional field: left out when nil; sent as null, it counts as absent, as readers of
    /// older minors expect.
    @inlinable @inline(__always)
    public mutating func optional<V: MessagePackField>(
        _ key: StaticString, _ value: inout V?, _ rule: @autoclosure () -> V.Rule
    )
        throws(Failure)
    {
        self.write(key, value)
        try self.readField(key, required: false) { reader, name in
            value = try reader.readNullable { try V.read(from: &$0, name, rule()) }
        }
    }

    /// A required field that may be null: always written, nil as null.
    @inlinable @inline(__always)
    public mutating func nullable<V: MessagePackField>(
        _ key: StaticString, _ value: inout V?, _ rule: @autoclosure () -> V.Rule
    )
        throws(Failure)
    {
        self.write(key, Nullable(value))
        try self.readField(key, required: true) { reader, name in
            value = try reader.readNullable { try V.read(from: &$0, name, rule()) }
        }
    }

    /// An optional field that may be null: left out when absent (nil), written as null when
    /// `.some(nil)`; a null read is a value, not an absence.
    @inlinable @inline(__always)
    public mutating func optionalNullable<V: MessagePackField>(
        _ key: StaticString, _ value: inout V??, _ rule: @autoclosure () -> V.Rule
    ) throws(Failure) {
        self.write(key, value)
        try self.readField(key, required: false) { reader, name in
            value = .some(try reader.readNullable { try V.read(from: &$0, name, rule()) })
        }
    }

    /// A required array of pairs, each a two-item array (`[x, y]`) whose items `rule.item` checks.
    @inlinable @inline(__always)
    public mutating func pairs<Pair: MessagePackPair>(
        _ key: StaticString, _ value: inout [Pair], _ rule: @autoclosure () -> ArrayRule<Pair.Member.Rule>
    ) throws(Failure) {
        self.write(key, PairArray(value))
        try self.readField(key, required: true) { reader, name in
            let rule = rule()
            value = try reader.readArray(name, count: rule.count) { reader, item in
                try reader.readPair(item) { reader in
                    let first = try Pair.Member.read(from: &reader, FieldName(item: 0, of: item), rule.item)
                    let second = try Pair.Member.read(from: &reader, FieldName(item: 1, of: item), rule.item)
                    return Pair(pair: (first, second))
                }
            }
        }
    }

    /// A required object of two members stored as flat properties (`offset` {x, y} as `offsetX`,
    /// `offsetY`), each member required.
    @inlinable @inline(__always)
    public mutating func flattened<First: MessagePackField, Second: MessagePackField>(
        _ key: StaticString,
        _ firstKey: StaticString, _ first: inout First, _ firstRule: @autoclosure () -> First.Rule,
        _ secondKey: StaticString, _ second: inout Second, _ secondRule: @autoclosure () -> Second.Rule
    ) throws(Failure) {
        self.write(key, TwoFields((firstKey, first), (secondKey, second)))
        try self.readField(key, required: true) { reader, name in
            let path = name.description
            var found = (false, false)
            try reader.readMap { reader, member in
                if firstKey ~= member {
                    first = try First.read(from: &reader, FieldName(path, firstKey), firstRule())
                    found.0 = true
                } else if secondKey ~= member {
                    second = try Second.read(from: &reader, FieldName(path, secondKey), secondRule())
                    found.1 = true
                } else {
                    try reader.skip()
                }
            }
            if !found.0 { throw CodecError.missing(FieldName(path, firstKey), at: reader.offset) }
            if !found.1 { throw CodecError.missing(FieldName(path, secondKey), at: reader.offset) }
        }
    }
}

/// A struct of two members sent as a two-item array (`x-swift-pair`: a stroke's points as
/// `[x, y]`), although its type writes itself as a map elsewhere.
public protocol MessagePackPair {
    associatedtype Member: MessagePackField

    init(pair: (Member, Member))
    /// The members in the order the array holds them.
    var pair: (Member, Member) { get }
}

/// An array of pairs, each written as a two-item array.
public struct PairArray<Pair: MessagePackPair>: MessagePackValue {
    public let pairs: [Pair]

    @inlinable
    public init(_ pairs: [Pair]) { self.pairs = pairs }

    @inlinable
    public func write(to writer: inout MessagePackWriter) {
        writer.writeArrayHeader(self.pairs.count)
        for pair in self.pairs {
            writer.writeArrayHeader(2)
            pair.pair.0.write(to: &writer)
            pair.pair.1.write(to: &writer)
        }
    }
}

/// A number written as a float64 even when whole (``MapFieldVisitor/float64(_:_:_:)``).
public struct Float64Value: MessagePackValue {
    public let value: Double

    @inlinable
    public init(_ value: Double) { self.value = value }

    @inlinable
    public func write(to writer: inout MessagePackWriter) { writer.write(self.value) }
}

/// Counts the fields a map writes, leaving out absent ones: the map header's count.
@usableFromInline
struct MapFieldCounter: MapFieldVisitor {
    @usableFromInline var count = 0

    @inlinable init() {}

    @inlinable
    mutating func write<V: MessagePackValue>(_ key: StaticString, _ value: V) { self.count += value.fieldCount }

    @inlinable
    mutating func readField(
        _ key: StaticString, required: Bool, _ read: (inout MessagePackReader, FieldName) throws -> Void
    ) {}
}

extension MessagePackWriter: MapFieldVisitor {
    public typealias Failure = Never

    /// Writes `map` as a header counting its present fields and then those fields: a generated
    /// encoder is this one call; once specialized, the count of the required fields is a constant.
    @inlinable @inline(__always)
    public mutating func writeMap<Map: MapFields>(_ map: Map) {
        // `visitFields` is mutating for the decoder's sake; the counter and the writer only read,
        // so they visit the caller's value in place: a copy would retain and release every
        // reference the map holds (+15 % instructions in state encoding).
        withUnsafePointer(to: map) { pointer in
            let map = UnsafeMutablePointer(mutating: pointer)
            var counter = MapFieldCounter()
            map.pointee.visitFields(&counter)
            self.writeMapHeader(counter.count)
            map.pointee.visitFields(&self)
        }
    }

    /// Writes `key` and `value`, or nothing when the value is absent (an optional field's nil,
    /// which ``MessagePackValue/fieldCount`` counts out of the header).
    @inlinable @inline(__always)
    public mutating func write<V: MessagePackValue>(_ key: StaticString, _ value: V) {
        if value.isAbsent { return }
        self.writeKey(key)
        value.write(to: &self)
    }

    /// The writer reads nothing.
    @inlinable @inline(__always)
    public mutating func readField(
        _ key: StaticString, required: Bool, _ read: (inout MessagePackReader, FieldName) throws -> Void
    ) {}
}
