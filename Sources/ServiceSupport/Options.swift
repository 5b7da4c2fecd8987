/// A command line split into positional words, `--name value` options and `--flag`s.
///
/// Tiny on purpose (swift-argument-parser cannot be fetched here): each tool declares
/// which names are flags, reads what it needs, and calls ``finish()`` so that anything
/// left over is reported as an error instead of silently ignored.
public struct Options {
    public private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    private var consumed: Set<String> = []

    /// Parses `arguments` (without the program name).
    ///
    /// - Parameter flags: option names (without `--`) that take no value.
    /// - Throws: ``HelpRequest`` for `--help` or `-h` where an option or argument may stand,
    ///   ``UsageError`` for an option missing its value.
    public init(_ arguments: [String], flags: Set<String> = []) throws {
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if HelpRequest.words.contains(word) { throw HelpRequest() }
            guard word.hasPrefix("--"), word.count > 2 else {
                self.positionals.append(word)
                continue
            }
            var name = String(word.dropFirst(2))
            if let equals = name.firstIndex(of: "=") {
                self.values[String(name[..<equals]), default: []].append(String(name[name.index(after: equals)...]))
                continue
            }
            if flags.contains(name) {
                self.flags.insert(name)
                continue
            }
            guard index < arguments.count else { throw UsageError("option --\(name) needs a value") }
            name = String(name)
            self.values[name, default: []].append(arguments[index])
            index += 1
        }
    }

    /// Whether `--name` was given.
    public mutating func flag(_ name: String) -> Bool {
        self.consumed.insert(name)
        return self.flags.contains(name)
    }

    /// The value of `--name`, if given (the last one if repeated).
    public mutating func string(_ name: String) -> String? {
        self.consumed.insert(name)
        return self.values[name]?.last
    }

    /// The value of `--name` as an integer.
    ///
    /// - Throws: ``UsageError`` if it is not one.
    public mutating func int(_ name: String) throws -> Int? {
        guard let text = self.string(name) else { return nil }
        guard let value = Int(text) else { throw UsageError("--\(name) takes a whole number, not '\(text)'") }
        return value
    }

    /// The value of `--name` as a number.
    ///
    /// - Throws: ``UsageError`` if it is not one.
    public mutating func double(_ name: String) throws -> Double? {
        guard let text = self.string(name) else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw UsageError("--\(name) takes a number, not '\(text)'")
        }
        return value
    }

    /// Throws for any option that no one asked about, or more positionals than `maximumPositionals`.
    public func finish(maximumPositionals: Int) throws {
        let unknown = Set(self.values.keys).union(self.flags).subtracting(self.consumed)
        if let name = unknown.sorted().first { throw UsageError("unknown option --\(name)") }
        if self.positionals.count > maximumPositionals {
            throw UsageError("unexpected argument '\(self.positionals[maximumPositionals])'")
        }
    }
}

/// `--help` or `-h` on a command line: the tool prints its usage and exits with status 0.
public struct HelpRequest: Error {
    /// The words that ask for help.
    public static let words: Set<String> = ["--help", "-h"]

    public init() {}
}

/// A command line that cannot be run: says what was wrong. Tools exit with status 2.
public struct UsageError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
