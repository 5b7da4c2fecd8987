/// Helpers the memo messages share for optional and nullable fields.
extension MessagePackWriter {
    /// Writes `key` and a string.
    mutating func write(_ key: String, string value: String) {
        self.write(key)
        self.write(value)
    }

    /// Writes `key` and an integer.
    mutating func write(_ key: String, int value: Int64) {
        self.write(key)
        self.write(value)
    }

    /// Writes `key` and a number.
    mutating func write(_ key: String, double value: Double) {
        self.write(key)
        self.write(value)
    }

    /// Writes `key` and a boolean.
    mutating func write(_ key: String, bool value: Bool) {
        self.write(key)
        self.write(value)
    }

    /// Writes `key` and the value, or nil.
    mutating func write(_ key: String, nullableInt value: Int64?) {
        self.write(key)
        if let value { self.write(value) } else { self.writeNil() }
    }

    /// Writes `key` and the string, or nil.
    mutating func write(_ key: String, nullableString value: String?) {
        self.write(key)
        if let value { self.write(value) } else { self.writeNil() }
    }
}
