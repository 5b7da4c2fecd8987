import BusSchema

/// Reads one message schema into struct and enum models.
///
/// Swift names come from the keys (`listening_direction` → `listeningDirection`, `frame_id` →
/// `frameID`) unless the schema says otherwise with annotations the schema rules leave free:
/// `x-swift-type` (a message's type; a map's, an enum's or an integer's Swift type, qualified),
/// `x-swift-name` (a property's name), `x-swift-flatten` (a map stored as flat properties),
/// `x-swift-protocols` (a message's protocols), `x-swift-fast-path` (the codec halves a hand-tuned
/// path provides), `x-swift-pair` (a two-item array stored as a struct), `x-swift-float64` (a number
/// always written as a float64), `x-swift-doc` (a type's documentation) and `default` (an optional
/// value's default).
struct SchemaReader {
    let file: String
    var registry: TypeRegistry

    /// Reads the message at the schema's root; nil when the schema asks for no generated type.
    mutating func readMessage(_ schema: Value) throws -> StructModel? {
        guard let name = schema["x-swift-type"]?.stringValue else { return nil }
        guard let id = schema["$id"]?.stringValue, id.hasPrefix("uibus:"), let slash = id.lastIndex(of: "/"),
            let major = Int(id[id.index(after: slash)...].dropFirst()),
            let minor = schema["x-uibus-minor"]?.intValue
        else { throw CodegenError("\(self.file): needs \"$id\": \"uibus:<id>/v<major>\" and x-uibus-minor") }
        let schemaID = SchemaID(String(id.dropFirst(6)[..<slash]), major: major, minor: Int(minor))
        var model = try self.readStruct(schema, name: name, path: "")
        model.schema = schemaID
        model.protocols = schema["x-swift-protocols"]?.arrayValue?.compactMap(\.stringValue) ?? ["BusMessage"]
        model.fastPath = Set(schema["x-swift-fast-path"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        try self.registry.add(model)
        return model
    }

    private mutating func readStruct(_ schema: Value, name: String, path: String) throws -> StructModel {
        guard let properties = schema["properties"]?.mapValue else {
            throw CodegenError("\(self.file)\(path): an object needs \"properties\"")
        }
        let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        var result: [Property] = []
        for (key, property) in properties {
            result.append(
                try self.readProperty(property, key: key, required: required.contains(key), owner: name, path: path))
        }
        return StructModel(
            name: name, properties: result, doc: (schema["x-swift-doc"] ?? schema["description"])?.stringValue,
            schema: nil, protocols: [],
            source: self.file)
    }

    private mutating func readProperty(
        _ schema: Value, key: String, required: Bool, owner: String, path: String
    ) throws -> Property {
        let here = "\(path)/\(key)"
        var types = schema["type"]?.arrayValue?.compactMap(\.stringValue) ?? [schema["type"]?.stringValue ?? ""]
        let nullable = types.contains("null")
        types.removeAll { $0 == "null" }
        guard types.count == 1 else { throw CodegenError("\(self.file)\(here): one type (and null) expected") }
        var property = Property(
            key: key, name: schema["x-swift-name"]?.stringValue ?? Naming.property(key), shape: .boolean,
            required: required, nullable: nullable, defaultValue: nil, flattened: nil,
            doc: schema["description"]?.stringValue)
        if let names = schema["x-swift-flatten"]?.arrayValue?.compactMap(\.stringValue) {
            property.flattened = try self.readFlattened(schema, names: names, path: here)
            return property
        }
        property.shape = try self.readShape(schema, type: types[0], key: key, owner: owner, path: here)
        if schema["x-swift-float64"]?.boolValue == true {
            guard case .number = property.shape, required, !nullable else {
                throw CodegenError("\(self.file)\(here): x-swift-float64 is for a required, non-null number")
            }
            property.float64 = true
        }
        if let value = schema["default"] {
            guard !required else { throw CodegenError("\(self.file)\(here): a required property has no default") }
            property.defaultValue = try Self.literal(value, for: property.shape, at: "\(self.file)\(here)")
            property.omitsDefault = schema["x-swift-omit-default"]?.boolValue == true
        }
        return property
    }

    private mutating func readFlattened(_ schema: Value, names: [String], path: String) throws -> [Property] {
        let members = try self.readStruct(schema, name: "", path: path).properties
        guard members.count == names.count, members.allSatisfy(\.required) else {
            throw CodegenError("\(self.file)\(path): x-swift-flatten names each required member, in order")
        }
        return zip(members, names).map { member, name in
            var member = member
            member.name = name
            return member
        }
    }

    private mutating func readShape(
        _ schema: Value, type: String, key: String, owner: String, path: String
    ) throws -> Shape {
        let swiftType = schema["x-swift-type"]?.stringValue
        switch type {
        case "string":
            // `x-swift-type: String`: an enum the Swift code keeps as text (a memo's colour).
            guard let cases = schema["enum"]?.arrayValue, swiftType != "String" else {
                return try self.readString(schema, path: path)
            }
            let name = swiftType ?? "\(owner).\(Naming.type(key))"
            try self.registry.add(
                EnumModel(
                    name: name, cases: cases.compactMap(\.stringValue),
                    doc: (schema["x-swift-doc"] ?? schema["description"])?.stringValue,
                    source: self.file))
            return .enumeration(name)
        case "boolean":
            return .boolean
        case "integer":
            let int64 = schema["x-uibus-int64"]?.boolValue == true
            return .integer(
                swift: swiftType ?? (int64 ? "Int64" : "Int"), minimum: schema["minimum"].map(Self.integerText),
                maximum: schema["maximum"].map(Self.integerText))
        case "number":
            let exclusive = schema["exclusiveMinimum"]?.doubleValue
            return .number(
                minimum: exclusive ?? schema["minimum"]?.doubleValue, maximum: schema["maximum"]?.doubleValue,
                exclusiveMinimum: exclusive != nil)
        case "object":
            // `x-swift-type: ValueMap`: an open map whose listed members are only some of what it carries.
            guard let properties = schema["properties"]?.mapValue, properties.count > 0, swiftType != "ValueMap"
            else { return .anyMap }
            let name = swiftType ?? "\(owner).\(Naming.type(key))"
            try self.registry.add(try self.readStruct(schema, name: name, path: path))
            return .object(name)
        case "array":
            guard let items = schema["items"] else { throw CodegenError("\(self.file)\(path): an array needs items") }
            if let members = schema["x-swift-pair"]?.arrayValue?.compactMap(\.stringValue), let name = swiftType {
                guard members.count == 2, schema["minItems"]?.intValue == 2, schema["maxItems"]?.intValue == 2 else {
                    throw CodegenError("\(self.file)\(path): x-swift-pair needs two names and exactly two items")
                }
                let item = try self.readShape(
                    items, type: items["type"]?.stringValue ?? "", key: key, owner: owner, path: "\(path)/items")
                return .pair(name, members: members, item: item)
            }
            let itemTypes = items["type"]?.stringValue ?? ""
            let item = try self.readShape(items, type: itemTypes, key: key, owner: owner, path: "\(path)/items")
            let lower = schema["minItems"]?.intValue.map(Int.init)
            let upper = schema["maxItems"]?.intValue.map(Int.init)
            let count = lower == nil && upper == nil ? nil : (lower ?? 0)...(upper ?? Int.max)
            return .array(item, count: count)
        default:
            throw CodegenError("\(self.file)\(path): type '\(type)' has no Swift form")
        }
    }

    private func readString(_ schema: Value, path: String) throws -> Shape {
        let lower = schema["minLength"]?.intValue.map(Int.init)
        let upper = schema["maxLength"]?.intValue.map(Int.init)
        let length = lower == nil && upper == nil ? nil : (lower ?? 0)...(upper ?? Int.max)
        guard let pattern = schema["pattern"]?.stringValue else { return .string(length: length, pattern: nil) }
        guard let known = StringPattern.all.first(where: { $0.pattern == pattern }) else {
            throw CodegenError(
                "\(self.file)\(path): pattern /\(pattern)/ has no matcher; add one to BusSchema/StringPattern.swift")
        }
        return .string(length: length, pattern: known.name)
    }

    private static func integerText(_ value: Value) -> String {
        let digits =
            switch value {
            case .int(let int): "\(int)"
            case .uint(let uint): "\(uint)"
            default: value.doubleValue.map { "\(Int64($0))" } ?? "0"
            }
        return digits == "\(Int64.max)" ? "Int64.max" : Naming.grouped(digits)
    }

    /// A schema `default` as a Swift literal of the property's type.
    private static func literal(_ value: Value, for shape: Shape, at place: String) throws -> String {
        switch (shape, value) {
        case (.enumeration, .string(let raw)): return ".\(Naming.enumCase(raw))"
        case (.string, .string(let string)): return "\"\(string)\""
        case (.boolean, .bool(let bool)): return "\(bool)"
        case (.number, _) where value.doubleValue != nil: return Naming.number(value.doubleValue!)
        case (.integer, _) where value.intValue != nil: return "\(value.intValue!)"
        default: throw CodegenError("\(place): default \(value.json) does not fit the type")
        }
    }
}

/// How schema names become Swift names.
enum Naming {
    /// `listening_direction` → `listeningDirection`, `frame_id` → `frameID`.
    static func property(_ key: String) -> String {
        let parts = key.split(separator: "_").map(String.init)
        guard let first = parts.first else { return key }
        return first + parts.dropFirst().map { $0 == "id" ? "ID" : $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// `listening_direction` → `ListeningDirection`.
    static func type(_ key: String) -> String {
        let name = self.property(key)
        return name.prefix(1).uppercased() + name.dropFirst()
    }

    /// `will_resign_active` → `willResignActive`; `easeInOut` stays.
    static func enumCase(_ raw: String) -> String {
        let name = self.property(raw)
        return ["default", "case", "in", "is", "as", "self", "where", "for", "if", "else"].contains(name)
            ? "`\(name)`" : name
    }

    /// `9007199254740991` → `9_007_199_254_740_991`, as `swift format` wants long literals.
    static func grouped(_ digits: String) -> String {
        let sign = digits.hasPrefix("-") ? "-" : ""
        var rest = Array(digits.dropFirst(sign.count))
        guard rest.count > 4 else { return digits }
        var groups: [String] = []
        while rest.count > 3 {
            groups.insert(String(rest.suffix(3)), at: 0)
            rest.removeLast(3)
        }
        groups.insert(String(rest), at: 0)
        return sign + groups.joined(separator: "_")
    }

    /// A Double literal, short: `1e7`, `-1000000`, `0.5`.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 {
            var mantissa = Int64(value)
            var exponent = 0
            while mantissa != 0, mantissa % 10 == 0, exponent < 20 {
                mantissa /= 10
                exponent += 1
            }
            return exponent >= 4 ? "\(mantissa)e\(exponent)" : self.grouped("\(Int64(value))")
        }
        return "\(value)"
    }
}
