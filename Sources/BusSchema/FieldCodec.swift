/// How the values of one schema type are written and read: the read applies the schema's checks
/// (type, bounds, length, pattern, enum) and names the field in any error. The generated field
/// tables (``MessageTable``) are made of these.
public struct FieldCodec<Stored> {
    /// Appends one value.
    public let write: (Stored, inout MessagePackWriter) -> Void
    /// Reads one value; the name is the field's, for errors.
    public let read: (inout MessagePackReader, FieldName) throws -> Stored

    public init(
        write: @escaping (Stored, inout MessagePackWriter) -> Void,
        read: @escaping (inout MessagePackReader, FieldName) throws -> Stored
    ) {
        self.write = write
        self.read = read
    }

    /// `codec`'s values, or null (a `"type": [..., "null"]` property).
    public static func orNull<Wrapped>(_ codec: FieldCodec<Wrapped>) -> Self where Stored == Wrapped? {
        let write = codec.write
        let read = codec.read
        return Self(
            write: { value, writer in
                if let value { write(value, &writer) } else { writer.writeNil() }
            },
            read: { reader, field in try reader.readNullable { try read(&$0, field) } })
    }

    /// An array of `count` values (the schema's `minItems`…`maxItems`).
    public static func array<Item>(_ item: FieldCodec<Item>, count: ClosedRange<Int> = 0...Int.max) -> Self
    where Stored == [Item] {
        let write = item.write
        let read = item.read
        return Self(
            write: { items, writer in
                writer.writeArrayHeader(items.count)
                for value in items { write(value, &writer) }
            },
            read: { reader, field in try reader.readArray(field, count: count) { try read(&$0, $1) } })
    }

    /// A two-item array `[a, b]` stored as one value (a point `[x, y]` as a vector).
    public static func pair<Item>(
        _ item: FieldCodec<Item>, make: @escaping (Item, Item) -> Stored, parts: @escaping (Stored) -> (Item, Item)
    ) -> Self {
        let write = item.write
        let read = item.read
        return Self(
            write: { value, writer in
                let (first, second) = parts(value)
                writer.writeArrayHeader(2)
                write(first, &writer)
                write(second, &writer)
            },
            read: { reader, field in
                try reader.readPair(field) { reader in
                    let first = try read(&reader, FieldName(item: 0, of: field))
                    return make(first, try read(&reader, FieldName(item: 1, of: field)))
                }
            })
    }
}

extension FieldCodec where Stored == String {
    /// A string of `length` Unicode scalars that `pattern` (if any) accepts.
    public static func string(length: ClosedRange<Int> = 0...Int.max, pattern: StringPattern? = nil) -> Self {
        Self(
            write: { value, writer in writer.write(value) },
            read: { reader, field in try reader.readString(field, length: length, pattern: pattern) })
    }
}

extension FieldCodec where Stored == Bool {
    public static var boolean: Self {
        Self(write: { value, writer in writer.write(value) }, read: { reader, field in try reader.readBool(field) })
    }
}

extension FieldCodec where Stored == Double {
    /// A finite number within `range` (above its lower bound with `exclusiveLower`), written as an
    /// integer when whole.
    public static func number(_ range: NumberRange, exclusiveLower: Bool = false) -> Self {
        Self(
            write: { value, writer in writer.writeNumber(value) },
            read: { reader, field in try reader.readNumber(field, in: range, exclusiveLower: exclusiveLower) })
    }
}

extension FieldCodec where Stored == [Double] {
    /// An array of numbers within `range`, written with one capacity check.
    public static func numbers(_ range: NumberRange, count: ClosedRange<Int> = 0...Int.max) -> Self {
        let item = FieldCodec<Double>.number(range)
        return Self(
            write: { values, writer in writer.writeNumbers(values) }, read: FieldCodec.array(item, count: count).read)
    }
}

extension FieldCodec where Stored == Int {
    public static func integer(_ range: ClosedRange<Int64>) -> Self {
        Self(
            write: { value, writer in writer.write(value) },
            read: { reader, field in Int(try reader.readInteger(field, in: range)) })
    }
}

extension FieldCodec where Stored == Int64 {
    public static func integer(_ range: ClosedRange<Int64>) -> Self {
        Self(
            write: { value, writer in writer.write(value) },
            read: { reader, field in try reader.readInteger(field, in: range) })
    }
}

extension FieldCodec where Stored == UInt64 {
    public static func integer(_ range: ClosedRange<UInt64>) -> Self {
        Self(
            write: { value, writer in writer.write(value) },
            read: { reader, field in try reader.readUnsigned(field, in: range) })
    }
}

extension FieldCodec where Stored: RawRepresentable, Stored.RawValue == String {
    /// A string naming a case.
    public static var enumeration: Self {
        Self(
            write: { value, writer in writer.write(value.rawValue) },
            read: { reader, field in try reader.readEnum(Stored.self, field) })
    }
}

extension FieldCodec where Stored: MessagePackMap {
    /// A map of a generated type.
    public static var map: Self {
        Self(
            write: { value, writer in value.encode(to: &writer) },
            read: { reader, field in try Stored(from: &reader, path: field.description) })
    }
}

extension FieldCodec where Stored == ValueMap {
    /// A map of any content.
    public static var anyMap: Self {
        Self(
            write: { value, writer in writer.write(Value.map(value)) },
            read: { reader, field in try reader.readMapValue(field) })
    }
}
