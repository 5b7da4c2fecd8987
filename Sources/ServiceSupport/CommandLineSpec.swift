/// A tool's declared command line: the options of each verb, so that every tool parses, refuses
/// and explains its options the same way: `VERB --help` prints that verb's usage lines and option
/// table, an unknown option is refused with the nearest declared one ("unknown option --jsno (did
/// you mean --json?)"), and `--version` answers anywhere (``Tool/main(_:usage:_:)`` turns these
/// into output and exit statuses 0 and 64).
///
/// ```swift
/// static let commandLine = CommandLineSpec(verbs: [
///     "": [.bus, .cpus, .value("scene", "FILE", "the scene")],   // no verb: the service
///     "replay": [.value("touches", "FILE", "a touch script")],
/// ])
/// var options = try Self.commandLine.parse(arguments)   // options.verb: "" or "replay"
/// ```
public struct CommandLineSpec: Sendable {
    /// The options every verb takes, before or after it.
    public var common: [OptionSpec]
    /// Each verb's own options; the key `""` is the tool run with no verb (a service's live mode).
    public var verbs: [String: [OptionSpec]]

    public init(common: [OptionSpec] = [], verbs: [String: [OptionSpec]]) {
        self.common = common
        self.verbs = verbs
    }

    /// Finds the verb (the first word that is neither an option nor an option's value; `""` for
    /// none: ``Options/verb``) and parses `arguments` against its options.
    ///
    /// - Throws: ``HelpRequest`` (with the verb's options), ``VersionRequest``, or ``UsageError``
    ///   for an unknown or missing verb or an undeclared option.
    public func parse(_ arguments: [String]) throws -> Options {
        let every = self.common + self.verbs.values.flatMap { $0 }
        let verb = Options.verb(in: arguments, declared: every) ?? ""
        guard let own = self.verbs[verb] else {
            // An option no verb has is the likelier mistake (`--cpsu 1` made `1` look like the
            // verb); --help and --version still answer before (or instead of) a verb.
            var names = Set<String>()
            do {
                _ = try Options(arguments, declared: every.filter { names.insert($0.name).inserted })
            } catch is HelpRequest {
                throw HelpRequest(options: self.common)
            }
            if verb.isEmpty { throw UsageError("missing verb (\(self.names))") }
            throw UsageError(self.names.isEmpty ? "unexpected argument '\(verb)'" : self.unknownVerb(verb))
        }
        var options = try Options(arguments, declared: self.common + own)
        options.verb = verb
        return options
    }

    /// The named verbs, in order, for messages.
    private var names: String {
        self.verbs.keys.filter { !$0.isEmpty }.sorted().joined(separator: ", ")
    }

    /// "unknown verb 'ech' (did you mean echo?)", else the verbs there are.
    private func unknownVerb(_ verb: String) -> String {
        let named = self.verbs.keys.filter { !$0.isEmpty }.sorted()
        let near =
            named.first { $0.hasPrefix(verb) || verb.hasPrefix($0) }
            ?? named.min { EditDistance.between(verb, $0) < EditDistance.between(verb, $1) }.flatMap {
                EditDistance.between(verb, $0) <= max(1, verb.count / 3) ? $0 : nil
            }
        return "unknown verb '\(verb)'" + (near.map { " (did you mean \($0)?)" } ?? " (one of \(self.names))")
    }
}

extension OptionSpec {
    /// `--bus FILE`, the same in every tool.
    public static let bus = OptionSpec.value("bus", "FILE", "the bus file (default $UIBUS_BUS, else the checkout's)")
    /// `--cpus LIST`, the same in every service.
    public static let cpus = OptionSpec.value("cpus", "LIST", "run on these cores only (0, 1,3, 0-3)")
}
