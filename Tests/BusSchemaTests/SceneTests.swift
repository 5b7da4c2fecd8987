import BusSchema
import Testing

/// The one typed scene: parsed once, checked against the rules of `schemas/scene/v2.json`, every
/// default in one place.
@Suite struct SceneTests {
    static let schema = SchemaValidator(schema: try! RepositoryFiles.json(RepositoryFiles.schemas + "/scene/v2.json"))
    static let demoPath = RepositoryFiles.root + "/deploy/scenes/demo.json"
    static let demo = try! RepositoryFiles.json(demoPath)

    static func error(_ document: Value) -> SceneError? {
        do {
            _ = try Scene(value: document, file: "bad.json")
            return nil
        } catch {
            return error
        }
    }

    @Test func everySceneInTheRepository_parsesAndValidates() throws {
        var paths = [Self.demoPath]
        paths += try RepositoryFiles.examples("scene").map { "\(RepositoryFiles.schemas)/scene/examples/\($0.0)" }
        for name in ["drawer", "minimal", "demo-like"] {
            paths.append(RepositoryFiles.root + "/Tests/data/scenes/\(name).json")
        }
        for path in paths {
            let document = try RepositoryFiles.json(path)
            #expect(Self.schema.violations(of: document).isEmpty, "\(path)")
            #expect(throws: Never.self, "\(path)") { try Scene(value: document, file: path) }
        }
    }

    /// Every object of the demo scene given a property nobody declared: the schema and the parser
    /// both refuse it, and the parser names it by its JSON path.
    @Test func anUnknownPropertyAnywhere_isRefusedByTheSchemaAndTheParser() {
        for path in Self.paths(in: Self.demo, where: { $0.mapValue != nil }) {
            let document = Self.editing(Self.demo, at: path) { value in
                guard var map = value.mapValue else { return }
                map["unexpected"] = .int(1)
                value = .map(map)
            }
            #expect(!Self.schema.violations(of: document).isEmpty, "schema accepts an unknown property in \(path)")
            let error = Self.error(document)
            #expect(
                error?.path == "\(path).unexpected" && error?.rule == .additionalProperties,
                "\(path): \(error.map { "\($0)" } ?? "accepted")")
        }
    }

    /// Every value of the demo scene replaced by one of another JSON type.
    @Test func aWrongTypeAnywhere_isRefusedByTheSchemaAndTheParser() {
        for path in Self.paths(in: Self.demo, where: { _ in true }) where path != "$" {
            let document = Self.editing(Self.demo, at: path) { value in
                switch value {
                case .string: value = .bool(true)
                default: value = .string("x")
                }
            }
            #expect(!Self.schema.violations(of: document).isEmpty, "schema accepts a wrong type at \(path)")
            let error = Self.error(document)
            #expect(error?.path == path && error?.rule == .type, "\(path): \(error.map { "\($0)" } ?? "accepted")")
        }
    }

    /// A component's config may hold only what its kind reads: each config property of the schema,
    /// put on a component of a kind that does not read it, is refused by both.
    @Test func aConfigPropertyForAnotherKind_isRefusedByTheSchemaAndTheParser() throws {
        let config = try #require(
            Self.schema.schema["properties"]?["views"]?["items"]?["properties"]?["component"]?["properties"]?[
                "config"]?["properties"]?.mapValue)
        var refused = 0
        for (index, view) in (Self.demo["views"]?.arrayValue ?? []).enumerated() {
            guard let kind = view["component"]?["kind"]?.stringValue else { continue }
            for (key, property) in config {
                let readers = (property["description"]?.stringValue ?? "").prefix { $0 != ":" }.split(separator: "/")
                guard !readers.contains(Substring(kind)) else { continue }
                let path = "$.views[\(index)].component.config"
                let document = Self.editing(Self.demo, at: path) { value in
                    var map = value.mapValue ?? [:]
                    map[key] = .int(1)
                    value = .map(map)
                }
                #expect(!Self.schema.violations(of: document).isEmpty, "schema accepts \(key) on a \(kind)")
                let error = Self.error(document)
                #expect(error?.path == "\(path).\(key)" && error?.rule == .additionalProperties, "\(kind).\(key)")
                refused += 1
            }
        }
        #expect(refused > 100)
    }

    /// A recognizer's settings may hold only what its kind reads: every setting of the schema, put
    /// on a recognizer of each kind its description does not name, is refused by the parser with
    /// the path and `additionalProperties`; on one of a kind it names, it is accepted.
    @Test func aSettingForAnotherKind_isRefusedByTheParser() throws {
        let settings = try #require(
            Self.schema.schema["properties"]?["views"]?["items"]?["properties"]?["recognizers"]?["items"]?[
                "properties"]?["settings"]?["properties"]?.mapValue)
        let path = "$.views[2].recognizers[0]"
        var refused = 0
        for key in settings.keys {
            let readers = Self.settingReaders(key)
            #expect(!readers.isEmpty, "\(key) names no kind")
            for kind in GestureEvent.Kind.allCases {
                let value: Value = ["directions", "edges"].contains(key) ? .array([]) : .int(1)
                let document = Self.editing(Self.demo, at: path) { recognizer in
                    var map = recognizer.mapValue ?? [:]
                    map["kind"] = .string(kind.rawValue)
                    map["settings"] = .map([key: value])
                    recognizer = .map(map)
                }
                let error = Self.error(document)
                if readers.contains(kind.rawValue) {
                    #expect(error == nil, "\(kind).\(key): \(error.map { "\($0)" } ?? "")")
                } else {
                    #expect(
                        error?.path == "\(path).settings.\(key)" && error?.rule == .additionalProperties,
                        "\(kind).\(key): \(error.map { "\($0)" } ?? "accepted")")
                    #expect(error?.message.contains("a \(kind.rawValue) has no setting '\(key)'") == true)
                    refused += 1
                }
            }
        }
        #expect(refused > 100)
    }

    /// What the parser reads of each kind is what the schema's descriptions say it reads.
    @Test func eachKindsSettings_areTheOnesTheSchemaNamesForIt() throws {
        let settings = try #require(
            Self.schema.schema["properties"]?["views"]?["items"]?["properties"]?["recognizers"]?["items"]?[
                "properties"]?["settings"]?["properties"]?.mapValue)
        for kind in GestureEvent.Kind.allCases {
            let named = settings.keys.filter { Self.settingReaders($0).contains(kind.rawValue) }.sorted()
            #expect(RecognizerSettings.keys(for: kind).sorted() == named, "\(kind)")
        }
    }

    /// Every property the schema declares, anywhere, given a value of the wrong type in the demo
    /// scene: the parser refuses it with `type` at its path, so it reads every property (one it did
    /// not read would be refused as unknown instead) and none is accepted and ignored.
    @Test func everyPropertyTheSchemaDeclares_isReadByTheParser() throws {
        // Views of the demo scene by the component kind they host.
        let viewOfKind = Dictionary(
            (Self.demo["views"]?.arrayValue ?? []).enumerated().compactMap { index, view in
                view["component"]?["kind"]?.stringValue.map { ($0, index) }
            }, uniquingKeysWith: { first, _ in first })
        var checked = 0
        for (path, property, siblings) in Self.declaredProperties(Self.schema.schema, at: "$") {
            var concrete = path.replacingOccurrences(of: "recognizers[*]", with: "recognizers[0]")
            if let range = concrete.range(of: ".component.config.") {
                // A config property on a view whose kind reads it (a label on the kind that shows it).
                let key = concrete[range.upperBound...].split(separator: ".").first.map(String.init) ?? ""
                let label = concrete.split(separator: ".").last.map(String.init) ?? ""
                let readers = Self.configReaders(key)
                let kind =
                    label == "idle" ? "pager" : label == "offline" ? "pullToRefresh" : readers.first ?? ""
                concrete = concrete.replacingOccurrences(of: "views[*]", with: "views[\(viewOfKind[kind] ?? -1)]")
            } else {
                concrete = concrete.replacingOccurrences(of: "views[*]", with: "views[2]")
            }
            var base = Self.demo
            if let range = concrete.range(of: ".settings.") {
                // A setting on a recognizer of a kind that reads it (the first its description names).
                let key = String(concrete[range.upperBound...])
                let recognizer = String(concrete[..<range.lowerBound])
                base = Self.editing(base, at: recognizer) { value in
                    var map = value.mapValue ?? [:]
                    map["kind"] = .string(Self.settingReaders(key).first ?? "")
                    map["settings"] = nil
                    value = .map(map)
                }
            }
            let wrong: Value = property["type"]?.stringValue == "string" ? .bool(true) : .string("x")
            // Where the demo has no such object, it is made with its required properties.
            let parent = String(concrete[..<(concrete.lastIndex(of: ".") ?? concrete.endIndex)])
            let made = Self.editing(base, at: parent) { value in
                var map = value.mapValue ?? [:]
                for key in siblings where map[key] == nil { map[key] = .int(0) }
                value = .map(map)
            }
            let error = Self.error(Self.editing(made, at: concrete) { $0 = wrong })
            #expect(
                error?.path == concrete && error?.rule == .type, "\(concrete): \(error.map { "\($0)" } ?? "accepted")")
            checked += 1
        }
        #expect(checked > 100)
    }

    /// The JSON paths of every property the schema declares (`[*]` for array items), with its
    /// schema and the properties its object requires.
    static func declaredProperties(_ node: Value, at path: String) -> [(String, Value, [String])] {
        var found: [(String, Value, [String])] = []
        let required = node["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        for (key, property) in node["properties"]?.mapValue ?? [:] {
            let child = "\(path).\(key)"
            found.append((child, property, required))
            found += Self.declaredProperties(property, at: child)
            if let items = property["items"], items["properties"] != nil {
                found += Self.declaredProperties(items, at: child + "[*]")
            }
        }
        return found
    }

    /// The recognizer kinds that read setting `key`: the prefix of its description.
    static func settingReaders(_ key: String) -> [String] {
        let description =
            Self.schema.schema["properties"]?["views"]?["items"]?["properties"]?["recognizers"]?["items"]?[
                "properties"]?["settings"]?["properties"]?[key]?["description"]?.stringValue ?? ""
        return description.prefix { $0 != ":" }.split(separator: "/").map(String.init)
    }

    /// The component kinds that read config property `key`: the prefix of its description.
    static func configReaders(_ key: String) -> [String] {
        let description =
            Self.schema.schema["properties"]?["views"]?["items"]?["properties"]?["component"]?["properties"]?[
                "config"]?["properties"]?[key]?["description"]?.stringValue ?? ""
        return description.prefix { $0 != ":" }.split(separator: "/").map(String.init)
    }

    @Test(arguments: [
        ("$.views[2].frame.width", Value.int(-5), "$.views[2].frame.width", SceneError.Rule.minimum),
        ("$.views[2].frame.x", .int(1500), "$.views[2].frame.x", .insideScreen),
        (
            "$.views[0].recognizers[1].require_to_fail[0]", .string("ghost"),
            "$.views[0].recognizers[1].require_to_fail[0]", .reference
        ),
        (
            "$.views[0].recognizers[0].targets[0]", .string("drawer9"), "$.views[0].recognizers[0].targets[0]",
            .reference
        ),
        ("$.views[1].parent", .string("nowhere"), "$.views[1].parent", .reference),
        ("$.views[0].parent", .string("menu"), "$.views[0].parent", .reference),
        (
            "$.views[3].component.config.scroll_view", .string("nowhere"), "$.views[3].component.config.scroll_view",
            .reference
        ),
        ("$.views[9].component.id", .string("canvas1"), "$.views[9].component.id", .uniqueID),
        ("$.views[2].component.config.rows", .int(10_001), "$.views[2].component.config.rows", .maximum),
        ("$.views[6].component.config.max_scale", .double(0.5), "$.views[6].component.config.max_scale", .consistent),
        (
            "$.views[9].component.config.enabled", .array([.int(1), .int(1)]),
            "$.views[9].component.config.enabled[1]", .uniqueItems
        ),
        (
            "$.views[8].component.config.stroke_color", .string("red"), "$.views[8].component.config.stroke_color",
            .pattern
        ),
        ("$.width", .int(20_000), "$.width", .bounds),
    ])
    func anImpossibleValue_isRefusedNamingThePathAndTheRule(
        at path: String, value: Value, expectedPath: String, rule: SceneError.Rule
    ) throws {
        let document = Self.editing(Self.demo, at: path) { $0 = value }
        let error = try #require(Self.error(document))
        #expect(error.path == expectedPath && error.rule == rule, "\(error)")
        #expect(error.file == "bad.json")
        #expect("\(error)".hasPrefix("bad.json: \(expectedPath): ") && "\(error)".hasSuffix("(rule: \(rule))"))
    }

    @Test func notJSON_isRefusedAtTheRoot() throws {
        do {
            _ = try Scene(json: "{", file: "x.json")
            Issue.record("accepted")
        } catch {
            #expect(error.file == "x.json" && error.path == "$" && error.rule == .json)
        }
    }

    @Test func defaults_liveInTheModel() throws {
        let minimal = try Scene(
            json: """
                {"width": 400, "height": 300, "views": [{"id": "t", "frame": {"x": 0, "y": 0, "width": 400, "height": 300},
                 "component": {"kind": "slideTable", "id": "t1"}, "shadow": {}, "blur": {}, "corner_radius": 8}]}
                """)
        let view = minimal.views[0]
        guard case .slideTable(let table)? = view.component?.config else {
            throw SceneError(path: "$", rule: .type, "")
        }
        #expect(table.rowHeight == 44 && table.rows == 0)
        #expect(view.shadow == .defaults)
        #expect(view.blur?.radius == .level(.default) && view.blur?.cornerRadius == 8)
        #expect(minimal.name == "scene" && minimal.background == .white)
    }

    // MARK: - Editing documents by JSON path

    /// The JSON paths of every value in `value` that `include` accepts, outermost first.
    static func paths(in value: Value, at path: String = "$", where include: (Value) -> Bool) -> [String] {
        var found = include(value) ? [path] : []
        switch value {
        case .map(let map):
            for (key, child) in map { found += Self.paths(in: child, at: "\(path).\(key)", where: include) }
        case .array(let items):
            for (index, child) in items.enumerated() {
                found += Self.paths(in: child, at: "\(path)[\(index)]", where: include)
            }
        default:
            break
        }
        return found
    }

    /// `document` with the value at `path` (made of `.key` and `[index]` steps; created when
    /// absent) changed by `edit`.
    static func editing(_ document: Value, at path: String, _ edit: (inout Value) -> Void) -> Value {
        var steps: [String] = []
        var current = ""
        for character in path.dropFirst() {
            if character == "." || character == "[" {
                if !current.isEmpty { steps.append(current) }
                current = character == "[" ? "[" : ""
            } else if character != "]" {
                current.append(character)
            }
        }
        if !current.isEmpty { steps.append(current) }
        func apply(_ value: inout Value, _ rest: ArraySlice<String>) {
            guard let step = rest.first else { return edit(&value) }
            if step.hasPrefix("["), let index = Int(step.dropFirst()), var items = value.arrayValue,
                items.indices.contains(index)
            {
                apply(&items[index], rest.dropFirst())
                value = .array(items)
            } else {
                var map = value.mapValue ?? [:]
                var child = map[step] ?? .null
                apply(&child, rest.dropFirst())
                map[step] = child
                value = .map(map)
            }
        }
        var result = document
        apply(&result, steps[...])
        return result
    }
}
