import BusSchema
import Foundation

/// Where the bus is: the proxy's two endpoints, from `deploy/bus.json`.
///
/// ```json
/// {"root": "..", "publish": "ipc://var/run/bus-in", "subscribe": "ipc://var/run/bus-out"}
/// ```
/// Relative `ipc://` paths are resolved against `root`, which is itself relative to the
/// file's directory (default: the file's directory), so the file works from any cwd.
///
/// Across machines the endpoints are `tcp://HOST:PORT` (the proxy binds them, everyone else
/// connects), and an optional `curve` section (``CurveSettings``) makes the proxy a CURVE
/// server that lets in only the clients on its allow-list.
public struct BusConfig: Sendable {
    /// The endpoint a PUB connects to (the proxy's XSUB binds it).
    public var publish: String
    /// The endpoint a SUB connects to (the proxy's XPUB binds it).
    public var subscribe: String
    /// Every key of the file, endpoints resolved, for `bus-tap endpoints`.
    public var document: ValueMap
    /// Where the CURVE keys are, if the bus uses CURVE.
    public var curve: CurveSettings?

    public init(publish: String, subscribe: String, curve: CurveSettings? = nil) {
        self.publish = publish
        self.subscribe = subscribe
        self.curve = curve
        self.document = ["publish": .string(publish), "subscribe": .string(subscribe)]
    }

    /// The config used when no `--bus` is given: `UIBUS_BUS`, else the checkout's `deploy/bus.json`.
    public static var defaultPath: String {
        Self.path(explicit: nil)
    }

    /// Where the bus file is, for every tool: `explicit` (`--bus FILE`), else `$UIBUS_BUS`, else
    /// `deploy/bus.json` in the checkout the running executable was built in (found by walking up
    /// from the executable), else `deploy/bus.json` under the working directory.
    public static func path(explicit: String?) -> String {
        if let explicit { return explicit }
        if let variable = ProcessInfo.processInfo.environment["UIBUS_BUS"], !variable.isEmpty { return variable }
        if let root = Self.checkoutRoot { return root + "/deploy/bus.json" }
        return "deploy/bus.json"
    }

    /// The directory above the running executable that holds `deploy/bus.json` (the checkout it
    /// was built in: `.build/<triple>/debug/` is three levels down), nil for an installed copy.
    public static var checkoutRoot: String? {
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        for _ in 0..<6 {
            directory.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: directory.path + "/deploy/bus.json") { return directory.path }
            if directory.path == "/" { break }
        }
        return nil
    }

    /// Loads and checks a bus file.
    ///
    /// - Throws: ``BusError`` naming the file and what is wrong with it.
    public static func load(_ path: String) throws -> BusConfig {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BusError(errno: ENOENT, call: "read bus config", context: path)
        }
        let document: Value
        do {
            document = try data.withUnsafeBytes { try JSONReader.parse($0) }
        } catch {
            throw BusError(errno: 0, call: "parse bus config", context: "\(path): \(error)")
        }
        guard var map = document.mapValue else {
            throw BusError(errno: 0, call: "parse bus config", context: "\(path): not a JSON object")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        let root = directory.appendingPathComponent(map["root"]?.stringValue ?? ".").standardizedFileURL.path
        var endpoints: [String] = []
        for key in ["publish", "subscribe"] {
            guard let endpoint = map[key]?.stringValue, !endpoint.isEmpty else {
                throw BusError(errno: 0, call: "parse bus config", context: "\(path): missing string '\(key)'")
            }
            let resolved = Self.resolve(endpoint, root: root)
            map[key] = .string(resolved)
            endpoints.append(resolved)
        }
        let curve = try map["curve"].map { section in
            try CurveSettings(section, file: path) { Self.resolvePath($0, root: root) }
        }
        var config = BusConfig(publish: endpoints[0], subscribe: endpoints[1], curve: curve)
        config.document = map
        return config
    }

    /// A client's CURVE keys, read from their files now; nil if the bus does not use CURVE.
    ///
    /// - Throws: ``BusError`` naming a missing setting or a missing or bad key file.
    public func curveClient() throws -> CurveClientKeys? {
        try self.curve?.clientKeys()
    }

    /// The file paths of the `ipc://` endpoints (abstract `@` names have none).
    public var ipcPaths: [String] {
        [self.publish, self.subscribe].compactMap { endpoint in
            guard endpoint.hasPrefix("ipc://"), !endpoint.hasPrefix("ipc://@") else { return nil }
            return String(endpoint.dropFirst("ipc://".count))
        }
    }

    private static func resolve(_ endpoint: String, root: String) -> String {
        guard endpoint.hasPrefix("ipc://") else { return endpoint }
        let path = String(endpoint.dropFirst("ipc://".count))
        if path.hasPrefix("@") { return endpoint }
        return "ipc://" + Self.resolvePath(path, root: root)
    }

    private static func resolvePath(_ path: String, root: String) -> String {
        if path.hasPrefix("/") { return path }
        return URL(fileURLWithPath: root).appendingPathComponent(path).standardizedFileURL.path
    }
}
