import BusSchema
import Foundation
import MemoStore
import ServiceSupport

/// `memo-bench [--dir DIR] [--only throughput|moves|latency|search] [--batch N] [--count N]`: acknowledged
/// commands/s by batch size (WAL, synchronous=FULL),
/// ack latency at 1 k commands/s with group commit, and search latency over 10 k memos.
/// Prints one JSON object. Build with `swift build -c release --product memo-bench`.
@main
enum MemoBench {
    static let words = [
        "東京タワー", "会議", "牛乳と卵", "ｶﾞｽ代", "ＡＢＣ商事", "トウキョウ", "締め切り", "買い物", "memo", "予定", "企画書", "金曜",
        "打ち合わせ", "りんご", "電話する", "Report", "週末", "レシピ", "支払い", "図書館",
    ]

    static let usage = "usage: memo-bench [--dir DIR] [--only throughput|moves|latency|search] [--batch N] [--count N]"
    static let commandLine = CommandLineSpec(verbs: [
        "": [
            .value("dir", "DIR", "where the databases go (default: a temporary directory)"),
            .value("only", "throughput|moves|latency|search", "run one part"),
            .value("batch", "N", "one batch size for throughput (default 1, 16, 64 and 256)"),
            .value("count", "N", "commands per throughput run (default 3000 unbatched, else 30000)"),
        ]
    ])

    static func main() {
        Tool.main("memo-bench", usage: Self.usage) {
            var options = try Self.commandLine.parse(Array(CommandLine.arguments.dropFirst()))
            let directory = options.string("dir")
            let only = options.string("only")
            guard only.map(["throughput", "moves", "latency", "search"].contains) ?? true else {
                throw UsageError("--only takes throughput, moves, latency or search, not '\(only ?? "")'")
            }
            let batch = try options.int("batch")
            let count = try options.int("count")
            guard (batch ?? 1) > 0, (count ?? 1) > 0 else { throw UsageError("--batch and --count must be above 0") }
            try options.finish(maximumPositionals: 0)
            try Self.run(
                directory: directory, only: only, batches: batch.map { [$0] } ?? [1, 16, 64, 256], count: count)
        }
    }

    static func run(directory: String?, only: String?, batches: [Int], count fixedCount: Int?) throws {
        let base =
            directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("memo-bench-\(getpid())").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        var report: [(String, Value)] = []
        if only == nil || only == "throughput" {
            for batch in batches {
                let count = fixedCount ?? (batch == 1 ? 3_000 : 30_000)
                let (rate, cpu) = try Self.throughput(base, batch: batch, count: count)
                report.append(("commands_per_s_batch_\(batch)", .double(rate)))
                report.append(("cpu_us_per_command_batch_\(batch)", .double(cpu)))
            }
        }
        if only == nil || only == "moves" {
            report.append(("moves_per_s_batch_256", .double(try Self.moveThroughput(base, batch: 256, count: 30_000))))
        }
        if only == nil || only == "latency" {
            for (key, value) in try Self.latency(base, rate: 1_000, count: 5_000) { report.append((key, value)) }
        }
        if only == nil || only == "search" {
            for (key, value) in try Self.search(base, memos: 10_000) { report.append((key, value)) }
        }
        print(Value.map(ValueMap(report)).json)
    }

    /// Mixed commands: creates, moves, transforms and text edits with the right base_version.
    static func commands(_ count: Int, prefix: String, rng: inout SplitMix64) -> [MemoCommand] {
        var commands: [MemoCommand] = []
        var versions: [Int64] = []
        for index in 0..<count {
            let id = "\(prefix):\(index)"
            let roll = rng.next() % 100
            if versions.isEmpty || roll < 30 {
                versions.append(1)
                commands.append(
                    MemoCommand {
                        $0.cmdId = id
                        $0.client = "bench"
                        $0.op = .create
                        $0.memoId = "\(prefix)m\(versions.count)"
                        $0.text = Self.text(&rng, words: 12)
                        $0.x = 10
                        $0.y = 20
                    })
                continue
            }
            let memo = Int(rng.next() % UInt64(versions.count))
            let memoId = "\(prefix)m\(memo + 1)"
            versions[memo] += 1
            switch roll {
            case ..<70:
                commands.append(
                    MemoCommand {
                        $0.cmdId = id
                        $0.client = "bench"
                        $0.op = .move
                        $0.memoId = memoId
                        $0.x = Double(roll)
                        $0.y = Double(index % 700)
                    })
            case ..<85:
                commands.append(
                    MemoCommand {
                        $0.cmdId = id
                        $0.client = "bench"
                        $0.op = .transform
                        $0.memoId = memoId
                        $0.scale = 1.5
                        $0.rotation = 0.3
                    })
            default:
                commands.append(
                    MemoCommand {
                        $0.cmdId = id
                        $0.client = "bench"
                        $0.op = .edit
                        $0.memoId = memoId
                        $0.text = Self.text(&rng, words: 12)
                        $0.baseVersion = versions[memo] - 1
                    })
            }
        }
        return commands
    }

    static func text(_ rng: inout SplitMix64, words: Int) -> String {
        (0..<words).map { _ in Self.words[Int(rng.next() % UInt64(Self.words.count))] }.joined(separator: "、")
    }

    /// Acked commands per second of wall time, and CPU (user + system) microseconds per command,
    /// which other load on the machine does not inflate.
    static func throughput(_ base: String, batch: Int, count: Int) throws -> (Double, Double) {
        let store = try MemoStore(path: "\(base)/throughput-\(batch).sqlite")
        var rng = SplitMix64(seed: UInt64(batch))
        let commands = Self.commands(count, prefix: "t\(batch)", rng: &rng)
        let start = ContinuousClock.now
        let cpuStart = Self.cpuSeconds()
        var acked = 0
        for offset in stride(from: 0, to: commands.count, by: batch) {
            let result = store.apply(
                batch: Array(commands[offset..<min(commands.count, offset + batch)]), now: Self.nowMilliseconds())
            acked += result.acks.count { $0.message.status == .ok }
        }
        let seconds = Self.seconds(ContinuousClock.now - start)
        let cpu = Self.cpuSeconds() - cpuStart
        precondition(acked == count, "only \(acked) of \(count) acked ok")
        return ((Double(acked) / seconds).rounded(), (cpu / Double(count) * 1e7).rounded() / 10)
    }

    /// A gesture-style flood: moves of 100 existing memos (no text, so no search-index work).
    static func moveThroughput(_ base: String, batch: Int, count: Int) throws -> Double {
        let store = try MemoStore(path: "\(base)/moves-\(batch).sqlite")
        let creates = (0..<100).map { index in
            MemoCommand {
                $0.cmdId = "c:\(index)"
                $0.client = "bench"
                $0.op = .create
                $0.memoId = "g\(index)"
                $0.text = "東京タワー"
                $0.x = 0
                $0.y = 0
            }
        }
        _ = store.apply(batch: creates, now: 1)
        let moves = (0..<count).map { index in
            MemoCommand {
                $0.cmdId = "g:\(index)"
                $0.client = "bench"
                $0.op = .move
                $0.memoId = "g\(index % 100)"
                $0.x = Double(index % 977)
                $0.y = Double(index % 613)
            }
        }
        let start = ContinuousClock.now
        for offset in stride(from: 0, to: moves.count, by: batch) {
            _ = store.apply(batch: Array(moves[offset..<min(moves.count, offset + batch)]), now: Self.nowMilliseconds())
        }
        return (Double(count) / Self.seconds(ContinuousClock.now - start)).rounded()
    }

    /// Open-loop arrivals at `rate`/s; each loop applies every command that has arrived (group commit).
    static func latency(_ base: String, rate: Int, count: Int) throws -> [(String, Value)] {
        let store = try MemoStore(path: "\(base)/latency.sqlite")
        var rng = SplitMix64(seed: 7)
        let commands = Self.commands(count, prefix: "l", rng: &rng)
        let interval = Duration.nanoseconds(1_000_000_000 / rate)
        let start = ContinuousClock.now
        var latencies: [Double] = []
        var batches = 0
        var next = 0
        while next < count {
            let now = ContinuousClock.now
            var arrived = next
            while arrived < count && start + interval * arrived <= now { arrived += 1 }
            if arrived == next {
                Thread.sleep(forTimeInterval: Self.seconds((start + interval * next) - now))
                continue
            }
            _ = store.apply(batch: Array(commands[next..<arrived]), now: Self.nowMilliseconds())
            let done = ContinuousClock.now
            for index in next..<arrived { latencies.append(Self.seconds(done - (start + interval * index)) * 1000) }
            batches += 1
            next = arrived
        }
        latencies.sort()
        return [
            ("ack_latency_rate_per_s", .int(Int64(rate))), ("ack_latency_commands", .int(Int64(count))),
            ("ack_latency_batches", .int(Int64(batches))), ("ack_p50_ms", .double(Self.percentile(latencies, 0.5))),
            ("ack_p99_ms", .double(Self.percentile(latencies, 0.99))),
            ("ack_max_ms", .double(latencies.last ?? 0)),
        ]
    }

    static func search(_ base: String, memos: Int) throws -> [(String, Value)] {
        let store = try MemoStore(path: "\(base)/search.sqlite")
        var rng = SplitMix64(seed: 11)
        for offset in stride(from: 0, to: memos, by: 500) {
            let batch = (offset..<min(memos, offset + 500)).map { index in
                MemoCommand {
                    $0.cmdId = "s:\(index)"
                    $0.client = "bench"
                    $0.op = .create
                    $0.text = Self.text(&rng, words: 20)
                    $0.x = 0
                    $0.y = 0
                }
            }
            _ = store.apply(batch: batch, now: 1)
        }
        var results: [(String, Value)] = [("search_memos", .int(Int64(memos)))]
        let queries: [(String, [String])] = [
            ("trigram", ["東京タワー", "とうきょう", "abc商事", "企画書", "打ち合わせ", "report", "締め切り", "ガス代"]),
            ("scan_1_2_chars", ["京", "会議", "りん", "ab", "金", "予定"]),
            ("rare_trigram", ["存在しない語", "zzz", "図書館へ"]),
            ("rare_scan_1_2_chars", ["鯨", "zq", "猫"]),
        ]
        for (name, words) in queries {
            var times: [Double] = []
            var hits = 0
            let cpuStart = Self.cpuSeconds()
            for round in 0..<200 {
                let query = words[round % words.count]
                let start = ContinuousClock.now
                hits += try store.search(query, includeTrash: true).count
                times.append(Self.seconds(ContinuousClock.now - start) * 1000)
            }
            let cpu = (Self.cpuSeconds() - cpuStart) / 200 * 1000
            times.sort()
            results += [
                ("search_\(name)_cpu_ms_per_query", .double((cpu * 1000).rounded() / 1000)),
                ("search_\(name)_p50_ms", .double(Self.percentile(times, 0.5))),
                ("search_\(name)_p95_ms", .double(Self.percentile(times, 0.95))),
                ("search_\(name)_mean_hits", .double(Double(hits) / 200)),
            ]
        }
        return results
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let value = sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        return (value * 1000).rounded() / 1000
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// User + system CPU time of this process (`getrusage`).
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    static func nowMilliseconds() -> Int64 {
        Int64(Date().timeIntervalSince1970 * 1000)
    }
}
