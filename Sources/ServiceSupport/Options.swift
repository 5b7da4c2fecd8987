/// A command line split into positional words, `--name value` options and `--flag`s.
///
/// Tiny on purpose (swift-argument-parser cannot be fetched here). A tool either declares its
/// options (``OptionSpec``: name, value or flag, help) and gets unknown ones refused at once, or
/// names only its flags and reads what it needs; either way ``finish(maximumPositionals:)``
/// reports anything left over, with the nearest known name as a suggestion, instead of ignoring it.
///
/// One meaning per name across the tools: `--json` is always a flag (print JSON), `--rate` is
/// always messages per second, `--devices` is always a number of devices, `--count` a number of
/// messages, `--duration` seconds, `--bus` the bus file.
public struct Options {
    public private(set) var positionals: [String] = []
    /// The verb ``CommandLineSpec/parse(_:)`` found (`""`: none).
    public internal(set) var verb = ""
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    private var consumed: Set<String> = []
    /// A last `--name` with no word after it: an error only once we know it is not a flag.
    private var dangling: String?
    private let declared: [OptionSpec]

    /// Parses `arguments` (without the program name), reading undeclared names lazily.
    ///
    /// - Parameter flags: option names (without `--`) that take no value.
    /// - Throws: ``HelpRequest`` for `--help` or `-h` and ``VersionRequest`` for `--version` where
    ///   an option or argument may stand.
    public init(_ arguments: [String], flags: Set<String> = []) throws {
        try self.init(arguments, flags: flags, declared: [])
    }

    /// Parses `arguments` against declared options: any other `--name` is a ``UsageError``
    /// naming the nearest declared one.
    ///
    /// - Throws: ``HelpRequest`` (carrying the declarations, for the verb's help),
    ///   ``VersionRequest``, or ``UsageError``.
    public init(_ arguments: [String], declared: [OptionSpec]) throws {
        let flags = Set(declared.filter { $0.placeholder == nil }.map(\.name))
        try self.init(arguments, flags: flags, declared: declared)
    }

    private init(_ arguments: [String], flags: Set<String>, declared: [OptionSpec]) throws {
        self.declared = declared
        let known = Set(declared.map(\.name))
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if HelpRequest.words.contains(word) {
                throw HelpRequest(verb: self.positionals.first, options: declared)
            }
            if word == VersionRequest.word { throw VersionRequest() }
            guard word.hasPrefix("--"), word.count > 2 else {
                self.positionals.append(word)
                continue
            }
            let name = String(word.dropFirst(2))
            let split = name.firstIndex(of: "=").map { (String(name[..<$0]), String(name[name.index(after: $0)...])) }
            let bare = split?.0 ?? name
            if !declared.isEmpty && !known.contains(bare) {
                throw UsageError(Self.unknown(bare, among: known))
            }
            if let split {
                self.values[split.0, default: []].append(split.1)
            } else if flags.contains(name) {
                self.flags.insert(name)
            } else if index < arguments.count {
                self.values[name, default: []].append(arguments[index])
                index += 1
            } else {
                self.dangling = name
            }
        }
    }

    /// The first word of `arguments` that is neither an option nor the value of one of `declared`:
    /// the verb, found before the verb's own options are known.
    public static func verb(in arguments: [String], declared: [OptionSpec]) -> String? {
        let takesValue = Set(declared.filter { $0.placeholder != nil }.map { "--" + $0.name })
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            guard word.hasPrefix("-") else { return word }
            index += takesValue.contains(word) ? 2 : 1
        }
        return nil
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

    /// Every value of a repeated `--name`, in order.
    public mutating func strings(_ name: String) -> [String] {
        self.consumed.insert(name)
        return self.values[name] ?? []
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

    /// `--name` as a whole number in `range`, or `fallback` when absent.
    ///
    /// - Throws: ``UsageError`` if it is missing without a fallback, or not a whole number in `range`.
    public mutating func int(_ name: String, in range: ClosedRange<Int>, default fallback: Int? = nil) throws -> Int {
        guard let text = self.string(name) else {
            if let fallback { return fallback }
            throw UsageError("missing --\(name)")
        }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("--\(name) must be an integer in \(range), got '\(text)'")
        }
        return value
    }

    /// `--name` as a finite number in `range`, if given.
    ///
    /// - Throws: ``UsageError`` if it is not one.
    public mutating func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = self.string(name) else { return nil }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError("--\(name) must be a number in \(range), got '\(text)'")
        }
        return value
    }

    /// Throws for any option that no one asked about (suggesting the nearest name that was asked
    /// about or declared), a last option missing its value, or more positionals than `maximumPositionals`.
    public func finish(maximumPositionals: Int) throws {
        if let name = self.dangling {
            guard self.consumed.contains(name) || self.declared.contains(where: { $0.name == name }) else {
                throw UsageError(Self.unknown(name, among: self.consumed.union(self.declared.map(\.name))))
            }
            throw UsageError("option --\(name) needs a value")
        }
        let unknown = Set(self.values.keys).union(self.flags).subtracting(self.consumed)
        if let name = unknown.sorted().first {
            throw UsageError(Self.unknown(name, among: self.consumed.union(self.declared.map(\.name))))
        }
        if self.positionals.count > maximumPositionals {
            throw UsageError("unexpected argument '\(self.positionals[maximumPositionals])'")
        }
    }

    /// "unknown option --jsno (did you mean --json?)": the suggestion is the known name fewest
    /// edits away, offered only when it is close enough to be a typo.
    public static func unknown(_ name: String, among known: Set<String>) -> String {
        let ranked = known.map { (name: $0, distance: EditDistance.between(name, $0)) }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
        guard let best = ranked.first, best.distance <= max(2, name.count / 3) else {
            return "unknown option --\(name)"
        }
        return "unknown option --\(name) (did you mean --\(best.name)?)"
    }
}

/// One declared option: its name, the placeholder of its value (nil for a flag) and a line of help.
public struct OptionSpec: Sendable, Equatable {
    public var name: String
    public var placeholder: String?
    public var help: String

    /// An option that takes a value, shown as `--name PLACEHOLDER`.
    public static func value(_ name: String, _ placeholder: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, placeholder: placeholder, help: help)
    }

    /// An option that takes no value.
    public static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, placeholder: nil, help: help)
    }

    /// `  --name VALUE   help`, aligned at `width`.
    func line(width: Int) -> String {
        let head = "--\(self.name)" + (self.placeholder.map { " \($0)" } ?? "")
        return "  " + head + String(repeating: " ", count: max(1, width - head.count)) + self.help
    }
}

/// `--help` or `-h` on a command line: the tool prints its usage (the verb's, if one came before)
/// and exits with status 0.
public struct HelpRequest: Error {
    /// The words that ask for help.
    public static let words: Set<String> = ["--help", "-h"]
    /// The first positional word before the request: the verb asked about.
    public var verb: String?
    /// The options declared where help was asked, if any.
    public var options: [OptionSpec]

    public init(verb: String? = nil, options: [OptionSpec] = []) {
        self.verb = verb
        self.options = options
    }

    /// The help to print: the usage lines of `verb` (all of `usage` if none name it) and the
    /// declared options with their help.
    public func text(usage: String, tool: String) -> String {
        var text = usage
        if let verb = self.verb, let section = UsageText.section(of: verb, in: usage, tool: tool) {
            // A verb listed under the usage line reads as a command line of its own.
            let trimmed = section.drop { $0 == " " }
            text =
                trimmed.hasPrefix("usage:")
                ? section : trimmed.hasPrefix(tool + " ") ? "usage: " + trimmed : "usage: \(tool) " + trimmed
        }
        if !self.options.isEmpty {
            let width = (self.options.map { $0.name.count + ($0.placeholder?.count ?? -1) + 3 }.max() ?? 0) + 2
            text += "\noptions:\n" + self.options.map { $0.line(width: width) }.joined(separator: "\n")
        }
        return text
    }
}

/// `--version` where an option may stand: the tool prints ``Tool/version`` and exits with status 0.
public struct VersionRequest: Error {
    /// The word that asks for the version.
    public static let word = "--version"

    public init() {}
}

/// A command line that cannot be run: says what was wrong. Tools exit with status 64 (EX_USAGE).
public struct UsageError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
