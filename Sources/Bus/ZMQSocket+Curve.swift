import CZeroMQ

extension ZMQSocket {
    /// Makes the socket a CURVE client of the server with `keys.serverPublicKey`; call it before
    /// ``connect(_:)``. The corresponding C function is `zmq_setsockopt` with
    /// `ZMQ_CURVE_SERVERKEY`, `ZMQ_CURVE_PUBLICKEY` and `ZMQ_CURVE_SECRETKEY`.
    public func makeCurveClient(_ keys: CurveClientKeys) throws {
        try self.setOption(ZMQ_CURVE_SERVERKEY, bytes: keys.serverPublicKey)
        try self.setOption(ZMQ_CURVE_PUBLICKEY, bytes: keys.pair.publicKey)
        try self.setOption(ZMQ_CURVE_SECRETKEY, bytes: keys.pair.secretKey)
    }

    /// Makes the socket a CURVE server that asks the ZAP handler about every client in `domain`;
    /// call it before ``bind(_:)``. The corresponding C function is `zmq_setsockopt` with
    /// `ZMQ_CURVE_SERVER`, `ZMQ_CURVE_SECRETKEY` and `ZMQ_ZAP_DOMAIN`.
    public func makeCurveServer(_ pair: CurveKeyPair, domain: String) throws {
        try self.setOption(ZMQ_CURVE_SERVER, 1)
        try self.setOption(ZMQ_CURVE_SECRETKEY, bytes: pair.secretKey)
        try self.setOption(ZMQ_ZAP_DOMAIN, bytes: domain)
    }
}
