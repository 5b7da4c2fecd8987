/// A map that reads and writes itself: every generated type (a message, or a map inside one such
/// as ``StateAnimation`` or ``TouchInput``), so hand-written messages can carry them too.
public protocol MessagePackMap: MessagePackField, Sendable where Rule == TypeRule {
    /// Decodes the map at `path` (empty at the top), naming the field in any error.
    init(from reader: inout MessagePackReader, path: String) throws
    /// Appends the map to `writer`.
    func encode(to writer: inout MessagePackWriter)
}

extension MessagePackMap {
    /// Reads the map from a decoded payload's field, with the checks of the MessagePack decoder.
    ///
    /// - Throws: ``CodecError`` naming the field it refuses.
    public init(fields: PayloadFields) throws {
        self = try fields.value.messagePack.withUnsafeBytes { raw in
            var reader = MessagePackReader(raw)
            return try Self(from: &reader, path: fields.path)
        }
    }
}

extension BusMessage where Self: MessagePackMap {
    /// Decodes a payload map, ignoring unknown keys; every value is checked against the schema.
    public init(from reader: inout MessagePackReader) throws {
        try self.init(from: &reader, path: "")
    }
}

extension ValueMessage where Self: MessagePackMap {
    /// Decodes a payload map straight from MessagePack (not through a ``Value``), checking every
    /// value against the schema.
    public init(from reader: inout MessagePackReader) throws {
        try self.init(from: &reader, path: "")
    }

    /// Reads a decoded payload through the MessagePack decoder, so both check the same rules.
    public init(payload: Value) throws {
        try self.init(messagePack: payload.messagePack)
    }
}

extension MessagePackWriter {
    /// Writes `key` and the map.
    public mutating func writeField<Map: MessagePackMap>(_ key: String, _ map: Map) {
        self.write(key)
        map.encode(to: &self)
    }
}
