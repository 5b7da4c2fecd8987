import Glibc

/// Unbuffered output, files and the wall clock: the executable's only I/O.
enum StandardStreams {
    static func write(_ text: String) {
        Self.write(fd: 1, text)
    }

    static func writeError(_ text: String) {
        Self.write(fd: 2, text)
    }

    /// Writes `text` to a new (or truncated) file at `path`.
    static func writeFile(_ path: String, _ text: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ToolError("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        Self.write(fd: fd, text)
    }

    /// CLOCK_REALTIME in milliseconds.
    static func nowMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    private static func write(fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}

/// Splits a file descriptor's bytes into lines, handing over all complete lines each read gave.
struct LineReader {
    let fd: Int32
    private var pending: [UInt8] = []

    init(fd: Int32) {
        self.fd = fd
    }

    /// The complete lines of the next read (blocking until there is one), or nil at the end.
    mutating func nextLines() -> [String]? {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(self.fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                guard !self.pending.isEmpty else { return nil }
                defer { self.pending = [] }
                return [String(decoding: self.pending, as: UTF8.self)]
            }
            self.pending += buffer[0..<count]
            guard let lastNewline = self.pending.lastIndex(of: UInt8(ascii: "\n")) else { continue }
            let complete = self.pending[..<lastNewline]
            self.pending.removeSubrange(...lastNewline)
            return complete.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
        }
    }
}
