import Glibc
import ServiceSupport

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
        guard fd >= 0 else { throw ConfigurationError("cannot write \(path): \(String(cString: strerror(errno)))") }
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
