import Glibc

/// An exclusive lock on a file, held until released or the process dies.
///
/// The kernel drops an `flock` when its holder dies, so a lock that can be taken proves that
/// no live instance owns what it guards (an ipc socket file left by a killed proxy, say).
public final class InstanceLock {
    public let path: String
    private var descriptor: Int32

    /// Takes the lock at `path`, creating the file and writing this process's pid into it.
    /// A lock that is refused changes nothing: the file, and whatever it guards, stay the holder's.
    /// The corresponding C functions are `open` (`O_NOFOLLOW`) and `flock`.
    ///
    /// - Throws: ``BusError`` with EWOULDBLOCK and the holder's pid if another process has it.
    public init(path: String) throws {
        self.path = path
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw BusError(errno: errno, call: "open", context: path) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = read(descriptor, &buffer, buffer.count)
            let holder = count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : "unknown"
            close(descriptor)
            // Not held, so neither `deinit` nor ``release()`` may remove the holder's file.
            self.descriptor = -1
            throw BusError(errno: code, call: "flock", context: "\(path) is held by pid \(holder)")
        }
        self.descriptor = descriptor
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
