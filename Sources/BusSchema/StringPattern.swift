/// A schema `pattern` the generated decoders check, written out as code: a regular expression
/// per decoded string would cost more than the rest of the decode.
///
/// The generator (`uibus-codegen`) looks each schema pattern up in ``all`` by its text and stops
/// on one it does not know, so a new pattern gets its matcher here first; a test holds every
/// matcher to the regular expression it stands for.
public struct StringPattern: Sendable, CustomStringConvertible {
    /// The name the generated code uses (`.topicSegment`).
    public let name: String
    /// The schema's regular expression.
    public let pattern: String
    private let test: @Sendable (Substring.UnicodeScalarView) -> Bool

    init(_ name: String, _ pattern: String, _ test: @escaping @Sendable (Substring.UnicodeScalarView) -> Bool) {
        self.name = name
        self.pattern = pattern
        self.test = test
    }

    /// Whether `string` matches the whole pattern.
    public func matches(_ string: String) -> Bool { self.test(Substring(string).unicodeScalars) }

    public var description: String { "/\(self.pattern)/" }

    /// Every pattern the schemas use.
    public static let all: [StringPattern] = [topicSegment, clientName, commandName, hexColor, hexDigest]

    /// A topic segment of 1…128 characters: no `/`, no control character, no space.
    public static let topicSegment = StringPattern("topicSegment", #"^[^/\u0000-\u0020\u007f]{1,128}$"#) {
        (1...128).contains($0.count) && $0.allSatisfy(isSegmentScalar)
    }

    /// A client name as `memo.command` v1 published it: a topic segment of 1…64 characters.
    public static let clientName = StringPattern("clientName", #"^[^/\u0000-\u0020\u007f]{1,64}$"#) {
        (1...64).contains($0.count) && $0.allSatisfy(isSegmentScalar)
    }

    /// A snake_case command name.
    public static let commandName = StringPattern("commandName", "^[a-z][a-z0-9_]*$") {
        guard let first = $0.first, isLower(first) else { return false }
        return $0.dropFirst().allSatisfy { isLower($0) || isDigit($0) || $0 == "_" }
    }

    /// `#RRGGBB` or `#RRGGBBAA`.
    public static let hexColor = StringPattern("hexColor", "^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$") {
        ($0.count == 7 || $0.count == 9) && $0.first == "#" && $0.dropFirst().allSatisfy(isHexDigit)
    }

    /// A lower-case hex digest of 8…128 digits.
    public static let hexDigest = StringPattern("hexDigest", "^[0-9a-f]{8,128}$") {
        (8...128).contains($0.count) && $0.allSatisfy { isDigit($0) || ("a"..."f").contains($0) }
    }
}

private func isSegmentScalar(_ scalar: Unicode.Scalar) -> Bool {
    scalar != "/" && scalar.value > 0x20 && scalar.value != 0x7f
}

private func isLower(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) }

private func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

private func isHexDigit(_ scalar: Unicode.Scalar) -> Bool {
    isDigit(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
}
