import Bus
import Foundation
import Glibc
import ServiceSupport

/// `uibus-supervisor logs [SERVICE…] [--follow] [--since 5m] [--lines N]`: the services' logs,
/// merged in time order, every line stamped and named (see ``ServiceLog``), like
/// `docker compose logs` and `journalctl -u`.
struct LogsCommand {
    var logDirectory: String
    /// Empty: every log in the directory, the supervisor's own included.
    var services: [String]
    var follow: Bool
    /// Only lines stamped at or after this (a stamp prefix compares as text).
    var since: String?
    /// Only the last N lines of what is there when the command starts.
    var lines: Int?

    /// How often `--follow` looks for new lines.
    static let followIntervalMs = 200

    /// `--since` as a duration back from now (`90s`, `5m`, `2h`, `1d`) or a stamp (`2026-12-01T20:41`).
    ///
    /// - Throws: ``UsageError`` for anything else.
    static func since(_ text: String, nowNs: UInt64) throws -> String {
        if text.first?.isNumber == true, text.contains("-") { return text }
        let units: [Character: UInt64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let unit = text.last.flatMap({ units[$0] }), let count = UInt64(text.dropLast()), count < 1 << 32 else {
            throw UsageError("--since takes a duration (30s, 5m, 2h, 1d) or a time (2026-12-01T20:41), not '\(text)'")
        }
        return ServiceLog.stamp(nowNs - min(nowNs, count * unit * 1_000_000_000))
    }

    /// Prints the logs, then follows them until a stop signal or a closed output.
    ///
    /// - Throws: ``SupervisorError`` when a named service has no log.
    func run(signals: SignalWatcher) throws -> Int32 {
        var offsets: [String: Int] = [:]
        var pending: [String: LineSplitter] = [:]
        var first = true
        while true {
            var batch: [(stamp: Substring, line: String)] = []
            for path in try self.paths(mustExist: first) {
                guard let handle = FileHandle(forReadingAtPath: path) else { continue }
                defer { try? handle.close() }
                var offset = offsets[path] ?? 0
                // A log that shrank was replaced: read it from the start.
                if let size = try? handle.seekToEnd(), Int(size) < offset { offset = 0 }
                try? handle.seek(toOffset: UInt64(offset))
                let data = (try? handle.readToEnd()) ?? Data()
                offsets[path] = offset + data.count
                var splitter = pending[path] ?? LineSplitter()
                let read = data.withUnsafeBytes { splitter.add($0.bindMemory(to: UInt8.self)) }
                pending[path] = splitter
                var stamp: Substring = ""
                for line in read {
                    // A line without a stamp (an older log) sorts with the line before it.
                    if line.count >= 24, line.dropFirst(23).first == "Z" { stamp = line.prefix(24) }
                    if let since = self.since, stamp < Substring(since) { continue }
                    batch.append((stamp, line))
                }
            }
            // A stable sort keeps each file's own order among equal stamps.
            var merged = batch.enumerated().sorted { ($0.element.stamp, $0.offset) < ($1.element.stamp, $1.offset) }
                .map(\.element.line)
            if first, let lines = self.lines { merged = Array(merged.suffix(lines)) }
            first = false
            guard Self.emit(merged) else { return 0 }
            guard self.follow else { return 0 }
            var poller = Poller()
            let index = poller.add(fileDescriptor: signals.descriptor)
            try poller.poll(timeoutMs: Self.followIntervalMs)
            if poller.isReadable(index), signals.pending() != nil { return 0 }
        }
    }

    /// The log files to read: the named services', or every `*.log` in the directory.
    private func paths(mustExist: Bool) throws -> [String] {
        if self.services.isEmpty {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: self.logDirectory)) ?? []
            return names.filter { $0.hasSuffix(".log") }.sorted().map { "\(self.logDirectory)/\($0)" }
        }
        return try self.services.map { service in
            let path = "\(self.logDirectory)/\(service).log"
            if mustExist && !FileManager.default.fileExists(atPath: path) {
                throw SupervisorError("no log for '\(service)' at \(path)")
            }
            return path
        }
    }

    /// Writes lines to stdout; false once the reader has gone (EPIPE), which ends the command quietly.
    private static func emit(_ lines: [String]) -> Bool {
        guard !lines.isEmpty else { return true }
        var text = lines.joined(separator: "\n") + "\n"
        return text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
