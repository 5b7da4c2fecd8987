import Glibc

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
