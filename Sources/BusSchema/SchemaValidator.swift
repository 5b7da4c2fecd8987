/// Validates ``Value``s against the JSON Schema (2020-12) subset UIBus's schemas use.
///
/// Supported: `type`, `properties`, `required`, `additionalProperties`, `enum`, `const`,
/// `items`, `minItems`, `maxItems`, `uniqueItems`, `minimum`, `maximum`, `exclusiveMinimum`,
/// `exclusiveMaximum`, `minLength`, `maxLength`, `pattern`, `allOf`, `anyOf`, `oneOf`, `not`,
/// `if`/`then`/`else`. Other keywords (annotations like `description`) are ignored.
public struct SchemaValidator: Sendable {
    public let schema: Value

    public init(schema: Value) {
        self.schema = schema
    }

    /// One way the instance breaks the schema: where (a JSON pointer) and what.
    public struct Violation: Sendable, Hashable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "\(self.path.isEmpty ? "/" : self.path): \(self.message)" }
    }

    /// Every violation found (empty when `instance` is valid).
    public func violations(of instance: Value) -> [Violation] {
        var found: [Violation] = []
        Self.check(instance, against: self.schema, path: "", into: &found)
        return found
    }

    private static func check(_ instance: Value, against schema: Value, path: String, into found: inout [Violation]) {
        if case .bool(let allowed) = schema {
            if !allowed { found.append(Violation(path: path, message: "not allowed here")) }
            return
        }
        guard case .map(let rules) = schema else { return }
        if let type = rules["type"] {
            let names = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue].compactMap { $0 }
            if !names.contains(where: { Self.matches(instance, type: $0) }) {
                let expected = names.joined(separator: " or ")
                found.append(Violation(path: path, message: "expected \(expected), found \(instance.jsonTypeName)"))
                return
            }
        }
        if let options = rules["enum"]?.arrayValue, !options.contains(where: { Self.equal($0, instance) }) {
            let listed = options.map(\.json).joined(separator: ", ")
            found.append(Violation(path: path, message: "\(instance.json) is not one of \(listed)"))
        }
        if let constant = rules["const"], !Self.equal(constant, instance) {
            found.append(Violation(path: path, message: "must be \(constant.json)"))
        }
        Self.checkNumber(instance, rules, path, &found)
        Self.checkString(instance, rules, path, &found)
        Self.checkArray(instance, rules, path, &found)
        Self.checkObject(instance, rules, path, &found)
        Self.checkCombinators(instance, rules, path, &found)
    }

    private static func checkNumber(_ instance: Value, _ rules: ValueMap, _ path: String, _ found: inout [Violation]) {
        guard let number = instance.doubleValue else { return }
        if let minimum = rules["minimum"]?.doubleValue, number < minimum {
            found.append(Violation(path: path, message: "\(instance.json) is below the minimum \(minimum)"))
        }
        if let maximum = rules["maximum"]?.doubleValue, number > maximum {
            found.append(Violation(path: path, message: "\(instance.json) is above the maximum \(maximum)"))
        }
        if let bound = rules["exclusiveMinimum"]?.doubleValue, number <= bound {
            found.append(Violation(path: path, message: "\(instance.json) must be greater than \(bound)"))
        }
        if let bound = rules["exclusiveMaximum"]?.doubleValue, number >= bound {
            found.append(Violation(path: path, message: "\(instance.json) must be less than \(bound)"))
        }
    }

    private static func checkString(_ instance: Value, _ rules: ValueMap, _ path: String, _ found: inout [Violation]) {
        guard case .string(let string) = instance else { return }
        let length = string.unicodeScalars.count
        if let minimum = rules["minLength"]?.intValue, length < minimum {
            found.append(Violation(path: path, message: "shorter than \(minimum) characters"))
        }
        if let maximum = rules["maxLength"]?.intValue, length > maximum {
            found.append(Violation(path: path, message: "longer than \(maximum) characters"))
        }
        if let pattern = rules["pattern"]?.stringValue {
            if let regex = try? Regex(pattern) {
                if !string.contains(regex) {
                    found.append(Violation(path: path, message: "'\(string)' does not match /\(pattern)/"))
                }
            } else {
                found.append(Violation(path: path, message: "schema pattern /\(pattern)/ is not a valid regex"))
            }
        }
    }

    private static func checkArray(_ instance: Value, _ rules: ValueMap, _ path: String, _ found: inout [Violation]) {
        let count: Int
        switch instance {
        case .array(let array): count = array.count
        // A bin is an array of bytes (as JSONWriter writes it); only its size needs checking.
        case .binary(let bytes): count = bytes.count
        default: return
        }
        if let minimum = rules["minItems"]?.intValue, count < minimum {
            found.append(Violation(path: path, message: "fewer than \(minimum) items"))
        }
        if let maximum = rules["maxItems"]?.intValue, count > maximum {
            found.append(Violation(path: path, message: "more than \(maximum) items"))
        }
        guard case .array(let array) = instance else { return }
        if rules["uniqueItems"]?.boolValue == true, Set(array).count != array.count {
            found.append(Violation(path: path, message: "items are not unique"))
        }
        if let items = rules["items"] {
            for (index, element) in array.enumerated() {
                Self.check(element, against: items, path: "\(path)/\(index)", into: &found)
            }
        }
    }

    private static func checkObject(_ instance: Value, _ rules: ValueMap, _ path: String, _ found: inout [Violation]) {
        guard case .map(let object) = instance else { return }
        for name in rules["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where object[name] == nil {
            found.append(Violation(path: path, message: "missing required field '\(name)'"))
        }
        let properties = rules["properties"]?.mapValue ?? ValueMap()
        for (key, value) in object {
            let childPath = "\(path)/\(key)"
            if let property = properties[key] {
                Self.check(value, against: property, path: childPath, into: &found)
            } else if let additional = rules["additionalProperties"] {
                Self.check(value, against: additional, path: childPath, into: &found)
            }
        }
    }

    private static func checkCombinators(
        _ instance: Value, _ rules: ValueMap, _ path: String, _ found: inout [Violation]
    ) {
        for schema in rules["allOf"]?.arrayValue ?? [] {
            Self.check(instance, against: schema, path: path, into: &found)
        }
        if let options = rules["anyOf"]?.arrayValue, !options.contains(where: { Self.isValid(instance, $0) }) {
            found.append(Violation(path: path, message: "matches none of anyOf"))
        }
        if let options = rules["oneOf"]?.arrayValue, options.filter({ Self.isValid(instance, $0) }).count != 1 {
            found.append(Violation(path: path, message: "does not match exactly one of oneOf"))
        }
        if let negated = rules["not"], Self.isValid(instance, negated) {
            found.append(Violation(path: path, message: "matches a schema it must not"))
        }
        if let condition = rules["if"] {
            let branch = Self.isValid(instance, condition) ? rules["then"] : rules["else"]
            if let branch { Self.check(instance, against: branch, path: path, into: &found) }
        }
    }

    private static func isValid(_ instance: Value, _ schema: Value) -> Bool {
        var found: [Violation] = []
        Self.check(instance, against: schema, path: "", into: &found)
        return found.isEmpty
    }

    private static func matches(_ instance: Value, type: String) -> Bool {
        switch (type, instance) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .map):
            return true
        case ("array", .binary):  // a bin is an array of bytes in JSON (`render.image`'s data)
            return true
        case ("integer", .int), ("integer", .uint), ("number", .int), ("number", .uint), ("number", .double):
            return true
        case ("integer", .double(let double)):
            return double.rounded() == double
        default:
            return false
        }
    }

    /// JSON equality: numbers compare by value, whatever their representation.
    private static func equal(_ lhs: Value, _ rhs: Value) -> Bool {
        if let left = lhs.doubleValue, let right = rhs.doubleValue { return left == right }
        return lhs == rhs
    }
}
