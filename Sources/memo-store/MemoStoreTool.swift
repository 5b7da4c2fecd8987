import BusSchema
import Glibc
import MemoService
import MemoStore
import ServiceSupport

/// `memo-store`: the memo persistence service and its offline commands.
///
/// ```
/// memo-store [--bus FILE] [--cpus LIST] [--db PATH] [--max-pages N]   the service on the bus (see MemoService)
/// memo-store export --db PATH --format text|md|eml|mbox [--include-trash] [--out DIR]
/// memo-store check --db PATH                      exit 1 on damage
/// memo-store apply --db PATH                      JSON-lines commands on stdin, bus lines on stdout
/// ```
@main
enum MemoStoreTool {
    static let usage = """
        usage: memo-store [--bus FILE] [--cpus LIST] [--db PATH] [--max-pages N]
               memo-store export --db PATH --format text|md|eml|mbox [--include-trash] [--out DIR]
               memo-store check --db PATH
               memo-store apply --db PATH
        --max-pages caps the database file (PRAGMA max_page_count): beyond it writes fail as on a full disk.
        eml without --out writes all messages to stdout, separated by a line holding only a form feed.
        """

    static func main() {
        Tool.main("memo-store", usage: Self.usage) {
            var options = try OfflineOptions.commandLine.parse(Array(CommandLine.arguments.dropFirst()))
            if options.verb.isEmpty { return try Self.serve(&options) }
            let offline = try OfflineOptions(&options)
            switch options.verb {
            case "export": try Self.export(offline)
            case "check": exit(try Self.check(offline))
            default: try Self.apply(offline)
            }
        }
    }

    /// The service: signals first (before any thread), then the store, then the bus.
    private static func serve(_ options: inout Options) throws {
        let signals = SignalWatcher()
        let path = options.string("db") ?? "var/memo.sqlite"
        var configuration = MemoStoreConfiguration()
        configuration.maximumPageCount = try options.int("max-pages")
        let config = try Tool.serviceBusConfig(&options, tool: "memo-store")
        try options.finish(maximumPositionals: 0)
        let store: MemoStore
        do {
            store = try MemoStore(path: path, configuration: configuration)
        } catch {
            throw ConfigurationError("\(error)")
        }
        let runner = try ServiceRunner(name: "memo-store", config: config, signals: signals)
        try MemoService(runner: runner, store: store).run()
    }

    private static func export(_ options: OfflineOptions) throws {
        guard let name = options.format, let format = MemoExportFormat(rawValue: name) else {
            throw UsageError("export needs --format text|md|eml|mbox")
        }
        let store = try MemoStore(path: options.db)
        let memos = try store.exportedMemos(includeTrash: options.includeTrash)
        let exporter = MemoExporter(mailAddress: store.configuration.mailAddress)
        if let directory = options.out {
            guard format == .eml else { throw UsageError("--out is only for --format eml") }
            for file in exporter.emlFiles(memos) {
                try StandardStreams.writeFile(directory + "/" + file.name, file.content)
            }
        } else {
            StandardStreams.write(exporter.document(memos, format: format))
        }
    }

    private static func check(_ options: OfflineOptions) throws -> Int32 {
        let report = try MemoCheck.run(path: options.db)
        StandardStreams.write(report.lines.joined(separator: "\n") + "\n")
        return report.isSound ? 0 : 1
    }

    /// Reads commands as they arrive; the lines that arrive together are one batch (group commit).
    /// A line over ``LineReader/defaultMaxLineBytes`` is skipped with its number on stderr.
    private static func apply(_ options: OfflineOptions) throws {
        let store = try MemoStore(path: options.db)
        var input = LineReader(descriptor: 0)
        while let lines = try input.nextBatch() {
            var commands: [MemoCommand] = []
            var output: [String] = []
            let seq = try store.currentSeq()
            for line in lines {
                switch line {
                case .tooLong(let number):
                    StandardStreams.writeError(
                        "memo-store: skipped line \(number): longer than \(LineReader.defaultMaxLineBytes) bytes\n")
                case .text(let text, _) where text.isEmpty: continue
                case .text(let text, let number):
                    switch MemoJSONLines.decode(text, seq: seq) {
                    case .command(let command): commands.append(command)
                    case .rejected(let addressed):
                        output.append(
                            MemoJSONLines.line(
                                topic: MemoClientName.ackTopic(for: addressed.client), addressed.message.value))
                    case .unusable(let reason):
                        StandardStreams.writeError("memo-store: skipped line \(number): \(reason)\n")
                    }
                }
            }
            output += MemoJSONLines.lines(store.apply(batch: commands, now: StandardStreams.nowMilliseconds()))
            if !output.isEmpty { StandardStreams.write(output.joined(separator: "\n") + "\n") }
        }
    }
}
