/// Why a scene file could not be loaded, naming the field.
public struct SceneError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The text is not JSON.
        public static let invalidJSON = Code(rawValue: "invalid_json")
        /// A required field is absent.
        public static let missingField = Code(rawValue: "missing_field")
        /// A field has the wrong type or a value outside its allowed set or range.
        public static let invalidValue = Code(rawValue: "invalid_value")
        /// A name or id is used twice, or a reference names nothing.
        public static let badReference = Code(rawValue: "bad_reference")
    }

    public var code: Code
    /// The field path, e.g. `views[2].recognizers[0].settings.slop`.
    public var field: String
    public var message: String

    public init(_ code: Code, field: String, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    public var description: String { "\(self.code.rawValue) at \(self.field): \(self.message)" }
}
