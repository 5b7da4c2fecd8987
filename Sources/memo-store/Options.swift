import ServiceSupport

/// The command line of every verb, and what the offline verbs read from it.
struct OfflineOptions {
    static let db = OptionSpec.value("db", "PATH", "the database (default var/memo.sqlite)")
    static let commandLine = CommandLineSpec(verbs: [
        "": [
            .bus, .cpus, Self.db,
            .value("max-pages", "N", "cap the database file at N pages (PRAGMA max_page_count)"),
        ],
        "export": [
            Self.db, .value("format", "text|md|eml|mbox", "the export format"),
            .value("out", "DIR", "write one .eml file per memo there"),
            .flag("include-trash", "export trashed memos too"),
        ],
        "check": [Self.db],
        "apply": [Self.db],
    ])

    var db = "var/memo.sqlite"
    var format: String?
    var out: String?
    var includeTrash = false

    /// Reads an offline verb's options.
    ///
    /// - Throws: ``UsageError`` for a word too many.
    init(_ options: inout Options) throws {
        self.db = options.string("db") ?? self.db
        self.format = options.string("format")
        self.out = options.string("out")
        self.includeTrash = options.flag("include-trash")
        try options.finish(maximumPositionals: 1)
    }
}
