/// Writes the Swift declarations of the generated types, formatted as `swift format` leaves them.
struct SwiftWriter {
    /// The schemas' enums by qualified name, for a required enum field's placeholder.
    var enums: [String: EnumModel] = [:]
    /// The types some schema sends as a two-item array (`x-swift-pair`): their members and item.
    var pairs: [String: (members: [String], item: Shape)] = [:]
    private(set) var text = ""
    private var indent = 0

    /// Appends `line` (or several, split at newlines) at the current indentation.
    mutating func line(_ line: String = "") {
        for part in line.split(separator: "\n", omittingEmptySubsequences: false) {
            let leading = part.prefix { $0 == " " }
            let indentation = String(repeating: "    ", count: self.indent) + leading
            let part = part.dropFirst(leading.count)
            // A call too long for one line continues after its opening parenthesis, as `swift format` breaks it.
            if indentation.count + part.count > 120, let open = part.firstIndex(of: "("), part.hasSuffix(")") {
                self.text +=
                    indentation + part[...open] + "\n" + indentation + "    " + part[part.index(after: open)...] + "\n"
            } else {
                self.text += part.isEmpty ? "\n" : indentation + part + "\n"
            }
        }
    }

    mutating func block(_ opening: String, closing: String = "}", _ body: (inout SwiftWriter) -> Void) {
        self.line(opening)
        self.indent += 1
        body(&self)
        self.indent -= 1
        self.line(closing)
    }

    /// `///` lines of at most 120 columns.
    mutating func doc(_ text: String?) {
        guard let text, !text.isEmpty else { return }
        let width = 116 - 4 * self.indent
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty, current.count + 1 + word.count > width {
                self.line("/// \(current)")
                current = ""
            }
            current += current.isEmpty ? String(word) : " \(word)"
        }
        if !current.isEmpty { self.line("/// \(current)") }
    }

    /// The declarations of `model` and the nested types listed in `nested`.
    mutating func declare(_ model: StructModel, nested: [Nested]) {
        let pair = self.pairs[model.name]
        let protocols =
            (model.schema == nil ? [] : model.protocols) + ["MessagePackMap", "MapFields"]
            + (pair == nil ? [] : ["MessagePackPair"]) + ["Hashable"]
        self.doc(model.doc)
        self.block("public struct \(Self.lastComponent(model.name)): \(protocols.joined(separator: ", ")) {") {
            writer in
            if let schema = model.schema {
                writer.line(
                    "public static let schema = SchemaID(\"\(schema.id)\", major: \(schema.major), minor: \(schema.minor))"
                )
                writer.line()
            }
            for type in nested {
                type.declare(in: &writer)
                writer.line()
            }
            if let shared = model.shared {
                writer.doc(shared.propertyDoc)
                writer.line("public var \(shared.property) = \(shared.type)()")
            }
            writer.storedProperties(
                model.properties.filter { model.shared?.keys.contains($0.key) != true }, in: model.name)
            writer.line()
            writer.line("@inlinable public init() {}")
            writer.line()
            if let pair {
                writer.pairMembers(pair)
                writer.line()
            }
            writer.fieldList(model)
        }
    }

    /// The struct of fields that a protocol's adopters share, with a visitor method for the fields
    /// that open every adopter's map and one for each other field.
    mutating func declare(_ shared: SharedFields) {
        self.doc(shared.doc)
        self.block("public struct \(shared.type): Hashable, Sendable {") { writer in
            writer.storedProperties(shared.properties, in: shared.type)
            writer.line()
            writer.line("@inlinable public init() {}")
            let leading = Array(shared.properties.prefix(shared.leading))
            let groups = (leading.isEmpty ? [] : [leading]) + shared.properties.dropFirst(shared.leading).map { [$0] }
            for group in groups {
                let keys = group.map { "`\($0.key)`" }.joined(separator: ", ")
                writer.line()
                writer.doc(
                    group == leading
                        ? "Visits \(keys), the fields every ``\(shared.adopters)``'s map opens with."
                        : "Visits \(keys) where each ``\(shared.adopters)`` lists it.")
                writer.line("@inlinable @inline(__always)")
                let signature = "public mutating func \(shared.visitor(for: group[0]))<V: MapFieldVisitor & ~Copyable>"
                writer.block("\(signature)(_ visitor: inout V) throws(V.Failure) {") { writer in
                    for field in group { writer.line("try visitor.\(Self.field(field, in: shared.type)))") }
                }
            }
        }
    }

    /// The cases of an enum, those without a raw value of their own together on one line (a line
    /// break where the next would pass 120 columns), as `swift format` leaves them.
    mutating func declare(_ model: EnumModel) {
        self.doc(model.doc)
        let protocols = "String, Sendable, Hashable, CaseIterable, MessagePackEnum"
        self.block("public enum \(Self.lastComponent(model.name)): \(protocols) {") { writer in
            var plain: [String] = []
            for raw in model.cases {
                let name = Naming.enumCase(raw)
                if name == raw {
                    plain.append(name)
                    continue
                }
                writer.cases(plain)
                plain = []
                writer.line("case \(name) = \"\(raw)\"")
            }
            writer.cases(plain)
        }
    }

    /// `case a, b, c`, continued on indented lines where it would pass 120 columns.
    private mutating func cases(_ names: [String]) {
        guard var current = names.first.map({ "case \($0)" }) else { return }
        for (index, name) in names.enumerated().dropFirst() {
            let comma = index < names.count - 1 ? 1 : 0
            if 4 * self.indent + current.count + 2 + name.count + comma > 120 {
                self.line(current + ",")
                current = "    " + name
            } else {
                current += ", " + name
            }
        }
        self.line(current)
    }

    /// The stored properties of `properties` (flattened ones as their members), each at its
    /// default or placeholder.
    private mutating func storedProperties(_ properties: [Property], in scope: String) {
        for property in properties {
            for stored in property.flattened ?? [property] {
                let type = Self.relative(stored.swiftType, in: scope)
                let initial = self.initialValue(stored, in: scope).map { " = \($0)" } ?? ""
                self.doc(stored.doc ?? property.doc)
                self.line("public var \(stored.name): \(type)\(initial)")
            }
        }
    }

    /// What a stored property holds before decoding: its default, or a placeholder for a required
    /// value (decoding refuses the map unless it reads one); nil for an optional.
    private func initialValue(_ property: Property, in model: String) -> String? {
        if let defaultValue = property.defaultValue { return defaultValue }
        guard property.required, !property.nullable else { return nil }
        switch property.shape {
        case .string: return "\"\""
        case .boolean: return "false"
        case .integer, .number: return "0"
        case .enumeration(let name):
            guard let first = self.enums[name]?.cases.first else {
                preconditionFailure("\(name): an enum of the schemas")
            }
            return ".\(Naming.enumCase(first))"
        case .object(let name): return "\(Self.relative(name, in: model))()"
        case .anyMap: return "[:]"
        case .array: return "[]"
        case .pair: preconditionFailure("\(property.key): pairs come in arrays")
        }
    }

    // MARK: Field lists

    /// ``MapFields/visitFields(_:)``: one line a field, which encodes and decodes it.
    private mutating func fieldList(_ model: StructModel) {
        // The decoder counts required fields in a 64-bit mask.
        precondition(model.properties.count <= 64, "\(model.name): at most 64 fields")
        if model.fastPath.contains("encode") {
            self.doc("The reference encoder: ``encode(to:)`` is hand-tuned, and a test holds the two equal.")
            self.block("public func encodeReference(to writer: inout MessagePackWriter) {") {
                $0.line("writer.writeMap(self)")
            }
            self.line()
        }
        let signature = "public mutating func visitFields<V: MapFieldVisitor & ~Copyable>(_ visitor: inout V)"
        self.block("\(signature) throws(V.Failure) {") { writer in
            var visited: Set<String> = []
            for property in model.properties {
                guard let shared = model.shared, shared.keys.contains(property.key) else {
                    writer.line("try visitor.\(Self.field(property, in: model.name)))")
                    continue
                }
                let method = shared.visitor(for: property)
                if visited.insert(method).inserted { writer.line("try self.\(shared.property).\(method)(&visitor)") }
            }
        }
    }

    /// ``MessagePackPair``'s members: the pair's two properties, in the array's order.
    private mutating func pairMembers(_ pair: (members: [String], item: Shape)) {
        let type = pair.item.swiftType
        self.block("public init(pair: (\(type), \(type))) {") {
            $0.line("self.init()")
            $0.line("(self.\(pair.members[0]), self.\(pair.members[1])) = pair")
        }
        self.line()
        self.line("public var pair: (\(type), \(type)) { (self.\(pair.members[0]), self.\(pair.members[1])) }")
    }

    /// One field of ``MapFields/visitFields(_:)``: its kind, key, property and rule.
    private static func field(_ property: Property, in model: String) -> String {
        if let members = property.flattened {
            // Flattened objects are points and sizes; another arity would need its own visitor method.
            precondition(members.count == 2, "\(property.key): a flattened object of two members")
            precondition(property.required && members.allSatisfy(\.required), "\(property.key): required members")
            let parts = members.map { "\"\($0.key)\", &self.\($0.name), \(Self.rule($0.shape, in: model))" }
            return "flattened(\"\(property.key)\", \(parts.joined(separator: ", "))"
        }
        let arguments = "\"\(property.key)\", &self.\(property.name), \(Self.rule(property.shape, in: model))"
        if case .array(.pair, _) = property.shape {
            precondition(property.required && !property.nullable, "\(property.key): a required array of pairs")
            return "pairs(\(arguments)"
        }
        if property.float64 { return "float64(\(arguments)" }
        if property.nullable {
            precondition(property.defaultValue == nil, "\(property.key): a nullable field without a default")
            return property.required ? "nullable(\(arguments)" : "optionalNullable(\(arguments)"
        }
        if let defaultValue = property.defaultValue {
            return property.omitsDefault ? "field(\(arguments), omittedAt: \(defaultValue)" : "defaulted(\(arguments)"
        }
        return property.required ? "field(\(arguments)" : "optional(\(arguments)"
    }

    /// The rule a value of `shape` is read with.
    private static func rule(_ shape: Shape, in model: String) -> String {
        switch shape {
        case .string(nil, nil): return ".any"
        case .string(let length, let pattern):
            var arguments: [String] = []
            if let length { arguments.append("length: \(length.lowerBound)...\(Self.bound(length.upperBound))") }
            if let pattern { arguments.append("pattern: .\(pattern)") }
            return "StringRule(\(arguments.joined(separator: ", ")))"
        case .boolean, .enumeration, .object, .anyMap: return ".any"
        case .integer(let swift, let minimum, let maximum):
            let type = swift == "UInt64" ? "UInt64" : "Int64"
            return "\(minimum ?? (swift == "UInt64" ? "0" : "\(type).min"))...\(maximum ?? "\(type).max")"
        case .number(let minimum, let maximum, let exclusive):
            let range = Self.numberRange(minimum, maximum)
            if exclusive { return "NumberRule(\(range), exclusiveLower: true)" }
            return range.hasPrefix(".") ? range : "NumberRule(\(range))"
        case .array(let item, let count):
            let limit = count.map { "count: \($0.lowerBound)...\(Self.bound($0.upperBound)), " } ?? ""
            return "ArrayRule(\(limit)item: \(Self.rule(item, in: model)))"
        case .pair(_, _, let item): return Self.rule(item, in: model)
        }
    }

    private static func numberRange(_ minimum: Double?, _ maximum: Double?) -> String {
        switch (minimum.map(Naming.number), maximum.map(Naming.number)) {
        case (let lower?, let upper?): "NumberRange(\(lower), \(upper))"
        case (let lower?, nil): ".atLeast(\(lower))"
        case (nil, let upper?): ".atMost(\(upper))"
        case (nil, nil): ".finite"
        }
    }

    private static func bound(_ value: Int) -> String { value == Int.max ? "Int.max" : "\(value)" }

    /// `name` as written inside `scope`: the part after `scope.` when it is nested there.
    static func relative(_ name: String, in scope: String) -> String {
        var name = name
        for prefix in [scope + ".", "[" + scope + "."] where name.contains(prefix) {
            name = name.replacingOccurrences(prefix, with: prefix.hasPrefix("[") ? "[" : "")
        }
        return name
    }

    static func lastComponent(_ name: String) -> String {
        String(name.split(separator: ".").last ?? Substring(name))
    }
}

/// A type declared inside another.
enum Nested {
    case structure(StructModel, [Nested])
    case enumeration(EnumModel)

    var name: String {
        switch self {
        case .structure(let model, _): model.name
        case .enumeration(let model): model.name
        }
    }

    func declare(in writer: inout SwiftWriter) {
        switch self {
        case .structure(let model, let nested): writer.declare(model, nested: nested)
        case .enumeration(let model): writer.declare(model)
        }
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: String, with replacement: String) -> String {
        self.split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
