/// A topic or a topic pattern given to a `bus-tap` verb.
///
/// Without wildcards a pattern is a prefix, as ZeroMQ subscriptions are (`touch/` matches
/// `touch/d0/`). With them it must match the whole topic, level by level: `*` is exactly one
/// level (`gesture/*/screen/tap/`), `**` any number of levels, none included (`ui/**/state/`).
/// A missing trailing `/` is added. The subscription is the literal part before the first wildcard.
public struct TopicPattern: Sendable, Hashable, CustomStringConvertible {
    public let text: String
    private let levels: [Substring]
    private let isWildcard: Bool

    /// Reads a pattern; an empty one matches every topic.
    ///
    /// - Throws: ``ToolError`` for a wildcard mixed with other characters in one level (`ges*`).
    public init(_ text: String) throws {
        let normalized = text.isEmpty || text.hasSuffix("/") ? text : text + "/"
        self.text = normalized
        self.levels = normalized.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        self.isWildcard = self.levels.contains { $0.contains("*") }
        if let bad = self.levels.first(where: { $0.contains("*") && $0 != "*" && $0 != "**" }) {
            throw ToolError("topic pattern '\(text)': a wildcard is a whole level ('*' or '**'), not '\(bad)'")
        }
    }

    public var description: String { self.text }

    /// The ZeroMQ subscription prefix that covers every topic the pattern matches.
    public var subscription: String {
        guard self.isWildcard else { return self.text }
        let literal = self.levels.prefix { !$0.contains("*") }
        return literal.map { $0 + "/" }.joined()
    }

    /// Whether `topic` (ending in `/`) matches.
    public func matches(_ topic: String) -> Bool {
        guard self.isWildcard else { return topic.hasPrefix(self.text) }
        let parts = topic.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        return Self.match(self.levels[...], Array(parts)[...])
    }

    private static func match(_ pattern: ArraySlice<Substring>, _ topic: ArraySlice<Substring>) -> Bool {
        guard let head = pattern.first else { return topic.isEmpty }
        if head == "**" {
            let rest = pattern.dropFirst()
            // `**` takes zero levels, or one and stays.
            return Self.match(rest, topic) || (!topic.isEmpty && Self.match(pattern, topic.dropFirst()))
        }
        guard let level = topic.first else { return false }
        return (head == "*" || head == level) && Self.match(pattern.dropFirst(), topic.dropFirst())
    }
}
