/// A value that writes itself as one MessagePack value: what a generated encoder hands to
/// ``MessagePackWriter/write(_:_:)`` for each field, so a type's encoder is one line per field and
/// the per-shape work (nil, enums, nested maps, arrays) lives here once.
public protocol MessagePackValue {
    /// Appends the value to `writer`.
    func write(to writer: inout MessagePackWriter)
    /// Whether a map leaves the field holding it out: an optional field's nil.
    var isAbsent: Bool { get }
}

extension MessagePackValue {
    @inlinable
    public var isAbsent: Bool { false }
}

/// A string-backed enum, written as its raw value.
public protocol MessagePackEnum: RawRepresentable, MessagePackField where RawValue == String, Rule == TypeRule {}

extension MessagePackEnum {
    @inlinable
    public func write(to writer: inout MessagePackWriter) { writer.write(self.rawValue) }
}

extension MessagePackMap {
    @inlinable
    public func write(to writer: inout MessagePackWriter) { self.encode(to: &writer) }
}

extension String: MessagePackValue {
    @inlinable
    public func write(to writer: inout MessagePackWriter) { writer.write(self) }
}

extension Bool: MessagePackValue {
    @inlinable
    public func write(to writer: inout MessagePackWriter) { writer.write(self) }
}

extension Int: MessagePackValue {
    @inlinable
    public func write(to writer: inout MessagePackWriter) { writer.write(self) }
}

extension Int64: MessagePackValue {
    @inlinable
    public func write(to writer: inout MessagePackWriter) { writer.write(self) }
}

extension UInt64: MessagePackValue {
    @inlinable
    public func write(to writer: inout MessagePackWriter) { writer.write(self) }
}

extension Double: MessagePackValue {
    /// Whole numbers as integers, as ``MessagePackWriter/writeNumber(_:)`` writes them.
    @inlinable
    public func write(to writer: inout MessagePackWriter) { writer.writeNumber(self) }
}

extension Optional: MessagePackValue where Wrapped: MessagePackValue {
    /// An optional field's nil: the map leaves the field out (``Nullable`` writes it as null).
    @inlinable
    public var isAbsent: Bool { self == nil }

    /// Written only when present, but a nil inside (an optional nullable field's null) is written as nil.
    @inlinable
    public func write(to writer: inout MessagePackWriter) {
        if let self { self.write(to: &writer) } else { writer.writeNil() }
    }
}

/// A nullable field's value: always written, nil as null.
public struct Nullable<Wrapped: MessagePackValue>: MessagePackValue {
    public let value: Wrapped?

    @inlinable
    public init(_ value: Wrapped?) { self.value = value }

    @inlinable
    public func write(to writer: inout MessagePackWriter) {
        if let value = self.value { value.write(to: &writer) } else { writer.writeNil() }
    }
}

/// An object of two fields stored as flat properties (`offset` {x, y} as `offsetX`, `offsetY`).
public struct TwoFields<First: MessagePackValue, Second: MessagePackValue>: MessagePackValue {
    public let first: (key: StaticString, value: First)
    public let second: (key: StaticString, value: Second)

    @inlinable @inline(__always)
    public init(_ first: (StaticString, First), _ second: (StaticString, Second)) {
        self.first = first
        self.second = second
    }

    /// Inlined, so the keys are constants where the fields are listed.
    @inlinable @inline(__always)
    public func write(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(self.first.value.fieldCount + self.second.value.fieldCount)
        writer.write(self.first.key, self.first.value)
        writer.write(self.second.key, self.second.value)
    }
}

extension Array: MessagePackValue where Element: MessagePackValue {
    @inlinable
    public func write(to writer: inout MessagePackWriter) {
        // Numbers go with one capacity check for the whole array; the test folds away once specialized.
        if Element.self == Double.self { return writer.writeNumbers(unsafeBitCast(self, to: [Double].self)) }
        writer.writeArrayHeader(self.count)
        for item in self { item.write(to: &writer) }
    }
}

extension ValueMap: MessagePackValue {
    @inlinable
    public func write(to writer: inout MessagePackWriter) { writer.write(Value.map(self)) }
}

extension Optional where Wrapped: Equatable {
    /// `value`, or nil when it is `defaultValue`: a field written only when it differs from its
    /// default (`x-swift-omit-default`), so messages keep the keys they had before it was added.
    @inlinable
    public init(_ value: Wrapped, unless defaultValue: Wrapped) {
        self = value == defaultValue ? nil : value
    }
}

extension MessagePackValue {
    /// How many map fields the value takes: 0 for an optional field's nil, else 1.
    @inlinable
    public var fieldCount: Int { self.isAbsent ? 0 : 1 }
}
