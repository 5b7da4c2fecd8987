import BusSchema
import Foundation
import ServiceSupport

/// The `schemas/` directory: every `<id>/v<major>.json`, parsed on demand.
public final class SchemaStore {
    public let directory: String
    private var cache: [SchemaKey: Value] = [:]

    private struct SchemaKey: Hashable {
        var id: String
        var major: Int
    }

    public init(directory: String) {
        self.directory = directory
    }

    /// Finds `schemas/` next to the working directory or above the running executable.
    public static func locate() -> SchemaStore? {
        if let explicit = ProcessInfo.processInfo.environment["UIBUS_SCHEMAS"] {
            return SchemaStore(directory: explicit)
        }
        var candidates = [FileManager.default.currentDirectoryPath]
        var executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        for _ in 0..<6 {
            executable.deleteLastPathComponent()
            candidates.append(executable.path)
        }
        for candidate in candidates {
            let directory = candidate + "/schemas"
            if FileManager.default.fileExists(atPath: directory + "/envelope/v1.json") {
                return SchemaStore(directory: directory)
            }
        }
        return nil
    }

    /// The schema ids present, sorted.
    public var ids: [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: self.directory)) ?? []
        return entries.filter { !$0.hasPrefix("_") && !$0.hasPrefix(".") }
            .filter { FileManager.default.fileExists(atPath: "\(self.directory)/\($0)/v1.json") }.sorted()
    }

    /// The majors of `id` that have a schema file, ascending.
    public func majors(of id: String) -> [Int] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "\(self.directory)/\(id)")) ?? []
        return entries.compactMap { name in
            guard name.hasPrefix("v"), name.hasSuffix(".json") else { return nil }
            return Int(name.dropFirst().dropLast(5))
        }.sorted()
    }

    /// The path of `id` v`major`'s schema file.
    public func path(_ id: String, major: Int) -> String {
        "\(self.directory)/\(id)/v\(major).json"
    }

    /// The parsed schema `id` v`major`.
    ///
    /// - Throws: ``ToolError`` if there is no such schema or it is not valid JSON.
    public func schema(_ id: String, major: Int) throws -> Value {
        let key = SchemaKey(id: id, major: major)
        if let cached = self.cache[key] { return cached }
        try self.requireKnown(id, major: major)
        let path = self.path(id, major: major)
        let text = try Self.read(path, what: "schema \(id) v\(major)")
        let schema: Value
        do {
            schema = try JSONReader.parse(text)
        } catch {
            throw ToolError("schema file \(path) is not valid JSON: \(error)")
        }
        self.cache[key] = schema
        return schema
    }

    /// The schema's raw text (what recordings embed).
    public func text(_ id: String, major: Int) throws -> String {
        try Self.read(self.path(id, major: major), what: "schema \(id) v\(major)")
    }

    /// The minor the schema file declares (`x-uibus-minor`), 0 if it says none.
    public func minor(_ id: String, major: Int) throws -> Int {
        Int(try self.schema(id, major: major)["x-uibus-minor"]?.intValue ?? 0)
    }

    /// The example documents of `id`, by file name.
    public func examples(of id: String) throws -> [(name: String, value: Value)] {
        let directory = "\(self.directory)/\(id)/examples"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter {
            $0.hasSuffix(".json")
        }.sorted()
        return try names.map { name in
            let path = "\(directory)/\(name)"
            do {
                return (name, try JSONReader.parse(try Self.read(path, what: "example")))
            } catch let error as CodecError {
                throw ToolError("example \(path) is not valid JSON: \(error)")
            }
        }
    }

    /// Throws unless `id` v`major` exists, naming the nearest known id and listing them all.
    ///
    /// - Throws: ``ToolError`` ("no schema touch.frme v1 (did you mean touch.frame?); known ids: …").
    public func requireKnown(_ id: String, major: Int) throws {
        guard !FileManager.default.fileExists(atPath: self.path(id, major: major)) else { return }
        let known = self.ids
        if known.contains(id) {
            let majors = self.majors(of: id).map { "v\($0)" }.joined(separator: ", ")
            throw ToolError("no schema \(id) v\(major) (it has \(majors))")
        }
        let nearest = known.min { EditDistance.between(id, $0) < EditDistance.between(id, $1) }
        let hint = nearest.flatMap { EditDistance.between(id, $0) <= 3 ? " (did you mean \($0)?)" : nil } ?? ""
        throw ToolError("no schema \(id) v\(major)\(hint); known ids: \(known.joined(separator: ", "))")
    }

    /// The topic a schema's messages go on by convention (`x-uibus-topic`, `<name>` for a
    /// variable level), nil for a schema that is not a bus message (the envelope, the scene file).
    public func topicTemplate(_ id: String) -> String? {
        guard var text = (try? self.schema(id, major: 1))?["x-uibus-topic"]?.stringValue else { return nil }
        if let note = text.range(of: " (") { text = String(text[..<note.lowerBound]) }
        guard text.hasSuffix("/"), !text.hasPrefix("("), !text.contains(".json") else { return nil }
        return text
    }

    /// The ids whose conventional topic matches `topic` (`<name>` levels match any one level).
    public func schemas(carriedBy topic: String) -> [String] {
        self.ids.filter { id in
            guard let template = self.topicTemplate(id) else { return false }
            let levels = template.split(separator: "/").map { $0.hasPrefix("<") ? "*" : String($0) }
            return (try? TopicPattern(levels.joined(separator: "/") + "/"))?.matches(topic) ?? false
        }
    }

    /// Checks `payload` against `id` v`major`.
    ///
    /// - Throws: ``ToolError`` listing every violation with its JSON pointer.
    public func validate(_ payload: Value, id: String, major: Int) throws {
        let violations = SchemaValidator(schema: try self.schema(id, major: major)).violations(of: payload)
        guard violations.isEmpty else {
            let listed = violations.prefix(10).map { "  \($0)" }.joined(separator: "\n")
            throw ToolError("payload does not match schema \(id) v\(major):\n\(listed)")
        }
    }

    private static func read(_ path: String, what: String) throws -> String {
        do {
            return try TextFile.read(path)
        } catch {
            throw ToolError("no \(what) at \(path) (\(error))")
        }
    }
}

/// A tool-level failure with a message meant for the person at the terminal.
public struct ToolError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
