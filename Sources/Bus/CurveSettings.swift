import BusSchema

/// The optional `curve` section of a bus file: the proxy is a CURVE server, every publisher and
/// subscriber a CURVE client, and only clients on the allow-list may join.
///
/// ```json
/// "curve": {
///   "server_public_file": "var/keys/server.public",
///   "server_secret_file": "var/keys/server.secret",
///   "client_secret_file": "var/keys/client.secret",
///   "allow_file": "var/keys/allowed_clients"
/// }
/// ```
/// `server_public` may give the server's key inline instead of `server_public_file`. Each role
/// reads only what it needs, when it starts: the proxy the server secret and the allow-list,
/// a client the server's public key and its own secret, so a host that runs no proxy needs no
/// server secret. Relative paths are resolved like ipc endpoints.
public struct CurveSettings: Sendable {
    public var serverPublic: String?
    public var serverPublicFile: String?
    public var serverSecretFile: String?
    public var clientSecretFile: String?
    public var allowFile: String?

    static let keys = ["server_public", "server_public_file", "server_secret_file", "client_secret_file", "allow_file"]

    /// Reads the section; `resolve` turns a relative path into one from the bus file's root.
    init(_ section: Value, file: String, resolve: (String) -> String) throws {
        guard let map = section.mapValue else {
            throw BusError(errno: 0, call: "parse bus config", context: "\(file): 'curve' is not an object")
        }
        for key in map.keys where !Self.keys.contains(key) {
            throw BusError(
                errno: 0, call: "parse bus config",
                context: "\(file): unknown key 'curve.\(key)' (known: \(Self.keys.joined(separator: ", ")))")
        }
        func text(_ key: String) throws -> String? {
            guard let value = map[key] else { return nil }
            guard let text = value.stringValue, !text.isEmpty else {
                throw BusError(errno: 0, call: "parse bus config", context: "\(file): 'curve.\(key)' is not a string")
            }
            return text
        }
        self.serverPublic = try text("server_public")
        if let key = self.serverPublic, !CurveKeyPair.isKey(key) {
            throw BusError(
                errno: 0, call: "parse bus config",
                context: "\(file): 'curve.server_public' is not a CURVE key (40 characters of Z85)")
        }
        self.serverPublicFile = try text("server_public_file").map(resolve)
        self.serverSecretFile = try text("server_secret_file").map(resolve)
        self.clientSecretFile = try text("client_secret_file").map(resolve)
        self.allowFile = try text("allow_file").map(resolve)
    }

    /// What a publisher or subscriber needs to join: the server's public key and its own pair.
    ///
    /// - Throws: ``BusError`` naming a setting that is missing or a key file that is missing or bad.
    public func clientKeys() throws -> CurveClientKeys {
        let serverPublic: String
        if let key = self.serverPublic {
            serverPublic = key
        } else if let path = self.serverPublicFile {
            serverPublic = try CurveKeyFiles.readKey(path, secret: false)
        } else {
            throw Self.missing("server_public or curve.server_public_file", role: "a client")
        }
        guard let path = self.clientSecretFile else { throw Self.missing("client_secret_file", role: "a client") }
        return CurveClientKeys(
            serverPublicKey: serverPublic,
            pair: try CurveKeyPair(secretKey: try CurveKeyFiles.readKey(path, secret: true)))
    }

    /// What the proxy needs: its own pair and the clients it lets in.
    ///
    /// - Throws: ``BusError`` naming a setting that is missing or a key file that is missing or bad.
    public func serverKeys() throws -> CurveServerKeys {
        guard let secretPath = self.serverSecretFile else {
            throw Self.missing("server_secret_file", role: "the proxy")
        }
        guard let allowPath = self.allowFile else { throw Self.missing("allow_file", role: "the proxy") }
        return CurveServerKeys(
            pair: try CurveKeyPair(secretKey: try CurveKeyFiles.readKey(secretPath, secret: true)),
            allowed: try CurveKeyFiles.readAllowList(allowPath))
    }

    private static func missing(_ key: String, role: String) -> BusError {
        BusError(
            errno: 0, call: "bus config", context: "CURVE is on but 'curve.\(key)' is not set, and \(role) needs it")
    }
}

/// A CURVE client's keys.
public struct CurveClientKeys: Sendable, Hashable {
    public var serverPublicKey: String
    public var pair: CurveKeyPair

    public init(serverPublicKey: String, pair: CurveKeyPair) {
        self.serverPublicKey = serverPublicKey
        self.pair = pair
    }
}

/// The CURVE server's keys and the client public keys it accepts.
public struct CurveServerKeys: Sendable, Hashable {
    public var pair: CurveKeyPair
    public var allowed: Set<String>

    public init(pair: CurveKeyPair, allowed: Set<String>) {
        self.pair = pair
        self.allowed = allowed
    }
}
