/// Why a frame, document or payload could not be decoded, and where.
public struct CodecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it was; new codes can be added without breaking callers.
    public struct Code: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The input ended in the middle of a value.
        public static let truncated = Code(rawValue: "truncated")
        /// A byte that starts no valid value (MessagePack) or token (JSON).
        public static let invalidByte = Code(rawValue: "invalid_byte")
        /// A string was not valid UTF-8.
        public static let invalidUTF8 = Code(rawValue: "invalid_utf8")
        /// A value had another type than the schema asks for.
        public static let typeMismatch = Code(rawValue: "type_mismatch")
        /// A required field was absent.
        public static let missingField = Code(rawValue: "missing_field")
        /// A field held a value outside its allowed set or range.
        public static let invalidValue = Code(rawValue: "invalid_value")
        /// Bytes were left after the complete value.
        public static let trailingBytes = Code(rawValue: "trailing_bytes")
        /// Nesting went deeper than the decoder allows.
        public static let tooDeep = Code(rawValue: "too_deep")
        /// A map key was not a string.
        public static let nonStringKey = Code(rawValue: "non_string_key")
    }

    public var code: Code
    /// The byte offset in the input where the problem was found.
    public var offset: Int
    /// The field path (`contacts[1].x`) or a short description of the context.
    public var context: String

    public init(_ code: Code, offset: Int, context: String = "") {
        self.code = code
        self.offset = offset
        self.context = context
    }

    public var description: String {
        let place = self.context.isEmpty ? "" : " in \(self.context)"
        return "\(self.code.rawValue)\(place) at byte \(self.offset)"
    }
}
