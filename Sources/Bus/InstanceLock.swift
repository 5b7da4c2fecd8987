import Glibc

/// An exclusive lock on a file, held until released or the process dies.
///
/// The kernel drops an `flock` when its holder dies, so a lock that can be taken proves that
/// no live instance owns what it guards (an ipc socket file left by a killed proxy, say).
public final class InstanceLock {
    public let path: String
    private var descriptor: Int32

    /// Takes the lock at `path`, creating the file and writing this process's pid into it.
    /// The corresponding C functions are `open` and `flock`.
    ///
    /// - Throws: ``BusError`` with EWOULDBLOCK and the holder's pid if another process has it.
    public init(path: String) throws {
        self.path = path
        self.descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard self.descriptor >= 0 else { throw BusError(errno: errno, call: "open", context: path) }
        guard flock(self.descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = read(self.descriptor, &buffer, buffer.count)
            let holder = count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : "unknown"
            close(self.descriptor)
            throw BusError(errno: code, call: "flock", context: "\(path) is held by pid \(holder)")
        }
        let pid = "\(getpid())"
        _ = ftruncate(self.descriptor, 0)
        _ = pid.withCString { write(self.descriptor, $0, strlen($0)) }
    }

    deinit {
        self.release()
    }

    /// Releases the lock and removes the file; later calls do nothing.
    public func release() {
        guard self.descriptor >= 0 else { return }
        unlink(self.path)
        close(self.descriptor)
        self.descriptor = -1
    }
}
