import BusSchema
import Foundation

/// Paths and files of the repository the tests run in.
enum RepositoryFiles {
    /// The repository root, found from this file's path.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let schemas = root + "/schemas"

    /// Every schema id with a v1 file, sorted.
    static var schemaIDs: [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: schemas)) ?? []
        return entries.filter { FileManager.default.fileExists(atPath: "\(schemas)/\($0)/v1.json") }.sorted()
    }

    static func json(_ path: String) throws -> Value {
        let data = try require(FileManager.default.contents(atPath: path), "missing \(path)")
        return try data.withUnsafeBytes { try JSONReader.parse($0) }
    }

    /// The examples of `id` as (file name, document).
    static func examples(_ id: String) throws -> [(String, Value)] {
        let directory = "\(schemas)/\(id)/examples"
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }
        return try names.sorted().map { ($0, try json("\(directory)/\($0)")) }
    }
}

/// `#require` outside a test body: throws instead of recording an issue.
private func require<T>(_ value: T?, _ message: String) throws -> T {
    guard let value else { throw CodecError(.missingField, offset: 0, context: message) }
    return value
}
