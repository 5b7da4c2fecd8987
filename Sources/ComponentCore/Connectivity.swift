/// Network reachability as the components see it (schema `network`: none / wired / wireless).
public enum Connectivity: String, Sendable, Hashable, CaseIterable {
    case none, wired, wireless

    /// Whether anything can be fetched at all.
    public var isOnline: Bool { self != .none }
}
