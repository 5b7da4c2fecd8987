import Glibc

/// A directory only its owner may enter: the run directory (ipc sockets, locks) and the key
/// directory.
///
/// ipc endpoints are Unix sockets, and anyone who can reach the socket file can join the bus;
/// a 0700 directory owned by the user running the stack is what keeps other users out.
public enum PrivateDirectory {
    /// Mode of a private directory.
    public static let mode: mode_t = 0o700

    /// Creates `path` (parents 0755, itself 0700), or tightens an existing one of ours to 0700.
    /// The corresponding C functions are `mkdir`, `open` (`O_NOFOLLOW`), `fstat` and `fchmod`.
    ///
    /// - Throws: ``BusError`` if it cannot be created, is a symbolic link or no directory, or
    ///   belongs to another user (taking it over would leave that user's files open to us, or ours to them).
    public static func make(_ path: String) throws {
        let descriptor = try Self.open(path)
        defer { close(descriptor) }
        try Self.tighten(descriptor, path: path)
    }

    /// Creates `path` like ``make(_:)`` but changes nothing that exists: opens it and checks that
    /// it is a real directory (not a symbolic link to one) owned by this user. Someone else's
    /// symlink in its place would have us chmod their target and delete files in it.
    ///
    /// - Returns: the open directory, for ``tighten(_:path:)``; the caller closes it.
    /// - Throws: ``BusError`` as ``make(_:)`` does.
    public static func open(_ path: String) throws -> Int32 {
        var built = path.hasPrefix("/") ? "" : "."
        let components = path.split(separator: "/")
        for (index, component) in components.enumerated() {
            built += "/" + component
            let last = index == components.count - 1
            if mkdir(built, last ? Self.mode : 0o755) != 0 && errno != EEXIST {
                throw BusError(errno: errno, call: "mkdir", context: built)
            }
        }
        let descriptor = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                throw BusError(
                    errno: code, call: "private directory",
                    context: "\(path) is a symbolic link; it must be a real directory of this user")
            }
            throw BusError(errno: code, call: "private directory", context: path)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw BusError(errno: code, call: "fstat", context: path)
        }
        guard info.st_uid == geteuid() else {
            close(descriptor)
            throw BusError(
                errno: EPERM, call: "private directory",
                context: "\(path) belongs to uid \(info.st_uid), not to this user (uid \(geteuid()))")
        }
        return descriptor
    }

    /// Sets an open private directory's mode to 0700 if it is not already.
    public static func tighten(_ descriptor: Int32, path: String) throws {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw BusError(errno: errno, call: "fstat", context: path) }
        if info.st_mode & 0o777 != Self.mode, fchmod(descriptor, Self.mode) != 0 {
            throw BusError(errno: errno, call: "fchmod", context: path)
        }
    }

    /// The permission bits of `path` (`stat`), nil if it does not exist.
    public static func permissions(of path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }
}
