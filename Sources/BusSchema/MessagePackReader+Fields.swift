extension MessagePackReader {
    /// Reads a string and maps it onto `E`, naming `field` and the bad value otherwise.
    public mutating func readEnum<E: RawRepresentable>(_: E.Type, field: String) throws -> E
    where E.RawValue == String {
        let start = self.offset
        let raw = try self.readString()
        guard let value = E(rawValue: raw) else {
            throw CodecError(.invalidValue, offset: start, context: "\(field): '\(raw)'")
        }
        return value
    }

    /// Reads an integer that must fit in `Int`.
    public mutating func readInteger() throws -> Int {
        Int(try self.readInt())
    }

    /// Reads a map of string keys to unsigned integers, in order.
    public mutating func readCounts() throws -> [(String, UInt64)] {
        var counts: [(String, UInt64)] = []
        try self.readMap { reader, key in counts.append((try key.string(), try reader.readUInt())) }
        return counts
    }
}

extension MessagePackWriter {
    /// Writes a map of string keys to unsigned integers, in the given order.
    public mutating func writeCounts(_ counts: [(String, UInt64)]) {
        self.writeMapHeader(counts.count)
        for (key, count) in counts {
            self.write(key)
            self.write(count)
        }
    }
}
