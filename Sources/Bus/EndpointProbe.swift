import Glibc

/// Whether something listens on a ZeroMQ endpoint, asked with a plain socket connect.
///
/// ZeroMQ's own `connect` never fails for a missing peer (it retries in the background), so a tool
/// that must say "no proxy" (instead of printing nothing and exiting 0) asks the kernel directly:
/// an `ipc://` path with no listener refuses the connection at once, a `tcp://` port within the timeout.
public enum EndpointProbe {
    /// Why `endpoint` cannot be reached, or nil if a listener accepted a connection.
    ///
    /// Endpoints of other transports (`inproc://`, `pgm://`) are assumed reachable.
    public static func problem(_ endpoint: String, timeoutMs: Int32 = 2000) -> String? {
        if endpoint.hasPrefix("ipc://") { return Self.unixProblem(String(endpoint.dropFirst("ipc://".count))) }
        if endpoint.hasPrefix("tcp://") {
            return Self.tcpProblem(String(endpoint.dropFirst("tcp://".count)), timeoutMs)
        }
        return nil
    }

    private static func unixProblem(_ path: String) -> String? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // ZeroMQ writes an abstract name `@x` as a leading NUL byte.
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return "socket path too long: \(path)" }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1))
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return "socket: \(String(cString: strerror(errno)))" }
        defer { close(descriptor) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, length) }
        }
        return result == 0 ? nil : "\(path): \(String(cString: strerror(errno)))"
    }

    private static func tcpProblem(_ hostPort: String, _ timeoutMs: Int32) -> String? {
        guard let colon = hostPort.lastIndex(of: ":") else { return "no port in tcp://\(hostPort)" }
        var host = String(hostPort[..<colon])
        let port = String(hostPort[hostPort.index(after: colon)...])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "*" { host = "127.0.0.1" }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, port, &hints, &list)
        guard status == 0, let first = list else { return "\(hostPort): \(String(cString: gai_strerror(status)))" }
        defer { freeaddrinfo(list) }
        var problem = "\(hostPort): no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            problem = Self.connect(current.pointee, timeoutMs).map { "\(hostPort): \($0)" } ?? ""
            if problem.isEmpty { return nil }
            entry = current.pointee.ai_next
        }
        return problem
    }

    /// A non-blocking connect waited on with `poll`, so a silent host costs at most the timeout.
    private static func connect(_ info: addrinfo, _ timeoutMs: Int32) -> String? {
        let type = info.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = socket(info.ai_family, type, info.ai_protocol)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        if Glibc.connect(descriptor, info.ai_addr, info.ai_addrlen) == 0 { return nil }
        guard errno == EINPROGRESS else { return String(cString: strerror(errno)) }
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        guard poll(&entry, 1, timeoutMs) == 1 else { return "no answer within \(timeoutMs) ms" }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
        return error == 0 ? nil : String(cString: strerror(error))
    }
}
