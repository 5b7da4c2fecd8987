/// The code of one kind of error: a string naming the kind of problem, in an open set that can
/// grow without breaking callers (the `struct Code: RawRepresentable` of `Errno` and GRDB's
/// `ResultCode`), written once for every error type.
///
/// `Domain` is the error type the code belongs to. An error declares
/// `typealias Code = ErrorCode<Self>` and the codes only it uses in an extension; the codes that
/// every reader of outside input reports (``malformed``, ``missingField``, ``invalidValue``) are
/// declared once, below, for all:
///
/// ```swift
/// extension ErrorCode where Domain == CodecError {
///     /// The input ended in the middle of a value.
///     public static var truncated: Self { Self(rawValue: "truncated") }
/// }
/// ```
public struct ErrorCode<Domain>: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The raw value, as logs and messages show the code.
    public var description: String { self.rawValue }
}

extension ErrorCode {
    /// The input is not in the format at all (not JSON, an unknown line prefix).
    public static var malformed: Self { Self(rawValue: "malformed") }
    /// A required field is absent.
    public static var missingField: Self { Self(rawValue: "missing_field") }
    /// A field holds a value outside its allowed set or range.
    public static var invalidValue: Self { Self(rawValue: "invalid_value") }
}
