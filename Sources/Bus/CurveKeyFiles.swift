import Glibc

/// CURVE keys on disk, as `bus-proxy keys` writes them and bus files name them.
///
/// A key file holds one Z85 key on its first line: `NAME.secret` (the secret key; the public
/// half is derived from it) and `NAME.public`. The allow-list `allowed_clients` holds one client
/// public key a line, optionally followed by a label; a line whose first word starts with `#` and
/// is no key is a comment. Every file is 0600
/// in a 0700 directory; a secret readable by anyone else is refused, and so is any key file or
/// allow-list that another user owns or may write, directly or through its directory (a key
/// appended by someone else would let them in), or that is a symbolic link.
public enum CurveKeyFiles {
    /// The allow-list's file name in a key directory.
    public static let allowListName = "allowed_clients"

    /// Reads the Z85 key in `path`.
    ///
    /// - Parameter secret: refuse the file if group or others may read it.
    /// - Throws: ``BusError`` naming the file: missing, unreadable, too open, or not a key.
    public static func readKey(_ path: String, secret: Bool) throws -> String {
        let text = try Self.read(path)
        if secret, let mode = PrivateDirectory.permissions(of: path), mode & 0o077 != 0 {
            throw Self.error(
                path, "a secret key readable by others (mode 0\(String(mode, radix: 8))): chmod 600 \(path)")
        }
        let key = text.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
        guard CurveKeyPair.isKey(key) else {
            throw Self.error(path, "not a CURVE key (40 characters of Z85)")
        }
        return key
    }

    /// Reads an allow-list: the set of client public keys.
    ///
    /// - Throws: ``BusError`` naming the file and the line of a bad key.
    public static func readAllowList(_ path: String) throws -> Set<String> {
        var keys: Set<String> = []
        for (number, line) in try Self.read(path).split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        {
            // `#` is a Z85 character, so only a first word that is no key makes a comment.
            guard let word = line.split(whereSeparator: \.isWhitespace).first,
                !(word.hasPrefix("#") && !CurveKeyPair.isKey(String(word)))
            else { continue }
            guard CurveKeyPair.isKey(String(word)) else {
                throw Self.error(path, "line \(number + 1): '\(word)' is not a CURVE public key (40 characters of Z85)")
            }
            keys.insert(String(word))
        }
        return keys
    }

    /// Makes the key directory and whatever keys it lacks: the server's pair and one pair per
    /// client name, each client's public key added to the allow-list. Existing keys are kept,
    /// so running it again never locks out a host that already has its keys.
    ///
    /// - Returns: one line per file written, for the user.
    /// - Throws: ``BusError`` if libzmq has no CURVE or a file cannot be written.
    public static func make(directory: String, clients: [String]) throws -> [String] {
        guard CurveKeyPair.isAvailable else {
            throw BusError(errno: ENOTSUP, call: "zmq_has", context: "this libzmq was built without CURVE")
        }
        for name in ["server"] + clients where name.isEmpty || name.contains("/") || name.hasPrefix(".") {
            throw BusError(errno: EINVAL, call: "curve keys", context: "'\(name)' is not a usable key name")
        }
        try PrivateDirectory.make(directory)
        var written: [String] = []
        let allowListPath = directory + "/" + Self.allowListName
        let hasAllowList = access(allowListPath, F_OK) == 0
        var allowed = hasAllowList ? try Self.readAllowList(allowListPath) : []
        var allowListText = hasAllowList ? try Self.read(allowListPath) : ""
        for name in ["server"] + clients {
            let secretPath = "\(directory)/\(name).secret"
            let pair: CurveKeyPair
            if access(secretPath, F_OK) == 0 {
                pair = try CurveKeyPair(secretKey: try Self.readKey(secretPath, secret: true))
            } else {
                pair = try CurveKeyPair.generate()
                try Self.writeFile(secretPath, pair.secretKey + "\n")
                try Self.writeFile("\(directory)/\(name).public", pair.publicKey + "\n")
                written += [secretPath, "\(directory)/\(name).public"]
            }
            if name != "server", !allowed.contains(pair.publicKey) {
                allowed.insert(pair.publicKey)
                allowListText += "\(pair.publicKey) \(name)\n"
                try Self.writeFile(directory + "/" + Self.allowListName, allowListText, replace: true)
                written.append(directory + "/" + Self.allowListName + " += " + name)
            }
        }
        return written
    }

    /// Writes `text` to a new file of mode 0600 (`replace`: or over an old one, through a temporary).
    /// The corresponding C functions are `open`, `write`, `fsync` and `rename`.
    static func writeFile(_ path: String, _ text: String, replace: Bool = false) throws {
        let target = replace ? path + ".new" : path
        if replace { unlink(target) }
        let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw BusError(errno: errno, call: "open", context: target) }
        defer { close(descriptor) }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw BusError(errno: errno, call: "write", context: target) }
            offset += count
        }
        guard fsync(descriptor) == 0 else { throw BusError(errno: errno, call: "fsync", context: target) }
        if replace, rename(target, path) != 0 { throw BusError(errno: errno, call: "rename", context: path) }
    }

    /// Reads a key file or allow-list after checking who may have written it.
    /// The corresponding C functions are `open` (`O_NOFOLLOW`), `fstat`, `stat` and `read`.
    private static func read(_ path: String) throws -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            let problem = errno == ELOOP ? "a symbolic link; give the file itself" : String(cString: strerror(errno))
            throw Self.error(path, "cannot read it: \(problem) (make keys with deploy/uibus keys)")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Self.error(path, String(cString: strerror(errno))) }
        try Self.checkWriters(path, info, what: "file")
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        var directoryInfo = stat()
        guard stat(directory, &directoryInfo) == 0 else {
            throw Self.error(directory, String(cString: strerror(errno)))
        }
        // In a sticky directory (/tmp) others may write, but not replace or remove our files.
        if directoryInfo.st_mode & S_ISVTX == 0 { try Self.checkWriters(directory, directoryInfo, what: "directory") }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw Self.error(path, String(cString: strerror(errno))) }
            if count == 0 { break }
            bytes += buffer.prefix(count)
            if bytes.count > 1 << 20 { throw Self.error(path, "larger than 1 MiB, not a key file") }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Refuses a file or directory that another user owns (root excepted for a directory) or
    /// that group or others may write.
    private static func checkWriters(_ path: String, _ info: stat, what: String) throws {
        let ownerAllowed = info.st_uid == geteuid() || (what == "directory" && info.st_uid == 0)
        guard ownerAllowed else {
            throw Self.error(path, "the \(what) belongs to uid \(info.st_uid), not to this user (uid \(geteuid()))")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o022 == 0 else {
            throw Self.error(
                path,
                "the \(what) may be written by others (mode 0\(String(mode, radix: 8))), who could add their keys: "
                    + "chmod go-w \(path)")
        }
    }

    private static func error(_ path: String, _ problem: String) -> BusError {
        BusError(errno: 0, call: "curve key file", context: "\(path): \(problem)")
    }
}
