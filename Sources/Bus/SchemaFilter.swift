import BusSchema

/// Which schemas and majors a subscriber can read.
///
/// A schema id it does not know is rejected (`unknown_schema`); a known id with a major it
/// does not know is dead-lettered (`unknown_major`): a newer publisher, not a broken one.
public struct SchemaFilter: Sendable {
    private var majors: [String: Set<Int>]

    /// Accepts exactly the given (id, major) pairs.
    public init(_ schemas: [SchemaID]) {
        self.majors = [:]
        for schema in schemas { self.majors[schema.id, default: []].insert(schema.major) }
    }

    /// Accepts the schemas of the given message types.
    public init(_ types: [any BusMessage.Type]) {
        self.init(types.map { $0.schema })
    }

    /// What the filter says of a message stamped `id` v`major`.
    public func verdict(id: String, major: Int) -> Verdict {
        guard let known = self.majors[id] else { return .unknownSchema }
        return known.contains(major) ? .accept : .unknownMajor
    }

    public enum Verdict: Sendable {
        case accept, unknownSchema, unknownMajor
    }
}
