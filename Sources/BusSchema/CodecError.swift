/// Why a frame, document or payload could not be decoded, and where.
public struct CodecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it was; new codes can be added without breaking callers.
    public typealias Code = ErrorCode<CodecError>

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

extension ErrorCode where Domain == CodecError {
    /// The input ended in the middle of a value.
    public static var truncated: Self { Self(rawValue: "truncated") }
    /// A byte that starts no valid value (MessagePack) or token (JSON).
    public static var invalidByte: Self { Self(rawValue: "invalid_byte") }
    /// A string was not valid UTF-8.
    public static var invalidUTF8: Self { Self(rawValue: "invalid_utf8") }
    /// A value had another type than the schema asks for.
    public static var typeMismatch: Self { Self(rawValue: "type_mismatch") }
    /// Bytes were left after the complete value.
    public static var trailingBytes: Self { Self(rawValue: "trailing_bytes") }
    /// Nesting went deeper than the decoder allows.
    public static var tooDeep: Self { Self(rawValue: "too_deep") }
    /// A map key was not a string.
    public static var nonStringKey: Self { Self(rawValue: "non_string_key") }
}
