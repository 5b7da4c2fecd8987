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
    /// The corresponding C functions are `mkdir`, `stat` and `chmod`.
    ///
    /// - Throws: ``BusError`` if it cannot be created, is not a directory, or belongs to
    ///   another user (taking it over would leave that user's files open to us, or ours to them).
    public static func make(_ path: String) throws {
        var built = path.hasPrefix("/") ? "" : "."
        let components = path.split(separator: "/")
        for (index, component) in components.enumerated() {
            built += "/" + component
            let last = index == components.count - 1
            if mkdir(built, last ? Self.mode : 0o755) != 0 && errno != EEXIST {
                throw BusError(errno: errno, call: "mkdir", context: built)
            }
        }
        var info = stat()
        guard stat(path, &info) == 0 else { throw BusError(errno: errno, call: "stat", context: path) }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw BusError(errno: ENOTDIR, call: "private directory", context: path)
        }
        guard info.st_uid == geteuid() else {
            throw BusError(
                errno: EPERM, call: "private directory",
                context: "\(path) belongs to uid \(info.st_uid), not to this user (uid \(geteuid()))")
        }
        if info.st_mode & 0o777 != Self.mode, chmod(path, Self.mode) != 0 {
            throw BusError(errno: errno, call: "chmod", context: path)
        }
    }

    /// The permission bits of `path` (`stat`), nil if it does not exist.
    public static func permissions(of path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }
}
