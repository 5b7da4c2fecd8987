/// One field of a generated type: its key, how it is reached in the Swift value, and its codec.
///
/// The generated types list theirs in a ``MessageTable``; the table's one encoder and one decoder
/// serve every type, so a message's fields are written down once, in its schema, and once in Swift.
public struct MessageField<Root> {
    /// The payload key.
    public let key: StaticString
    /// The decoder refuses a payload without it.
    public let required: Bool
    /// Writes the key and value, or nothing for an absent optional value; true when it wrote.
    let write: (Root, inout MessagePackWriter) -> Bool
    /// Reads the value into the root.
    let read: (inout Root, inout MessagePackReader, FieldName) throws -> Void

    /// A value always written: required, or optional with a default the blank value holds.
    public static func value<Stored>(
        _ key: StaticString, required: Bool = true, _ get: @escaping (Root) -> Stored,
        _ set: @escaping (inout Root, Stored) -> Void, _ codec: FieldCodec<Stored>
    ) -> Self {
        let write = codec.write
        let read = codec.read
        return Self(
            key: key, required: required,
            write: { root, writer in
                writer.writeKey(key)
                write(get(root), &writer)
                return true
            },
            read: { root, reader, field in set(&root, try read(&reader, field)) })
    }

    /// An optional value with a default, written only when it differs from the default
    /// (`x-swift-omit-default`): messages keep the keys they had before it was added.
    public static func value<Stored: Equatable>(
        _ key: StaticString, omitting defaultValue: Stored, _ get: @escaping (Root) -> Stored,
        _ set: @escaping (inout Root, Stored) -> Void, _ codec: FieldCodec<Stored>
    ) -> Self {
        let always = Self.value(key, required: false, get, set, codec)
        return Self(
            key: key, required: false,
            write: { root, writer in get(root) != defaultValue && always.write(root, &writer) },
            read: always.read)
    }

    /// An optional value, written only when present. A null reads as absent, as readers of older
    /// minors expect, unless the value itself may be null (`nullIsAbsent` false: an `Int??` whose
    /// null is a value).
    public static func optional<Stored>(
        _ key: StaticString, _ get: @escaping (Root) -> Stored?, _ set: @escaping (inout Root, Stored?) -> Void,
        _ codec: FieldCodec<Stored>, nullIsAbsent: Bool = true
    ) -> Self {
        let write = codec.write
        let read = codec.read
        return Self(
            key: key, required: false,
            write: { root, writer in
                guard let value = get(root) else { return false }
                writer.writeKey(key)
                write(value, &writer)
                return true
            },
            read: { root, reader, field in
                set(&root, nullIsAbsent ? try reader.readNullable { try read(&$0, field) } : try read(&reader, field))
            })
    }

    /// A map whose members are stored as flat properties of the root (`offset` {x, y} as
    /// `offsetX`, `offsetY`): every member is required within it.
    public static func flattened(_ key: StaticString, required: Bool = true, _ members: [MessageField<Root>]) -> Self {
        let members = FieldList(members)
        return Self(
            key: key, required: required,
            write: { root, writer in
                writer.writeKey(key)
                members.encode(root, to: &writer)
                return true
            },
            read: { root, reader, field in try members.decode(over: &root, from: &reader, path: field.description) })
    }
}

/// Fields written and read in order: the one encoder and decoder of every generated type.
struct FieldList<Root> {
    let fields: [MessageField<Root>]
    /// Bit `i` set: field `i` is required (at most 64 fields, checked at creation).
    let requiredMask: UInt64

    init(_ fields: [MessageField<Root>]) {
        precondition(fields.count <= 64, "a generated type has at most 64 fields")
        self.fields = fields
        var mask: UInt64 = 0
        for (index, field) in fields.enumerated() where field.required { mask |= 1 << UInt64(index) }
        self.requiredMask = mask
    }

    /// Writes `root` as a map of its present fields, in order.
    func encode(_ root: Root, to writer: inout MessagePackWriter) {
        writer.writeMap(maximumCount: self.fields.count) { writer in
            var count = 0
            for field in self.fields where field.write(root, &writer) { count += 1 }
            return count
        }
    }

    /// Reads the map at `path` into `root`, ignoring unknown keys and checking every value.
    func decode(over root: inout Root, from reader: inout MessagePackReader, path: String) throws {
        var seen: UInt64 = 0
        try reader.readMap { reader, key in
            guard let index = self.index(of: key) else { return try reader.skip() }
            seen |= 1 << UInt64(index)
            let field = self.fields[index]
            try field.read(&root, &reader, FieldName(path, field.key))
        }
        let missing = self.requiredMask & ~seen
        if missing != 0 {
            let field = self.fields[missing.trailingZeroBitCount]
            throw CodecError(.missingField, offset: reader.offset, context: FieldName(path, field.key).description)
        }
    }

    private func index(of key: MessagePackKey) -> Int? {
        for index in self.fields.indices where self.fields[index].key ~= key { return index }
        return nil
    }
}

/// A generated type's fields over a blank value: the type's MessagePack codec.
public struct MessageTable<Root>: @unchecked Sendable {
    /// A value to decode over: required fields empty, optional ones absent or at their default.
    public let blank: Root
    let list: FieldList<Root>

    public init(blank: Root, _ fields: [MessageField<Root>]) {
        self.blank = blank
        self.list = FieldList(fields)
    }

    /// Writes `root` as a map of its present fields, in table order.
    public func encode(_ root: Root, to writer: inout MessagePackWriter) {
        self.list.encode(root, to: &writer)
    }

    /// Reads the map at `path`, ignoring unknown keys and checking every value against the schema.
    ///
    /// - Throws: ``CodecError`` naming the field: `missing_field` for a required one not sent.
    public func decode(from reader: inout MessagePackReader, path: String) throws -> Root {
        var root = self.blank
        try self.list.decode(over: &root, from: &reader, path: path)
        return root
    }
}

extension MessagePackWriter {
    /// Writes a map of at most `maximumCount` pairs that `body` writes, returning how many: the
    /// header is written after them, in its shortest form, so one pass serves optional fields.
    mutating func writeMap(maximumCount: Int, _ body: (inout MessagePackWriter) -> Int) {
        let headerSize = maximumCount < 16 ? 1 : 3
        let start = self.count
        self.withReserved(headerSize) { $0.pointer += headerSize }
        let count = body(&self)
        self.setMapHeader(at: start, size: headerSize, count: count)
    }
}

/// A generated type: its ``MessageTable`` is its MessagePack codec.
public protocol TableCoded: MessagePackMap {
    /// The fields, in the order they are written, over a blank value to decode into.
    static var table: MessageTable<Self> { get }
}

extension TableCoded {
    /// Decodes the map at `path` (empty at the top), naming the field in any error.
    public init(from reader: inout MessagePackReader, path: String) throws {
        self = try Self.table.decode(from: &reader, path: path)
    }

    public func encode(to writer: inout MessagePackWriter) {
        Self.table.encode(self, to: &writer)
    }
}

extension TableCoded where Self: BusMessage {
    /// Decodes a payload map, ignoring unknown keys; every value is checked against the schema.
    public init(from reader: inout MessagePackReader) throws {
        try self.init(from: &reader, path: "")
    }
}

extension TableCoded where Self: ValueMessage {
    /// Decodes a payload map, ignoring unknown keys; every value is checked against the schema.
    public init(from reader: inout MessagePackReader) throws {
        try self.init(from: &reader, path: "")
    }

    /// Reads a decoded payload through the MessagePack decoder, so both check the same rules.
    public init(payload: Value) throws {
        try self.init(messagePack: payload.messagePack)
    }
}
