import ServiceSupport

/// The options every verb shares.
struct Options {
    var db = "var/memo.sqlite"
    var format: String?
    var out: String?
    var includeTrash = false

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--db": self.db = try Self.value(&rest, argument)
            case "--format": self.format = try Self.value(&rest, argument)
            case "--out": self.out = try Self.value(&rest, argument)
            case "--include-trash": self.includeTrash = true
            case _ where HelpRequest.words.contains(argument): throw HelpRequest()
            case VersionRequest.word: throw VersionRequest()
            default:
                let known: Set<String> = ["db", "format", "out", "include-trash"]
                let message =
                    argument.hasPrefix("--")
                    ? ServiceSupport.Options.unknown(String(argument.dropFirst(2)), among: known)
                    : "unexpected argument '\(argument)'"
                throw ToolError(message, showUsage: true)
            }
        }
    }

    private static func value(_ rest: inout ArraySlice<String>, _ option: String) throws -> String {
        guard let value = rest.popFirst() else { throw ToolError("\(option) needs a value", showUsage: true) }
        return value
    }
}

/// A usage or operator error, printed without a stack of context.
struct ToolError: Error {
    var message: String
    var showUsage = false

    init(_ message: String, showUsage: Bool = false) {
        self.message = message
        self.showUsage = showUsage
    }
}
