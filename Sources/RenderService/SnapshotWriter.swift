import Glibc

/// Writes PNG snapshots all or nothing: the bytes go to a hidden temporary file in the same
/// directory, which is renamed into place once complete, so readers never see a partial PNG.
/// A worker killed mid-write (SIGKILL) leaves its temporary file, named with its process id; the
/// next one removes it once that process is gone (a worker still finishing its last frame keeps its own).
public struct SnapshotWriter: Sendable {
    /// A snapshot that could not be written.
    public struct WriteError: Error, CustomStringConvertible {
        public var description: String
    }

    public let directory: String

    /// Creates `directory` (and its parents) if needed and removes temporary files a killed
    /// worker left there. The corresponding C functions are `mkdir`, `opendir`, `readdir`,
    /// `kill` (signal 0: is the writer alive?) and `unlink`.
    ///
    /// - Throws: ``WriteError`` if it cannot be created.
    public init(directory: String) throws {
        self.directory = directory
        var path = directory.hasPrefix("/") ? "/" : ""
        for part in directory.split(separator: "/") {
            path += (path.isEmpty || path == "/" ? "" : "/") + part
            if mkdir(path, 0o755) != 0, errno != EEXIST {
                throw WriteError(description: "cannot create \(path): \(String(cString: strerror(errno)))")
            }
        }
        guard let listing = opendir(directory) else { return }
        defer { closedir(listing) }
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if Self.isAbandoned(temporary: name) { unlink("\(directory)/\(name)") }
        }
    }

    /// Whether `name` is a temporary snapshot (`.frame-000042.png.<pid>.tmp`) whose writer is gone.
    static func isAbandoned(temporary name: String) -> Bool {
        guard name.hasPrefix(".frame-"), name.hasSuffix(".tmp") else { return false }
        // ["frame-000042", "png", pid, "tmp"]; a name without the pid predates it.
        let parts = name.split(separator: ".")
        guard parts.count == 4, parts[1] == "png", let pid = pid_t(parts[2]), pid > 0 else { return parts.count == 3 }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// The path of frame `frameID`'s snapshot: `DIR/frame-000042.png`.
    public func path(frameID: Int) -> String {
        let digits = String(frameID)
        return "\(self.directory)/frame-\(String(repeating: "0", count: max(0, 6 - digits.count)) + digits).png"
    }

    /// Writes `bytes` as frame `frameID`'s snapshot and returns its path. The corresponding C
    /// functions are `rename` and, on failure, `unlink`.
    ///
    /// - Throws: ``WriteError``; no file is left behind then.
    public func write(_ bytes: [UInt8], frameID: Int) throws -> String {
        let path = self.path(frameID: frameID)
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let temporary = String(path[..<slash]) + "." + String(path[slash...]) + ".\(getpid()).tmp"
        try Self.writeFile(bytes, to: temporary)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw WriteError(description: "cannot rename \(temporary) to \(path): \(reason)")
        }
        return path
    }

    /// Writes and syncs a whole file, removing it on failure.
    /// The corresponding C functions are `open`, `write`, `fsync` and `close`.
    private static func writeFile(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw WriteError(description: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(path)
            throw WriteError(description: "cannot write \(path): \(failure)")
        }
    }
}
