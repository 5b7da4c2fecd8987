import Glibc

/// Buffered standard output for tools that print a line per record: a closed reader (`| head -1`)
/// ends the tool quietly with status 0, as it ends `yes` or `cat`, instead of killing it.
public final class LineWriter {
    private var buffer: [UInt8] = []
    private let descriptor: Int32

    /// Flushes once this many bytes are waiting.
    static let flushBytes = 1 << 16

    public init(descriptor: Int32 = STDOUT_FILENO) {
        // A write to a closed pipe must fail with EPIPE, not kill the process.
        signal(SIGPIPE, SIG_IGN)
        self.descriptor = descriptor
        self.buffer.reserveCapacity(Self.flushBytes)
    }

    /// Appends `line` and a newline.
    ///
    /// - Throws: ``OutputClosed`` once the reader has gone.
    public func write(line: String) throws {
        self.buffer.append(contentsOf: line.utf8)
        self.buffer.append(UInt8(ascii: "\n"))
        if self.buffer.count >= Self.flushBytes { try self.flush() }
    }

    /// Writes out what is buffered.
    ///
    /// - Throws: ``OutputClosed`` if the reader has gone, ``ConfigurationError`` for another failure.
    public func flush() throws {
        var written = 0
        while written < self.buffer.count {
            let count = self.buffer.withUnsafeBytes {
                Glibc.write(self.descriptor, $0.baseAddress! + written, $0.count - written)
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EPIPE { throw OutputClosed() }
            guard count > 0 else { throw ConfigurationError("write failed: \(String(cString: strerror(errno)))") }
            written += count
        }
        self.buffer.removeAll(keepingCapacity: true)
    }
}

/// The reader of a tool's output went away (EPIPE): a normal end, exit status 0.
public struct OutputClosed: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "output closed" }
}
