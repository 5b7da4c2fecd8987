import Foundation
import FuzzSupport
import Glibc
import ServiceSupport

/// `uibus-fuzz`: the seeded mutation loop over every decoder (see `Tests/fuzz/README.md`).
@main
struct UIBusFuzz {
    static let usage = """
        usage: uibus-fuzz list
               uibus-fuzz run [TARGET…] [--inputs N] [--seed S] [--time-limit-ms MS] [--artifacts DIR] [--root DIR]
               uibus-fuzz input TARGET INDEX [--seed S] [--root DIR] > FILE
               uibus-fuzz replay TARGET FILE… [--root DIR]
               uibus-fuzz seeds TARGET DIR [--root DIR]
        """
    static let seed = OptionSpec.value("seed", "S", "the mutation loop's seed (default 1)")
    static let commandLine = CommandLineSpec(
        common: [.value("root", "DIR", "the checkout whose seeds are used (default: the working directory)")],
        verbs: [
            "list": [],
            "run": [
                .value("inputs", "N", "inputs per target (default 1000000)"), Self.seed,
                .value("time-limit-ms", "MS", "one input's time limit (default 2000)"),
                .value("artifacts", "DIR", "where crashing and slow inputs go (default .)"),
            ],
            "input": [Self.seed], "replay": [], "seeds": [],
        ])

    static func main() {
        Tool.main("uibus-fuzz", usage: Self.usage) {
            var options = try Self.commandLine.parse(Array(CommandLine.arguments.dropFirst()))
            let data = RepositoryData(root: options.string("root") ?? FileManager.default.currentDirectoryPath)
            let seed = UInt64(try options.int("seed") ?? 1)
            var words = options.positionals.dropFirst()
            switch options.verb {
            case "list":
                try options.finish(maximumPositionals: 1)
                for target in FuzzTarget.all { print(target.name) }
            case "run":
                let count = try options.int("inputs") ?? 1_000_000
                let limitMs = try options.int("time-limit-ms") ?? 2000
                let artifacts = options.string("artifacts") ?? "."
                try options.finish(maximumPositionals: Int.max)
                let targets = try words.isEmpty ? FuzzTarget.all : words.map(Self.target)
                for target in targets {
                    let harness = try target.load(data)
                    let inputGuard = InputGuard(directory: artifacts, target: target.name, limitMs: limitMs)
                    let report = FuzzLoop.run(
                        harness, target: target.name, seed: seed, count: count, inputGuard: inputGuard)
                    // Unbuffered: the line must be out before a later target's crash ends the process.
                    Log.write(Self.line(report) + "\n", to: STDOUT_FILENO)
                }
            case "input":
                guard words.count == 2, let index = Int(words.last!) else { throw UsageError("input TARGET INDEX") }
                try options.finish(maximumPositionals: 3)
                let input = FuzzLoop.input(try Self.target(words.first!).load(data), seed: seed, index: index)
                FileHandle.standardOutput.write(Data(input))
            case "replay":
                guard let name = words.popFirst(), !words.isEmpty else { throw UsageError("replay TARGET FILE…") }
                try options.finish(maximumPositionals: Int.max)
                let harness = try Self.target(name).load(data)
                for path in words {
                    let bytes = try TextFile.bytes(path)
                    print("\(path): \(harness.run(harness.prepare(bytes)) ?? "accepted")")
                }
            case "seeds":
                guard words.count == 2 else { throw UsageError("seeds TARGET DIR") }
                try options.finish(maximumPositionals: 3)
                let harness = try Self.target(words.first!).load(data)
                for (index, seed) in harness.seeds.enumerated() {
                    let path = "\(words.last!)/seed-\(index)"
                    guard FileManager.default.createFile(atPath: path, contents: Data(seed)) else {
                        throw ConfigurationError("cannot write \(path)")
                    }
                }
            default:
                throw UsageError("unknown verb '\(options.verb)'")
            }
        }
    }

    static func target(_ name: String) throws -> FuzzTarget {
        guard let target = FuzzTarget.named(name) else { throw UsageError("unknown target '\(name)' (see list)") }
        return target
    }

    /// One line per target: inputs, speed, what was accepted and rejected, the slowest input.
    static func line(_ report: FuzzReport) -> String {
        let rejected = report.rejected.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }
        return
            "\(report.target): \(report.inputs) inputs in \(String(format: "%.1f", Double(report.elapsedNs) / 1e9)) s"
            + " (\(Int(report.inputsPerSecond))/s), accepted \(report.accepted), rejected: "
            + (rejected.isEmpty ? "none" : rejected.joined(separator: ", "))
            + "; slowest #\(report.slowestIndex) \(report.slowestNs / 1000) µs"
    }
}
