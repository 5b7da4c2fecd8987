extension MessagePackReader {
    /// Reads the map at `path` (empty at the top) into `map`'s fields, which start at their
    /// defaults: unknown keys are skipped, a missing required field is refused by name.
    ///
    /// - Throws: ``CodecError`` naming the field it refuses.
    @inlinable
    public mutating func readFields<Map: MapFields>(into map: inout Map, path: String) throws {
        var decoder = MapFieldDecoder(reader: self, path: path)
        try decoder.decode(&map)
        self = decoder.reader
    }
}

extension CodecError {
    /// A `missing_field` error naming `field`.
    public static func missing(_ field: FieldName, at offset: Int) -> CodecError {
        CodecError(.missingField, offset: offset, context: field.description)
    }
}

/// Reads a map through the field list of ``MapFields/visitFields(_:)``.
///
/// The fast path is the order the encoder writes: each pass over the list reads the next key once
/// and hands it to the field of that key, so a map written by UIBus takes one pass and one key
/// comparison a listed field. A key that no field took in a pass (another order, or a key unknown
/// to this minor) gets one more pass from the top, and is skipped when no field takes it there.
/// Required fields are counted in a bitmask (the generator refuses types of more than 64 fields).
@usableFromInline
struct MapFieldDecoder: MapFieldVisitor {
    @usableFromInline typealias Failure = any Error

    @usableFromInline var reader: MessagePackReader
    @usableFromInline let path: String
    /// Entries whose key is not read yet.
    @usableFromInline var remaining = 0
    /// The key read whose value is next in the input, until a field takes it.
    @usableFromInline var pending: MessagePackKey?
    /// The listed field being visited, from 0 in each pass.
    @usableFromInline var index = 0
    @usableFromInline var found: UInt64 = 0
    @usableFromInline var required: UInt64 = 0
    /// How many values fields have taken.
    @usableFromInline var taken = 0
    /// Set for the last pass, which names the first required field not found.
    @usableFromInline var naming = false

    @inlinable
    init(reader: MessagePackReader, path: String) {
        self.reader = reader
        self.path = path
    }

    @inlinable
    mutating func decode<Map: MapFields>(_ map: inout Map) throws {
        self.remaining = try self.reader.readMapHeader()
        while true {
            if self.pending == nil {
                guard self.remaining > 0 else { break }
                self.remaining -= 1
                self.pending = try self.reader.readKey()
            }
            let taken = self.taken
            self.index = 0
            try map.visitFields(&self)
            if self.taken == taken {
                // The key at the start of the pass stayed pending through it: no field has it.
                try self.reader.skip()
                self.pending = nil
            }
        }
        if self.found & self.required != self.required {
            self.naming = true
            self.index = 0
            try map.visitFields(&self)
        }
    }

    @inlinable
    mutating func write<V: MessagePackValue>(_ key: StaticString, _ value: V) {}

    @inlinable @inline(__always)
    mutating func readField(
        _ key: StaticString, required: Bool, _ read: (inout MessagePackReader, FieldName) throws -> Void
    ) throws {
        let bit: UInt64 = 1 << UInt64(self.index)
        self.index += 1
        if self.naming {
            if required, self.found & bit == 0 {
                throw CodecError.missing(FieldName(self.path, key), at: self.reader.offset)
            }
            return
        }
        if required { self.required |= bit }
        if self.pending == nil {
            guard self.remaining > 0 else { return }
            self.remaining -= 1
            self.pending = try self.reader.readKey()
        }
        guard let pending = self.pending, key ~= pending else { return }
        self.pending = nil
        self.found |= bit
        self.taken += 1
        try read(&self.reader, FieldName(self.path, key))
    }
}
