import Glibc

/// Line-oriented output for services: `ready` and results on stdout, diagnostics on stderr.
public enum Log {
    /// Writes one line to stdout and flushes, so supervisors and pipes see it at once.
    ///
    /// - Returns: false if stdout is gone (its reader closed the pipe): a tool that streams stops then.
    @discardableResult
    public static func out(_ line: String) -> Bool {
        Self.write(line + "\n", to: STDOUT_FILENO)
    }

    /// Writes one diagnostic line to stderr, prefixed with the tool's name.
    public static func error(_ tool: String, _ line: String) {
        Self.write("\(tool): \(line)\n", to: STDERR_FILENO)
    }

    /// Writes one informational line to stderr (start, configuration, stop), like ``error(_:_:)``:
    /// stderr is the diagnostic stream a supervisor timestamps into the service's log.
    public static func info(_ tool: String, _ line: String) {
        Self.error(tool, line)
    }

    /// Writes all of `text`, retrying short writes and EINTR. The corresponding C function is `write`.
    ///
    /// - Returns: false if the descriptor refused the write (EPIPE with SIGPIPE ignored, a full disk).
    @discardableResult
    public static func write(_ text: String, to descriptor: Int32) -> Bool {
        var text = text
        return text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
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
