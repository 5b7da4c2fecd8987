import Bus
import Foundation
import Glibc
import ServiceSupport

/// A service's log file: every line stamped with the wall time and the writer's name and pid.
///
/// `2026-12-01T20:41:07.125Z memo-store[4242]: starting: pid 4242, …`
///
/// The stamp is fixed-width UTC, so lines from several logs merge and filter (`--since`) by
/// comparing text. The supervisor writes what each child prints (stdout and stderr alike) and
/// its own lines about the child; `uibus-supervisor logs` reads them back.
final class ServiceLog {
    let name: String
    private let descriptor: Int32

    /// Opens (appending) `<directory>/<name>.log`.
    init(directory: String, name: String) {
        self.name = name
        self.descriptor = open("\(directory)/\(name).log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    }

    deinit {
        if self.descriptor >= 0 { close(self.descriptor) }
    }

    /// Appends one line for `pid` (0: the supervisor's own line about this service).
    func write(_ line: String, pid: Int32) {
        guard self.descriptor >= 0 else { return }
        // A service's own diagnostics start with its name; the stamp already says it.
        let text = line.hasPrefix(self.name + ": ") ? String(line.dropFirst(self.name.count + 2)) : line
        let who = pid == 0 ? "\(self.name) (supervisor)" : "\(self.name)[\(pid)]"
        Log.write("\(Self.stamp(Clock.wallNs())) \(who): \(text)\n", to: self.descriptor)
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for a wall time in ns since the Unix epoch.
    static func stamp(_ wallNs: UInt64) -> String {
        var seconds = time_t(wallNs / 1_000_000_000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milliseconds = Int(wallNs / 1_000_000 % 1000)
        let fraction = String(milliseconds + 1000).dropFirst()
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)Z"
    }
}

/// Splits bytes read from a pipe into lines, keeping a partial last line for the next read.
struct LineSplitter {
    /// Longer lines are cut here, so a child printing without newlines cannot grow the buffer.
    static let maximumLine = 64 * 1024
    private var pending: [UInt8] = []

    /// Adds `bytes` and returns the complete lines they finish.
    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        self.pending.append(contentsOf: bytes)
        var lines: [String] = []
        while let newline = self.pending.firstIndex(of: 0x0a) {
            lines.append(String(decoding: self.pending[..<newline], as: UTF8.self))
            self.pending.removeSubrange(...newline)
        }
        if self.pending.count >= Self.maximumLine {
            lines.append(String(decoding: self.pending, as: UTF8.self))
            self.pending.removeAll()
        }
        return lines
    }

    /// What is left without a newline (at end of file).
    mutating func rest() -> String? {
        defer { self.pending.removeAll() }
        return self.pending.isEmpty ? nil : String(decoding: self.pending, as: UTF8.self)
    }
}
