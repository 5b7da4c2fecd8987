/// Writes the Swift declarations of the generated types, formatted as `swift format` leaves them.
struct SwiftWriter {
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
        let fields = model.properties.contains(where: \.shape.containsPair) ? [] : ["MapFields"]
        let protocols = (model.schema == nil ? [] : model.protocols) + ["MessagePackMap"] + fields + ["Hashable"]
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
            for property in model.properties {
                for stored in property.flattened ?? [property] {
                    writer.doc(stored.doc ?? property.doc)
                    writer.line("public var \(stored.name): \(Self.relative(stored.swiftType, in: model.name))")
                }
            }
            writer.line()
            writer.memberwiseInit(model)
            writer.line()
            writer.encoder(model)
            writer.line()
            writer.decoder(model)
        }
    }

    mutating func declare(_ model: EnumModel) {
        self.doc(model.doc)
        let protocols = "String, Sendable, Hashable, CaseIterable, MessagePackEnum"
        self.block("public enum \(Self.lastComponent(model.name)): \(protocols) {") { writer in
            for raw in model.cases {
                let name = Naming.enumCase(raw)
                writer.line(name == raw ? "case \(name)" : "case \(name) = \"\(raw)\"")
            }
        }
    }

    private mutating func memberwiseInit(_ model: StructModel) {
        let stored = model.properties.flatMap { $0.flattened ?? [$0] }
        self.block("public init(", closing: ") {") { writer in
            for (index, property) in stored.enumerated() {
                let type = Self.relative(property.swiftType, in: model.name)
                let defaultValue =
                    property.defaultValue.map { " = \($0)" } ?? (property.required ? "" : " = nil")
                writer.line("\(property.name): \(type)\(defaultValue)\(index == stored.count - 1 ? "" : ",")")
            }
        }
        self.indent += 1
        for property in stored { self.line("self.\(property.name) = \(property.name)") }
        self.indent -= 1
        self.line("}")
    }

    // MARK: Encoding

    private mutating func encoder(_ model: StructModel) {
        if model.fastPath.contains("encode") {
            self.doc("The reference encoder: ``encode(to:)`` is hand-tuned, and a test holds the two equal.")
        }
        let name = model.fastPath.contains("encode") ? "encodeReference" : "encode"
        let pairs = model.properties.contains(where: \.shape.containsPair)
        self.block("public func \(name)(to writer: inout MessagePackWriter) {") { writer in
            if pairs { writer.pairEncoder(model) } else { writer.line("writer.writeMap(self)") }
        }
        guard !pairs else { return }
        self.line()
        self.doc("Visits the fields in the order ``\(name)(to:)`` writes them.")
        self.block("public func visitFields<Visitor: MapFieldVisitor & ~Copyable>(_ visitor: inout Visitor) {") {
            writer in
            for property in model.properties { writer.line("visitor.field(\(Self.field(property)))") }
        }
    }

    /// One field of ``MapFields/visitFields(_:)``: its key and the value it writes.
    private static func field(_ property: Property) -> String {
        if let members = property.flattened {
            // Flattened objects are points and sizes; another arity would need its own type.
            precondition(members.count == 2, "\(property.key): a flattened object of two members")
            let pairs = members.map { "(\"\($0.key)\", self.\($0.name))" }
            return "\"\(property.key)\", TwoFields(\(pairs.joined(separator: ", ")))"
        }
        let value =
            if let defaultValue = property.defaultValue, !property.alwaysWritten {
                "Optional(self.\(property.name), unless: \(defaultValue))"
            } else if property.alwaysWritten, property.nullable {
                "Nullable(self.\(property.name))"
            } else {
                "self.\(property.name)"
            }
        return "\"\(property.key)\", \(value)"
    }

    /// The encoder of a map holding pairs, which are written as two-item arrays although their
    /// type writes itself as a map.
    private mutating func pairEncoder(_ model: StructModel) {
        precondition(model.properties.allSatisfy { $0.alwaysWritten && !$0.nullable && $0.flattened == nil })
        self.line("writer.writeMapHeader(\(model.properties.count))")
        for property in model.properties {
            if property.shape.containsPair {
                self.line("writer.writeKey(\"\(property.key)\")")
                self.encodeValue(property.shape, "self.\(property.name)")
            } else {
                self.line("writer.write(\"\(property.key)\", self.\(property.name))")
            }
        }
    }

    private mutating func encodeValue(_ shape: Shape, _ value: String) {
        switch shape {
        case .string, .boolean, .integer: self.line("writer.write(\(value))")
        case .number: self.line("writer.writeNumber(\(value))")
        case .enumeration: self.line("writer.write(\(value).rawValue)")
        case .object: self.line("\(value).encode(to: &writer)")
        case .anyMap: self.line("writer.write(Value.map(\(value)))")
        case .pair(_, let members, let item):
            self.line("writer.writeArrayHeader(2)")
            for member in members { self.encodeValue(item, "\(value).\(member)") }
        case .array(.number, _): self.line("writer.writeNumbers(\(value))")
        case .array(let item, _):
            self.line("writer.writeArrayHeader(\(value).count)")
            self.block("for item in \(value) {") { $0.encodeValue(item, "item") }
        }
    }

    // MARK: Decoding

    private mutating func decoder(_ model: StructModel) {
        self.doc(
            model.fastPath.contains("decode")
                ? "The reference decoder (the hand-tuned one falls back to it): decodes the map at `path`, naming the field in any error."
                : "Decodes the map at `path` (empty at the top), naming the field in any error.")
        self.block("public init(from reader: inout MessagePackReader, path: String) throws {") { writer in
            for property in model.properties {
                for stored in property.flattened ?? [property] {
                    let type = Self.relative(stored.shape.swiftType, in: model.name) + (stored.nullable ? "?" : "")
                    writer.line("var \(stored.name): \(type)?")
                }
            }
            writer.block("try reader.readMap { reader, key in") { writer in
                writer.line("switch key {")
                for property in model.properties {
                    writer.line("case \"\(property.key)\":")
                    writer.indent += 1
                    writer.readProperty(property, model: model.name)
                    writer.indent -= 1
                }
                writer.line("default: try reader.skip()")
                writer.line("}")
            }
            for property in model.properties {
                for stored in property.flattened ?? [property] {
                    let key = property.flattened == nil ? stored.key : "\(property.key).\(stored.key)"
                    if stored.required {
                        writer.line(
                            "self.\(stored.name) = try reader.require(\(stored.name), FieldName(path, \"\(key)\"))")
                    } else if let defaultValue = stored.defaultValue {
                        writer.line("self.\(stored.name) = \(stored.name) ?? \(defaultValue)")
                    } else {
                        writer.line("self.\(stored.name) = \(stored.name)")
                    }
                }
            }
        }
    }

    private mutating func readProperty(_ property: Property, model: String) {
        guard let members = property.flattened else {
            let read = self.readValue(property.shape, field: "FieldName(path, \"\(property.key)\")", model: model)
            // An optional value sent as null counts as absent, as readers of older minors expect.
            let nullable = property.nullable || !property.alwaysWritten
            if nullable {
                // `.some`: a null of a nullable property is a value (Int??.some(nil)), not an absence.
                let assigned = property.nullable ? "\(property.name) = .some(" : "\(property.name) = "
                // The same read on the closure's reader, `$0`, to fit one line.
                let short = read.replacingOccurrences("&reader", with: "&$0")
                    .replacingOccurrences("reader.", with: "$0.")
                let oneLine = "\(assigned)try reader.readNullable { \(short) }\(property.nullable ? ")" : "")"
                if !read.contains("\n"), 4 * self.indent + oneLine.count <= 120 {
                    self.line(oneLine)
                    return
                }
                if property.nullable {
                    self.line("\(property.name) = .some(")
                    self.indent += 1
                }
                self.line("\(property.nullable ? "" : "\(property.name) = ")try reader.readNullable { reader in")
                self.indent += 1
                self.line(read)
                self.indent -= 1
                self.line(property.nullable ? "})" : "}")
                if property.nullable { self.indent -= 1 }
            } else {
                self.line("\(property.name) = \(read)")
            }
            return
        }
        self.block("try reader.readMap { reader, key in") { writer in
            writer.line("switch key {")
            for member in members {
                let field = "FieldName(path, \"\(property.key).\(member.key)\")"
                writer.line("case \"\(member.key)\":")
                writer.line("    \(member.name) = \(writer.readValue(member.shape, field: field, model: model))")
            }
            writer.line("default: try reader.skip()")
            writer.line("}")
        }
    }

    /// An expression reading one value of `shape` from `reader`.
    private func readValue(_ shape: Shape, field: String, model: String) -> String {
        switch shape {
        case .string(let length, let pattern):
            var arguments = field
            if let length { arguments += ", length: \(length.lowerBound)...\(Self.bound(length.upperBound))" }
            if let pattern { arguments += ", pattern: .\(pattern)" }
            return "try reader.readString(\(arguments))"
        case .boolean:
            return "try reader.readBool(\(field))"
        case .integer(let swift, let minimum, let maximum):
            if swift == "UInt64" {
                return "try reader.readUnsigned(\(field), in: \(minimum ?? "0")...\(maximum ?? "UInt64.max"))"
            }
            let read = "try reader.readInteger(\(field), in: \(minimum ?? "Int64.min")...\(maximum ?? "Int64.max"))"
            return swift == "Int64" ? read : "\(swift)(\(read))"
        case .number(let minimum, let maximum, let exclusive):
            let range =
                switch (minimum.map(Naming.number), maximum.map(Naming.number)) {
                case (let lower?, let upper?): "NumberRange(\(lower), \(upper))"
                case (let lower?, nil): ".atLeast(\(lower))"
                case (nil, let upper?): ".atMost(\(upper))"
                case (nil, nil): ".finite"
                }
            return "try reader.readNumber(\(field), in: \(range)\(exclusive ? ", exclusiveLower: true" : ""))"
        case .enumeration(let name):
            return "try reader.readEnum(\(Self.relative(name, in: model)).self, \(field))"
        case .object(let name):
            return "try \(Self.relative(name, in: model))(from: &reader, path: \(field).description)"
        case .anyMap:
            return "try reader.readMapValue(\(field))"
        case .pair(let name, let members, let item):
            let first = self.readValue(item, field: "FieldName(item: 0, of: \(field))", model: model)
            let second = self.readValue(item, field: "FieldName(item: 1, of: \(field))", model: model)
            return """
                try reader.readPair(\(field)) { reader in
                    \(Self.relative(name, in: model))(
                        \(members[0]): \(first),
                        \(members[1]): \(second))
                }
                """
        case .array(let item, let count):
            let limit = count.map { ", count: \($0.lowerBound)...\(Self.bound($0.upperBound))" } ?? ""
            let read = self.readValue(item, field: "item", model: model)
            let body = read.split(separator: "\n").map { "    \($0)" }.joined(separator: "\n")
            return "try reader.readArray(\(field)\(limit)) { reader, item in\n\(body)\n}"
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
