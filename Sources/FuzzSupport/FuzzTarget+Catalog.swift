import BusSchema

extension FuzzTarget {
    /// Every decoder of the project that reads outside input, in the order runs report them.
    public static let all: [FuzzTarget] =
        [.envelope, .envelopeDecoder, .value]
        + MessageCatalog.all.map { Self.payload($0) }
        + [.json, .schema, .touchScript, .evemu, .evdev, .scene, .png, .memoCommand, .memoJSONLines]

    /// The target called `name`, if there is one.
    public static func named(_ name: String) -> FuzzTarget? {
        Self.all.first { $0.name == name }
    }
}
