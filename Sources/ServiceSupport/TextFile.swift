import Glibc

/// Whole-file reads for the inputs a tool needs whole (scenes, evemu recordings and their
/// descriptions, a script to loop), bounded: a file above the limit is refused by its size before
/// anything is read, so memory stays bounded whatever the file. Inputs read a line at a time
/// use ``LineReader`` instead.
public enum TextFile {
    /// The largest file read whole: far above any scene or recording in use.
    public static let defaultMaxBytes = 64 << 20

    /// The contents of `path` as UTF-8 (malformed bytes replaced).
    ///
    /// - Throws: ``ConfigurationError`` naming the file if it cannot be read or is larger than
    ///   `maxBytes`.
    public static func read(_ path: String, maxBytes: Int = TextFile.defaultMaxBytes) throws -> String {
        String(decoding: try Self.bytes(path, maxBytes: maxBytes), as: UTF8.self)
    }

    /// The bytes of `path`, as ``read(_:maxBytes:)`` bounds them.
    public static func bytes(_ path: String, maxBytes: Int = TextFile.defaultMaxBytes) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ConfigurationError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw ConfigurationError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard Int(status.st_size) <= maxBytes else {
            throw ConfigurationError("\(path): \(status.st_size) bytes, more than the \(maxBytes) read whole")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw ConfigurationError("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            // A file that grows while it is read is bounded too.
            guard bytes.count + count <= maxBytes else {
                throw ConfigurationError("\(path): more than the \(maxBytes) bytes read whole")
            }
            bytes.append(contentsOf: chunk[..<count])
        }
        return bytes
    }
}
