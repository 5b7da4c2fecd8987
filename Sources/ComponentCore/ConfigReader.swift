import BusSchema
import GestureCore

/// Typed access to a component's `config` object, with errors that name the field path.
struct ConfigReader {
    let value: Value
    let path: String

    init(_ value: Value, path: String) {
        self.value = value
        self.path = path
    }

    private func field(_ key: String) -> Value? {
        guard let value = self.value[key], value != .null else { return nil }
        return value
    }

    private func bad(_ key: String, _ message: String) -> SceneError {
        SceneError(.invalidValue, field: "\(self.path).\(key)", message)
    }

    /// A number at least `minimum` (above it when `exclusive`).
    func number(_ key: String, default fallback: Double, minimum: Double = 0, exclusive: Bool = false)
        throws(SceneError)
        -> Double
    {
        guard let value = self.field(key) else { return fallback }
        guard let number = value.doubleValue, number.isFinite else {
            throw self.bad(key, "expected a number, found \(value.jsonTypeName)")
        }
        guard exclusive ? number > minimum : number >= minimum else {
            throw self.bad(key, "\(number) is out of range (must be \(exclusive ? "above" : "at least") \(minimum))")
        }
        return number
    }

    func int(_ key: String, default fallback: Int, minimum: Int, maximum: Int = .max) throws(SceneError) -> Int {
        guard let value = self.field(key) else { return fallback }
        guard let int = value.intValue.flatMap({ Int(exactly: $0) }) else {
            throw self.bad(key, "expected an integer, found \(value.jsonTypeName)")
        }
        guard int >= minimum else { throw self.bad(key, "\(int) is below \(minimum)") }
        guard int <= maximum else { throw self.bad(key, "\(int) is above \(maximum)") }
        return int
    }

    func bool(_ key: String, default fallback: Bool) throws(SceneError) -> Bool {
        guard let value = self.field(key) else { return fallback }
        guard let bool = value.boolValue else {
            throw self.bad(key, "expected true or false, found \(value.jsonTypeName)")
        }
        return bool
    }

    func optionalString(_ key: String) throws(SceneError) -> String? {
        guard let value = self.field(key) else { return nil }
        guard let string = value.stringValue, !string.isEmpty else {
            throw self.bad(key, "expected a non-empty string, found \(value.jsonTypeName)")
        }
        return string
    }

    func enumValue<E: RawRepresentable>(_ key: String, default fallback: E) throws(SceneError) -> E
    where E.RawValue == String {
        guard let raw = try self.optionalString(key) else { return fallback }
        guard let value = E(rawValue: raw) else { throw self.bad(key, "unknown value '\(raw)'") }
        return value
    }

    func optionalStrings(_ key: String) throws(SceneError) -> [String]? {
        guard let value = self.field(key) else { return nil }
        guard let array = value.arrayValue else {
            throw self.bad(key, "expected an array, found \(value.jsonTypeName)")
        }
        var strings: [String] = []
        for (index, element) in array.enumerated() {
            guard let string = element.stringValue else { throw self.bad("\(key)[\(index)]", "expected a string") }
            strings.append(string)
        }
        return strings
    }

    /// Unique digits 0…9.
    func digits(_ key: String) throws(SceneError) -> Set<Int>? {
        guard let value = self.field(key) else { return nil }
        guard let array = value.arrayValue else {
            throw self.bad(key, "expected an array, found \(value.jsonTypeName)")
        }
        var digits: Set<Int> = []
        for (index, element) in array.enumerated() {
            guard let digit = element.intValue, (0...9).contains(digit) else {
                throw self.bad("\(key)[\(index)]", "expected a digit 0…9, found \(element.json)")
            }
            guard digits.insert(Int(digit)).inserted else {
                throw self.bad("\(key)[\(index)]", "digit \(digit) is repeated")
            }
        }
        return digits
    }

    /// A `#RRGGBB` or `#RRGGBBAA` colour.
    func color(_ key: String, default fallback: String) throws(SceneError) -> String {
        guard let color = try self.optionalString(key) else { return fallback }
        let hex = color.dropFirst()
        guard color.hasPrefix("#"), hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit) else {
            throw self.bad(key, "expected #RRGGBB or #RRGGBBAA, found '\(color)'")
        }
        return color
    }

    func object(_ key: String) throws(SceneError) -> ConfigReader? {
        guard let value = self.field(key) else { return nil }
        guard value.mapValue != nil else { throw self.bad(key, "expected an object, found \(value.jsonTypeName)") }
        return ConfigReader(value, path: "\(self.path).\(key)")
    }
}
