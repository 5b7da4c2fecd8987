import BusSchema
import ComponentCore
import Glibc

/// Reads connectivity from the interfaces that are up — never from a name lookup, which can
/// block for about a minute when the local link is up but the uplink is down.
public enum NetworkProbe {
    /// One usable interface.
    public struct Interface: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable {
            case wired, wireless, other
        }

        public var name: String
        public var kind: Kind
    }

    /// Interfaces that are up and running with an IPv4 or IPv6 address, loopback excluded.
    /// The corresponding C functions are `getifaddrs` and `freeifaddrs`.
    public static func interfaces() -> [Interface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var names: [String] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_RUNNING) != 0, flags & Int32(IFF_LOOPBACK) == 0,
                let address = entry.pointee.ifa_addr,
                address.pointee.sa_family == sa_family_t(AF_INET) || address.pointee.sa_family == sa_family_t(AF_INET6)
            else { continue }
            let name = String(cString: entry.pointee.ifa_name)
            if !names.contains(name) { names.append(name) }
        }
        return names.map { Interface(name: $0, kind: Self.kind(of: $0)) }
    }

    /// Wireless if the kernel lists it under `/sys/class/net/<name>/wireless`; wired for
    /// Ethernet-like names; other for the rest (tunnels, bridges).
    /// The corresponding C function is `access`.
    static func kind(of name: String) -> Interface.Kind {
        if access("/sys/class/net/\(name)/wireless", F_OK) == 0 { return .wireless }
        if name.hasPrefix("wl") { return .wireless }
        if name.hasPrefix("eth") || name.hasPrefix("en") { return .wired }
        return .other
    }

    /// The best connectivity the interfaces give: wired before wireless; `other` alone counts as wired.
    public static func connectivity(_ interfaces: [Interface]) -> Connectivity {
        if interfaces.isEmpty { return .none }
        if interfaces.contains(where: { $0.kind == .wired }) { return .wired }
        if interfaces.contains(where: { $0.kind == .wireless }) { return .wireless }
        return .wired
    }

    /// The `network` payload for `sys/network/`.
    public static func payload(_ interfaces: [Interface], tMs: Double) -> Value {
        .map([
            "connectivity": .string(Self.connectivity(interfaces).rawValue),
            "interfaces": .array(
                interfaces.map { .map(["name": .string($0.name), "kind": .string($0.kind.rawValue)]) }),
            "t_ms": .number(tMs),
        ])
    }
}
