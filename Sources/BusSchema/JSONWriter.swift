/// Serializes ``Value``s as compact JSON (one line, keys in their stored order).
public enum JSONWriter {
    /// `value` as a JSON text. Non-finite doubles become `null`; binary becomes an array of bytes.
    public static func string(_ value: Value) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        Self.write(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `value` as JSON to `out`.
    public static func write(_ value: Value, into out: inout [UInt8]) {
        switch value {
        case .null: Self.append("null", to: &out)
        case .bool(let bool): Self.append(bool ? "true" : "false", to: &out)
        case .int(let int): Self.append(String(int), to: &out)
        case .uint(let uint): Self.append(String(uint), to: &out)
        case .double(let double):
            Self.append(double.isFinite ? Self.format(double) : "null", to: &out)
        case .string(let string): Self.writeString(string, into: &out)
        case .binary(let bytes):
            Self.write(.array(bytes.map { .int(Int64($0)) }), into: &out)
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .map(let map):
            out.append(UInt8(ascii: "{"))
            for (index, entry) in map.entries.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(entry.key, into: &out)
                out.append(UInt8(ascii: ":"))
                Self.write(entry.value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Swift prints whole doubles as `2.0` and large ones as `1e+20`; both are valid JSON.
    private static func format(_ double: Double) -> String {
        double.description
    }

    private static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): Self.append("\\\"", to: &out)
            case UInt8(ascii: "\\"): Self.append("\\\\", to: &out)
            case 0x0a: Self.append("\\n", to: &out)
            case 0x0d: Self.append("\\r", to: &out)
            case 0x09: Self.append("\\t", to: &out)
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                Self.append("\\u00" + (hex.count == 1 ? "0" + hex : hex), to: &out)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func append(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: text.utf8)
    }
}

extension Value {
    /// This value as compact JSON.
    public var json: String { JSONWriter.string(self) }
}
