import ServiceSupport

/// A hand-written command-line reader: `--name value` pairs and positional arguments.
struct Options {
    private(set) var positional: [String] = []
    private var named: [String: String] = [:]

    /// The error printed (with exit status 64) for a malformed command line.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// Splits `arguments`; every `--name` must be followed by a value.
    ///
    /// - Throws: ``HelpRequest`` for `--help` or `-h`, ``UsageError`` for an option without a value.
    init(_ arguments: ArraySlice<String>) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if HelpRequest.words.contains(argument) { throw HelpRequest() }
            if argument == VersionRequest.word { throw VersionRequest() }
            if argument.hasPrefix("--") {
                guard let value = iterator.next() else { throw UsageError(description: "\(argument) needs a value") }
                named[String(argument.dropFirst(2))] = value
            } else {
                positional.append(argument)
            }
        }
    }

    /// Fails if an option outside `allowed` was given.
    func check(allowed: Set<String>) throws {
        for name in named.keys.sorted() where !allowed.contains(name) {
            throw UsageError(description: ServiceSupport.Options.unknown(name, among: allowed))
        }
    }

    /// The raw value of `--name`, if given.
    func string(_ name: String) -> String? { named[name] }

    /// `--name` as an integer in `range`, or `fallback` when absent.
    func int(_ name: String, in range: ClosedRange<Int>, default fallback: Int? = nil) throws -> Int {
        guard let text = named[name] else {
            if let fallback { return fallback }
            throw UsageError(description: "missing --\(name)")
        }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(description: "--\(name) must be an integer in \(range), got '\(text)'")
        }
        return value
    }

    /// `--name` as a finite number in `range`, if given.
    func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = named[name] else { return nil }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError(description: "--\(name) must be a number in \(range), got '\(text)'")
        }
        return value
    }
}
