/// A map that reads and writes itself: every generated type (a message, or a map inside one such
/// as ``StateAnimation`` or ``TouchInput``), so hand-written messages can carry them too.
public protocol MessagePackMap: Sendable {
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

extension MessagePackWriter {
    /// Writes `key` and the map.
    public mutating func writeField<Map: MessagePackMap>(_ key: String, _ map: Map) {
        self.write(key)
        map.encode(to: &self)
    }
}
