/// A command-line option that was missing or malformed.
struct OptionError: Error, CustomStringConvertible {
    var message: String
    var description: String { self.message }
}

/// The arguments after the verb: `--name value` pairs and positionals, in any order.
struct Options {
    private var named: [String: String] = [:]
    private var positionals: [String] = []

    init(_ arguments: [String]) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("--") {
                guard index + 1 < arguments.count else { throw OptionError(message: "\(argument) needs a value") }
                self.named[argument] = arguments[index + 1]
                index += 2
            } else {
                self.positionals.append(argument)
                index += 1
            }
        }
    }

    func value(_ name: String) -> String? { self.named[name] }

    func double(_ name: String) throws -> Double? {
        guard let text = self.named[name] else { return nil }
        guard let value = Double(text), value > 0 else {
            throw OptionError(message: "\(name) must be a positive number")
        }
        return value
    }

    mutating func positional(_ name: String) throws -> String {
        guard !self.positionals.isEmpty else { throw OptionError(message: "missing \(name)") }
        return self.positionals.removeFirst()
    }
}
