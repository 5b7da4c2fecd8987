import Foundation
import Glibc

/// The supervisor's control socket: a Unix stream socket `supervisor.sock` in its private run
/// directory (mode 0700, so only its user can connect), one request a connection.
///
/// A request is one line, `start|stop|restart SERVICE`; the answer one line, `ok MESSAGE` or
/// `error MESSAGE`, then the supervisor closes the connection.
enum ControlSocket {
    /// The socket's path in a run directory.
    static func path(runDirectory: String) -> String { runDirectory + "/supervisor.sock" }

    /// Binds and listens (the caller holds the supervisor lock, so a file left there is stale).
    /// The corresponding C functions are `socket`, `bind` and `listen`.
    static func listen(runDirectory: String) throws -> Int32 {
        let path = Self.path(runDirectory: runDirectory)
        unlink(path)
        let descriptor = try Self.socket(path) { descriptor, address, length in
            Glibc.bind(descriptor, address, length) == 0 && Glibc.listen(descriptor, 16) == 0
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        return descriptor
    }

    /// Accepts one pending connection and reads its request line (waiting at most a second).
    ///
    /// - Returns: the connection and its request, nil when none is pending or it sent nothing.
    static func accept(_ listener: Int32) -> (connection: Int32, request: String)? {
        let connection = Glibc.accept(listener, nil, nil)
        guard connection >= 0 else { return nil }
        // The supervisor spawns on this same thread, so no child can inherit it in between.
        _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
        Self.setTimeout(connection, seconds: 1)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while !bytes.contains(0x0a) && bytes.count < 1024 {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer.prefix(count)
        }
        guard let end = bytes.firstIndex(of: 0x0a) else {
            close(connection)
            return nil
        }
        return (connection, String(decoding: bytes[..<end], as: UTF8.self))
    }

    /// Writes the answer and closes the connection.
    static func answer(_ connection: Int32, ok: Bool, message: String) {
        let line = Array("\(ok ? "ok" : "error") \(message)\n".utf8)
        _ = write(connection, line, line.count)
        close(connection)
    }

    /// Sends `request` to the supervisor of `runDirectory` and returns its answer.
    ///
    /// - Throws: ``SupervisorError`` when no supervisor listens there or none answers in time.
    static func send(_ request: String, runDirectory: String, timeoutSeconds: Int = 10) throws -> (
        ok: Bool, message: String
    ) {
        let path = Self.path(runDirectory: runDirectory)
        let descriptor: Int32
        do {
            descriptor = try Self.socket(path) { descriptor, address, length in
                connect(descriptor, address, length) == 0
            }
        } catch {
            throw SupervisorError("no supervisor is running (\(path): \(error))")
        }
        defer { close(descriptor) }
        Self.setTimeout(descriptor, seconds: timeoutSeconds)
        let line = Array((request + "\n").utf8)
        guard write(descriptor, line, line.count) == line.count else {
            throw SupervisorError("cannot send to the supervisor: \(String(cString: strerror(errno)))")
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer.prefix(count)
        }
        let answer = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .newlines)
        guard let space = answer.firstIndex(of: " ") else {
            throw SupervisorError("no answer from the supervisor within \(timeoutSeconds) s")
        }
        return (answer[..<space] == "ok", String(answer[answer.index(after: space)...]))
    }

    /// A Unix stream socket on which `action` (bind or connect) was done with `path`'s address.
    private static func socket(
        _ path: String, _ action: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Bool
    ) throws -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SupervisorError("socket path too long (\(bytes.count) bytes): \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SupervisorError("socket: \(String(cString: strerror(errno)))") }
        let done = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                action(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard done else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw SupervisorError(reason)
        }
        return descriptor
    }

    /// Bounds how long a read or write on `descriptor` waits.
    private static func setTimeout(_ descriptor: Int32, seconds: Int) {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(descriptor, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
    }
}
