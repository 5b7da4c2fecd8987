import BusSchema
import Foundation

/// Reads seed inputs from a checkout of the repository.
public struct RepositoryData: Sendable {
    /// The repository root (the directory holding `Package.swift`).
    public let root: String

    public init(root: String) {
        self.root = root
    }

    /// The bytes of a file, by its path under the root.
    public func bytes(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: "\(self.root)/\(path)") else {
            throw FuzzError("cannot read \(self.root)/\(path)")
        }
        return [UInt8](data)
    }

    /// The paths under the root of the files in `directory` whose names end in `suffix`, sorted.
    public func files(in directory: String, suffix: String) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: "\(self.root)/\(directory)")
        } catch {
            throw FuzzError("cannot list \(self.root)/\(directory): \(error)")
        }
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { "\(directory)/\($0)" }
    }

    /// A JSON file, parsed.
    public func json(_ path: String) throws -> Value {
        let bytes = try self.bytes(path)
        do {
            return try bytes.withUnsafeBytes { try JSONReader.parse($0) }
        } catch {
            throw FuzzError("\(path): \(error)")
        }
    }

    /// The examples of schema `id` (`schemas/<id>/examples/*.json`), parsed.
    public func examples(_ id: String) throws -> [Value] {
        try self.files(in: "schemas/\(id)/examples", suffix: ".json").map { try self.json($0) }
    }

    /// Every schema id with a `v1.json`, sorted.
    public func schemaIDs() throws -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "\(self.root)/schemas")) ?? []
        let ids = entries.filter { FileManager.default.fileExists(atPath: "\(self.root)/schemas/\($0)/v1.json") }
        guard !ids.isEmpty else { throw FuzzError("no schemas under \(self.root)/schemas") }
        return ids.sorted()
    }
}
