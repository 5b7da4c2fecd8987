import BusSchema

extension FuzzTarget {
    /// Every decoder of the project that reads outside input, and every state machine fed what
    /// they decode, in the order runs report them.
    public static let all: [FuzzTarget] = {
        var targets: [FuzzTarget] = [.envelope, .envelopeDecoder, .value]
        targets += MessageCatalog.all.map { Self.payload($0) }
        targets += [
            .fastPath(
                TouchFrame.self, reference: { try TouchFrame(from: &$0, path: "") },
                encodeReference: { $0.encodeReference(to: &$1) }),
            .fastPath(
                GestureEvent.self, reference: { try GestureEvent(from: &$0, path: "") },
                encodeReference: { $0.encode(to: &$1) }),
        ]
        targets += [.json, .schema, .touchScript, .evemu, .evdev, .scene, .png, .memoCommand, .memoJSONLines]
        targets += Self.components
        targets += [.gestures, .lanes]
        return targets
    }()

    /// The target called `name`, if there is one.
    public static func named(_ name: String) -> FuzzTarget? {
        Self.all.first { $0.name == name }
    }
}
