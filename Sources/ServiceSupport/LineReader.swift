import Glibc

/// Reads a file line by line with bounded memory: a fixed read buffer and at most
/// ``maxLineBytes`` kept for one line. What the offline tools use for touch scripts, evemu
/// recordings and gesture files, so a 700 MB input never becomes one 700 MB string.
///
/// A line longer than the limit is not kept: ``next()`` returns it as ``Line/tooLong(number:)``
/// (the reader skips to its end), and the caller reports it like any other bad line.
public struct LineReader: ~Copyable {
    /// One line of the file.
    public enum Line: Sendable, Hashable {
        /// Line `number` (from 1), without its `\n` (a `\r` before it is kept).
        case text(String, number: Int)
        /// Line `number` was longer than the limit and was skipped.
        case tooLong(number: Int)
    }

    /// The default longest line: far above any line a touch script or recording holds.
    public static let defaultMaxLineBytes = 1 << 20
    /// How much is read at once.
    public static let chunkBytes = 1 << 16

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let maxLineBytes: Int
    private var chunk: [UInt8]
    private var chunkStart = 0
    private var chunkEnd = 0
    private var line: [UInt8] = []
    private var lineTooLong = false
    private var number = 0
    private var atEnd = false

    /// Opens `path` for reading.
    ///
    /// - Throws: ``ConfigurationError`` naming the file and the kernel's reason.
    public init(path: String, maxLineBytes: Int = LineReader.defaultMaxLineBytes) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ConfigurationError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        self.ownsDescriptor = true
        self.maxLineBytes = maxLineBytes
        self.chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
    }

    /// Reads an open descriptor (standard input, a pipe), which stays open when the reader goes.
    public init(descriptor: Int32, maxLineBytes: Int = LineReader.defaultMaxLineBytes) {
        self.descriptor = descriptor
        self.ownsDescriptor = false
        self.maxLineBytes = maxLineBytes
        self.chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
    }

    deinit { if self.ownsDescriptor { close(self.descriptor) } }

    /// The next line, or nil at the end of the file (a last line without `\n` still counts).
    ///
    /// - Throws: ``ConfigurationError`` if reading fails.
    public mutating func next() throws -> Line? {
        while true {
            if self.chunkStart == self.chunkEnd {
                if self.atEnd { return nil }
                try self.fill()
                if self.atEnd {
                    guard !self.line.isEmpty || self.lineTooLong else { return nil }
                    return self.finishLine()
                }
            }
            let newline = self.chunk[self.chunkStart..<self.chunkEnd].firstIndex(of: UInt8(ascii: "\n"))
            let end = newline ?? self.chunkEnd
            if !self.lineTooLong {
                if self.line.count + (end - self.chunkStart) > self.maxLineBytes {
                    self.lineTooLong = true
                    self.line.removeAll(keepingCapacity: false)
                } else {
                    self.line.append(contentsOf: self.chunk[self.chunkStart..<end])
                }
            }
            guard let newline else {
                self.chunkStart = self.chunkEnd
                continue
            }
            self.chunkStart = newline + 1
            return self.finishLine()
        }
    }

    /// Calls `body` with each line of `path` (text and number, from 1); a line over the limit is
    /// reported on stderr as `tool`'s and skipped.
    ///
    /// - Throws: ``ConfigurationError`` if the file cannot be read, or what `body` throws.
    public static func forEachLine(
        of path: String, tool: String, maxLineBytes: Int = LineReader.defaultMaxLineBytes,
        _ body: (String, Int) throws -> Void
    ) throws {
        var reader = try LineReader(path: path, maxLineBytes: maxLineBytes)
        while let line = try reader.next() {
            switch line {
            case .text(let text, let number): try body(text, number)
            case .tooLong(let number):
                Log.error(tool, "\(path): line \(number): longer than \(maxLineBytes) bytes; skipped")
            }
        }
    }

    /// The next line and every further line the bytes already read complete, or nil at the end:
    /// what arrived together, which a group-committing reader takes as one batch. Blocks only
    /// for the first line.
    ///
    /// - Throws: ``ConfigurationError`` if reading fails.
    public mutating func nextBatch() throws -> [Line]? {
        guard let first = try self.next() else { return nil }
        var lines = [first]
        while self.chunk[self.chunkStart..<self.chunkEnd].contains(UInt8(ascii: "\n")), let line = try self.next() {
            lines.append(line)
        }
        return lines
    }

    private mutating func finishLine() -> Line {
        self.number += 1
        defer {
            self.line.removeAll(keepingCapacity: self.line.capacity <= Self.chunkBytes)
            self.lineTooLong = false
        }
        if self.lineTooLong { return .tooLong(number: self.number) }
        return .text(String(decoding: self.line, as: UTF8.self), number: self.number)
    }

    private mutating func fill() throws {
        while true {
            let count = self.chunk.withUnsafeMutableBytes { read(self.descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw ConfigurationError("read failed: \(String(cString: strerror(errno)))") }
            self.chunkStart = 0
            self.chunkEnd = count
            self.atEnd = count == 0
            return
        }
    }
}
