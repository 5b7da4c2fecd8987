/// Why a command was not applied; becomes a `rejected` ack with this reason.
public struct CommandRejection: Error, Sendable, CustomStringConvertible {
    public var reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { self.reason }
}
