import BusSchema

/// A path into a payload, as `echo --field` and `--filter` take it: names and indexes joined by
/// dots, `contacts.0.x` or `contacts[0].x`.
public struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    let steps: [Step]
    public let description: String

    /// Reads a path.
    ///
    /// - Throws: ``ToolError`` for an empty path or an empty step.
    public init(_ text: String) throws {
        let normalized = text.replacingOccurrences(of: "[", with: ".").replacingOccurrences(of: "]", with: "")
        let parts = normalized.split(separator: ".", omittingEmptySubsequences: false)
        guard !text.isEmpty, !parts.contains(where: \.isEmpty) else {
            throw ToolError("field path '\(text)': expected names and indexes joined by '.', like contacts.0.x")
        }
        self.steps = parts.map { part in Int(part).map { .index($0) } ?? .key(String(part)) }
        self.description = text
    }

    /// The value at the path, or nil if any step is missing.
    public func value(in root: Value) -> Value? {
        var current = root
        for step in self.steps {
            switch (step, current) {
            case (.key(let key), .map(let map)):
                guard let next = map[key] else { return nil }
                current = next
            case (.index(let index), .array(let array)):
                guard array.indices.contains(index) else { return nil }
                current = array[index]
            case (.index(let index), .map(let map)):
                guard let next = map[String(index)] else { return nil }
                current = next
            default:
                return nil
            }
        }
        return current
    }
}
