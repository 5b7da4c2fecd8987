import ServiceSupport

/// The options every offline verb shares, read with the shared parser.
struct OfflineOptions {
    static let declared: [OptionSpec] = [
        .value("db", "PATH", "the database (default var/memo.sqlite)"),
        .value("format", "text|md|eml|mbox", "the export format"),
        .value("out", "DIR", "write one .eml file per memo there"),
        .flag("include-trash", "export trashed memos too"),
    ]

    var db = "var/memo.sqlite"
    var format: String?
    var out: String?
    var includeTrash = false

    /// - Throws: ``HelpRequest``, ``VersionRequest`` or ``UsageError`` (an unknown option, with the nearest).
    init(verb: String, _ arguments: [String]) throws {
        // The verb leads, so that `memo-store VERB --help` shows that verb.
        var options = try Options([verb] + arguments, declared: Self.declared)
        self.db = options.string("db") ?? self.db
        self.format = options.string("format")
        self.out = options.string("out")
        self.includeTrash = options.flag("include-trash")
        try options.finish(maximumPositionals: 1)
    }
}
