/// A message schema: its id (`gesture.event`) and version (`major.minor`).
///
/// The id names the directory `schemas/<id>/`, the major names the file `v<major>.json`.
/// Minors only add optional fields; a new major is a new file.
public struct SchemaID: Sendable, Hashable, CustomStringConvertible {
    public var id: String
    public var major: Int
    public var minor: Int

    public init(_ id: String, major: Int, minor: Int = 0) {
        self.id = id
        self.major = major
        self.minor = minor
    }

    public var description: String { "\(self.id) v\(self.major).\(self.minor)" }
}

/// One field of a typed message, as the field-by-field schema agreement test sees it.
public struct FieldSpec: Sendable, Hashable {
    /// The payload key.
    public var name: String
    /// The JSON Schema type (`integer`, `number`, `string`, `boolean`, `array`, `object`).
    public var type: String
    public var required: Bool

    public init(_ name: String, _ type: String, required: Bool = true) {
        self.name = name
        self.type = type
        self.required = required
    }
}

/// A typed payload that UIBus publishes: it knows its schema and encodes itself.
public protocol BusMessage: Sendable {
    /// The schema this type implements, with the minor it writes.
    static var schema: SchemaID { get }
    /// Appends this message's payload map to `writer`.
    func encode(to writer: inout MessagePackWriter)
    /// Decodes a payload map, ignoring unknown keys and defaulting missing optional ones.
    ///
    /// - Throws: ``CodecError`` for malformed bytes or a missing required field.
    init(from reader: inout MessagePackReader) throws
}

/// A hand-written message type (the generated ones, in `Generated/`, come from their schema): it
/// lists its top-level fields, and a test checks them against `schemas/<id>/v<major>.json`.
public protocol HandWrittenMessage: BusMessage {
    static var fields: [FieldSpec] { get }
}

/// A message that decodes over an existing value, reusing its storage (strings that repeat,
/// arrays big enough): a subscriber decoding message after message into one value allocates
/// nothing once it has seen the stream's shape.
public protocol ReusableBusMessage: BusMessage {
    /// A value with every field empty, to decode the first message over.
    static var empty: Self { get }

    /// Decodes a payload map into this value.
    ///
    /// - Throws: ``CodecError`` for malformed bytes or a missing required field; the value's
    ///   contents are unspecified then, and the next decode overwrites them all.
    mutating func decode(from reader: inout MessagePackReader) throws
}

extension ReusableBusMessage {
    /// Decodes a complete payload into this value (see ``decode(from:)``).
    ///
    /// - Throws: ``CodecError`` for malformed bytes, a missing required field or trailing bytes.
    @inlinable
    public mutating func decode(messagePack bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var reader = MessagePackReader(raw)
            try self.decode(from: &reader)
            try reader.expectEnd()
        }
    }
}

extension BusMessage {
    /// Decodes a complete payload from `bytes`.
    public init(messagePack bytes: [UInt8]) throws {
        self = try bytes.withUnsafeBytes { raw in
            var reader = MessagePackReader(raw)
            let message = try Self(from: &reader)
            try reader.expectEnd()
            return message
        }
    }

    /// This message's payload as MessagePack.
    public var messagePack: [UInt8] {
        var writer = MessagePackWriter()
        self.encode(to: &writer)
        return writer.bytes
    }

    /// This message as a dynamic ``Value`` (through its MessagePack encoding).
    public var value: Value {
        // The encoding is our own, so decoding it cannot fail.
        (try? Value(messagePack: self.messagePack)) ?? .null
    }
}

extension MessagePackReader {
    /// Throws a ``CodecError/Code/missingField`` error unless `value` is present.
    public func require<T>(_ value: T?, _ field: String) throws -> T {
        guard let value else { throw CodecError(.missingField, offset: self.offset, context: field) }
        return value
    }
}
