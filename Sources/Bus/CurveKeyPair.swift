import CZeroMQ

/// A ZeroMQ CURVE key pair (Curve25519), each key as 40 characters of Z85 text.
///
/// The proxy is the CURVE server of the bus; every publisher and subscriber is a client that
/// knows the server's public key. Keys are kept in Z85 because that is what libzmq's socket
/// options, `zmq_curve_keypair` and other languages' bindings (pyzmq, czmq) all take.
public struct CurveKeyPair: Sendable, Hashable {
    /// Characters in a Z85-encoded 32-byte key.
    public static let textLength = 40

    public var publicKey: String
    public var secretKey: String

    /// Whether this libzmq was built with CURVE. The corresponding C function is `zmq_has`.
    public static var isAvailable: Bool { zmq_has("curve") != 0 }

    /// Makes a new random pair. The corresponding C function is `zmq_curve_keypair`.
    ///
    /// - Throws: ``BusError`` (ENOTSUP) if libzmq has no CURVE.
    public static func generate() throws -> CurveKeyPair {
        var publicText = [CChar](repeating: 0, count: Self.textLength + 1)
        var secretText = [CChar](repeating: 0, count: Self.textLength + 1)
        guard zmq_curve_keypair(&publicText, &secretText) == 0 else {
            throw BusError.last("zmq_curve_keypair", "libzmq without CURVE?")
        }
        return CurveKeyPair(publicKey: Self.string(publicText), secretKey: Self.string(secretText))
    }

    /// The pair of `secretKey`, its public half derived from it. The corresponding C function is
    /// `zmq_curve_public`.
    ///
    /// - Throws: ``BusError`` if `secretKey` is not a Z85 key.
    public init(secretKey: String) throws {
        guard Self.isKey(secretKey) else {
            throw BusError(errno: 0, call: "curve key", context: "not 40 characters of Z85")
        }
        var publicText = [CChar](repeating: 0, count: Self.textLength + 1)
        guard zmq_curve_public(&publicText, secretKey) == 0 else {
            throw BusError.last("zmq_curve_public")
        }
        self.init(publicKey: Self.string(publicText), secretKey: secretKey)
    }

    public init(publicKey: String, secretKey: String) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// Whether `text` is a Z85 key: 40 characters that decode to 32 bytes.
    /// The corresponding C function is `zmq_z85_decode`.
    public static func isKey(_ text: String) -> Bool {
        guard text.utf8.count == Self.textLength else { return false }
        var bytes = [UInt8](repeating: 0, count: 32)
        return zmq_z85_decode(&bytes, text) != nil
    }

    /// The Z85 text of a 32-byte binary key (as a ZAP request carries it), nil for another size.
    /// The corresponding C function is `zmq_z85_encode`.
    public static func text(ofBinaryKey key: UnsafeRawBufferPointer) -> String? {
        guard key.count == 32, let base = key.baseAddress else { return nil }
        var text = [CChar](repeating: 0, count: Self.textLength + 1)
        guard zmq_z85_encode(&text, base.assumingMemoryBound(to: UInt8.self), 32) != nil else { return nil }
        return Self.string(text)
    }

    private static func string(_ text: [CChar]) -> String {
        String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
