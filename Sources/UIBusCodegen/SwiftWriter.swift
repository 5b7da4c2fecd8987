/// Writes the Swift declarations of the generated types, formatted as `swift format` leaves them.
struct SwiftWriter {
    private(set) var text = ""
    private var indent = 0
    /// Each enum's first case (by qualified name): a blank value's.
    let firstCases: [String: String]

    init(firstCases: [String: String]) {
        self.firstCases = firstCases
    }

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
        if model.external {
            self.block("extension \(model.name): TableCoded {") { $0.table(model) }
            return
        }
        let protocols =
            (model.schema == nil ? ["TableCoded"] : model.protocols + ["TableCoded"]) + ["Hashable"]
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
            writer.table(model)
            if !model.fastPath.isEmpty {
                writer.line()
                writer.encoder(model)
            }
        }
    }

    mutating func declare(_ model: EnumModel) {
        self.doc(model.doc)
        self.block("public enum \(Self.lastComponent(model.name)): String, Sendable, Hashable, CaseIterable {") {
            writer in
            let cases = model.cases.map { raw in
                let name = Naming.enumCase(raw)
                return name == raw ? name : "\(name) = \"\(raw)\""
            }
            let oneLine = "case " + cases.joined(separator: ", ")
            if oneLine.count <= 120 - 4 * writer.indent {
                writer.line(oneLine)
            } else {
                for item in cases { writer.line("case \(item)") }
            }
        }
    }

    private mutating func memberwiseInit(_ model: StructModel) {
        let stored = model.properties.flatMap { $0.flattened ?? [$0] }
        let parameters = stored.map { property in
            let type = Self.relative(property.swiftType, in: model.name)
            let defaultValue = property.defaultValue.map { " = \($0)" } ?? (property.required ? "" : " = nil")
            return "\(property.name): \(type)\(defaultValue)"
        }
        let oneLine = "public init(\(parameters.joined(separator: ", "))) {"
        if oneLine.count <= 120 - 4 * self.indent {
            self.line(oneLine)
        } else {
            // As `swift format` breaks a long signature: the parameters filling lines, `) {` alone.
            self.line("public init(")
            self.indent += 1
            self.filled(parameters)
            self.indent -= 1
            self.line(") {")
        }
        self.indent += 1
        for property in stored { self.line("self.\(property.name) = \(property.name)") }
        self.indent -= 1
        self.line("}")
    }

    // MARK: Encoding

    /// A fast-path message's encoder: the table's when ``encode(to:)`` is hand-tuned (the reference
    /// a test holds it to), else written out field by field, as fast as a hand-written one.
    private mutating func encoder(_ model: StructModel) {
        if model.fastPath.contains("encode") {
            self.doc("The reference encoder: ``encode(to:)`` is hand-tuned, and a test holds the two equal.")
            self.block("public func encodeReference(to writer: inout MessagePackWriter) {") {
                $0.line("Self.table.encode(self, to: &writer)")
            }
            return
        }
        let always = model.properties.filter(\.alwaysWritten).count
        self.doc("Written out field by field: the hot path's encoder, equal to the table's (a test holds them equal).")
        self.block("public func encode(to writer: inout MessagePackWriter) {") { writer in
            let optional = model.properties.filter { !$0.alwaysWritten }
            if optional.isEmpty {
                writer.line("writer.writeMapHeader(\(always))")
            } else {
                writer.line("var count = \(always)")
                for property in optional {
                    writer.line("if self.\(property.name) != \(property.defaultValue ?? "nil") { count += 1 }")
                }
                writer.line("writer.writeMapHeader(count)")
            }
            for property in model.properties {
                if let members = property.flattened {
                    writer.line("writer.writeKey(\"\(property.key)\")")
                    writer.line("writer.writeMapHeader(\(members.count))")
                    for member in members {
                        writer.line("writer.writeKey(\"\(member.key)\")")
                        writer.encodeValue(member.shape, "self.\(member.name)")
                    }
                } else if property.alwaysWritten {
                    writer.line("writer.writeKey(\"\(property.key)\")")
                    writer.encodeNullable(property, "self.\(property.name)")
                } else if let defaultValue = property.defaultValue {
                    writer.block("if self.\(property.name) != \(defaultValue) {") { writer in
                        writer.line("writer.writeKey(\"\(property.key)\")")
                        writer.encodeValue(property.shape, "self.\(property.name)")
                    }
                } else {
                    writer.block("if let \(property.name) = self.\(property.name) {") { writer in
                        writer.line("writer.writeKey(\"\(property.key)\")")
                        writer.encodeNullable(property, property.name)
                    }
                }
            }
        }
    }

    private mutating func encodeNullable(_ property: Property, _ value: String) {
        guard property.nullable else { return self.encodeValue(property.shape, value) }
        let name = property.name
        self.block("if let \(name) = \(value) {", closing: "} else {") { $0.encodeValue(property.shape, name) }
        self.indent += 1
        self.line("writer.writeNil()")
        self.indent -= 1
        self.line("}")
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

    // MARK: The field table

    /// `public static let table`: the blank value to decode over and one entry per field.
    private mutating func table(_ model: StructModel) {
        let type = model.external ? model.name : Self.lastComponent(model.name)
        self.doc("The fields in the order they are written: ``MessageTable`` encodes and decodes them.")
        self.line("public static let table = MessageTable<\(type)>(")
        self.indent += 1
        self.wrapped("blank: \(type)(\(self.blankArguments(model))),")
        self.line("[")
        self.indent += 1
        for property in model.properties {
            guard let members = property.flattened else {
                self.wrapped(self.entry(property, model: model.name) + ",")
                continue
            }
            let required = property.required ? "" : "required: false, "
            self.line(".flattened(")
            self.indent += 1
            self.line("\"\(property.key)\",\(required.isEmpty ? "" : " required: false,")")
            self.line("[")
            self.indent += 1
            for member in members { self.wrapped(self.entry(member, model: model.name) + ",") }
            self.indent -= 1
            self.line("]),")
            self.indent -= 1
        }
        self.indent -= 1
        self.line("])")
        self.indent -= 1
    }

    /// The memberwise initializer's arguments that have no default, each an empty value.
    private func blankArguments(_ model: StructModel) -> String {
        let stored = model.properties.flatMap { $0.flattened ?? [$0] }
        return stored.filter { $0.required && $0.defaultValue == nil }.map { property in
            let value = property.nullable ? "nil" : self.emptyValue(property.shape, model: model.name)
            return "\(property.name): \(value)"
        }.joined(separator: ", ")
    }

    private func emptyValue(_ shape: Shape, model: String) -> String {
        switch shape {
        case .string: "\"\""
        case .boolean: "false"
        case .integer, .number: "0"
        case .enumeration(let name): ".\(Naming.enumCase(self.firstCases[name] ?? ""))"
        case .object(let name): "\(Self.relative(name, in: model)).table.blank"
        case .anyMap: "[:]"
        case .array: "[]"
        case .pair(let name, let members, _): "\(Self.relative(name, in: model))(\(members[0]): 0, \(members[1]): 0)"
        }
    }

    /// One table entry: `.value("t_ms", { $0.tMs }, { $0.tMs = $1 }, .number(.atLeast(0)))`.
    private func entry(_ property: Property, model: String) -> String {
        let access = "{ $0.\(property.name) }, { $0.\(property.name) = $1 }"
        let valueCodec = self.codec(property.shape, model: model)
        let codec = property.nullable ? ".orNull(\(valueCodec))" : valueCodec
        if let defaultValue = property.defaultValue, property.omitsDefault {
            return ".value(\"\(property.key)\", omitting: \(defaultValue), \(access), \(codec))"
        }
        if property.alwaysWritten {
            let required = property.required ? "" : "required: false, "
            return ".value(\"\(property.key)\", \(required)\(access), \(codec))"
        }
        // A null of a nullable optional (`Int??`) is a value, not an absence.
        let null = property.nullable ? ", nullIsAbsent: false" : ""
        return ".optional(\"\(property.key)\", \(access), \(codec)\(null))"
    }

    /// The ``FieldCodec`` of `shape`, with the schema's checks.
    private func codec(_ shape: Shape, model: String) -> String {
        switch shape {
        case .string(let length, let pattern):
            var arguments: [String] = []
            if let length { arguments.append("length: \(length.lowerBound)...\(Self.bound(length.upperBound))") }
            if let pattern { arguments.append("pattern: .\(pattern)") }
            return ".string(\(arguments.joined(separator: ", ")))"
        case .boolean:
            return ".boolean"
        case .integer(let swift, let minimum, let maximum):
            let lower = minimum ?? (swift == "UInt64" ? "0" : "Int64.min")
            return ".integer(\(lower)...\(maximum ?? (swift == "UInt64" ? "UInt64.max" : "Int64.max")))"
        case .number(let minimum, let maximum, let exclusive):
            return ".number(\(Self.range(minimum, maximum))\(exclusive ? ", exclusiveLower: true" : ""))"
        case .enumeration:
            return ".enumeration"
        case .object:
            return ".map"
        case .anyMap:
            return ".anyMap"
        case .pair(let name, let members, let item):
            let type = Self.relative(name, in: model)
            let make = "{ \(type)(\(members[0]): $0, \(members[1]): $1) }"
            let parts = "{ ($0.\(members[0]), $0.\(members[1])) }"
            return ".pair(\(self.codec(item, model: model)), make: \(make), parts: \(parts))"
        case .array(let item, let count):
            let limit = count.map { ", count: \($0.lowerBound)...\(Self.bound($0.upperBound))" } ?? ""
            if case .number(let minimum, let maximum, false) = item {
                return ".numbers(\(Self.range(minimum, maximum))\(limit))"
            }
            return ".array(\(self.codec(item, model: model))\(limit))"
        }
    }

    private static func range(_ minimum: Double?, _ maximum: Double?) -> String {
        switch (minimum.map(Naming.number), maximum.map(Naming.number)) {
        case (let lower?, let upper?): "NumberRange(\(lower), \(upper))"
        case (let lower?, nil): ".atLeast(\(lower))"
        case (nil, let upper?): ".atMost(\(upper))"
        case (nil, nil): ".finite"
        }
    }

    /// `line`, broken as `swift format` breaks a call too long for one line: after its first
    /// parenthesis, then its arguments filling each line.
    private mutating func wrapped(_ line: String) {
        let width = 120 - 4 * self.indent
        guard line.count > width, let open = line.firstIndex(of: "(") else { return self.line(line) }
        self.line(String(line[...open]))
        self.indent += 1
        var current = ""
        for argument in Self.arguments(String(line[line.index(after: open)...])) {
            if !current.isEmpty, current.count + 1 + argument.count > width - 4 {
                self.line(current)
                current = ""
            }
            // An argument too long for a line of its own is broken the same way.
            if current.isEmpty, argument.count > width - 4 {
                self.wrapped(argument)
                continue
            }
            current += current.isEmpty ? argument : " " + argument
        }
        if !current.isEmpty { self.line(current) }
        self.indent -= 1
    }

    /// `items` separated by commas, as many on each line as fit.
    private mutating func filled(_ items: [String]) {
        let width = 120 - 4 * self.indent
        var current = ""
        for (index, item) in items.enumerated() {
            let piece = index == items.count - 1 ? item : item + ","
            if !current.isEmpty, current.count + 1 + piece.count > width {
                self.line(current)
                current = ""
            }
            current += current.isEmpty ? piece : " " + piece
        }
        if !current.isEmpty { self.line(current) }
    }

    /// `a, b(c, d), e)` split after each top-level comma, the separator kept with its argument.
    private static func arguments(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var quoted = false
        for character in text {
            current.append(character)
            if character == "\"" {
                quoted.toggle()
            } else if !quoted, "([{".contains(character) {
                depth += 1
            } else if !quoted, ")]}".contains(character) {
                depth -= 1
            } else if !quoted, depth == 0, character == "," {
                parts.append(current.trimmingLeadingSpace)
                current = ""
            }
        }
        if !current.isEmpty { parts.append(current.trimmingLeadingSpace) }
        return parts
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

    /// A hand-written struct that gets only its field table, in an extension at file scope.
    var isExternal: Bool {
        if case .structure(let model, _) = self { return model.external }
        return false
    }

    func declare(in writer: inout SwiftWriter) {
        switch self {
        case .structure(let model, let nested): writer.declare(model, nested: nested)
        case .enumeration(let model): writer.declare(model)
        }
    }
}

extension String {
    fileprivate var trimmingLeadingSpace: String { String(self.drop { $0 == " " }) }

    fileprivate func replacingOccurrences(_ target: String, with replacement: String) -> String {
        self.split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
