/// A line of input that was skipped, and why: parsers report these and carry on.
public struct InputProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it was; new codes can be added without breaking callers.
    public struct Code: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The line is not in the format at all (bad JSON, an unknown evemu prefix).
        public static let malformed = Code(rawValue: "malformed")
        /// A required field is absent.
        public static let missingField = Code(rawValue: "missing_field")
        /// A field holds a value outside its allowed set (an unknown phase, a bad hex number).
        public static let invalidValue = Code(rawValue: "invalid_value")
        /// A coordinate is not finite or lies outside the scene.
        public static let outOfRange = Code(rawValue: "out_of_range")
        /// The line's time is earlier than the line before it.
        public static let timeWentBackwards = Code(rawValue: "time_went_backwards")
        /// A touch moved or ended without having begun, or began twice.
        public static let unknownTouch = Code(rawValue: "unknown_touch")
    }

    public var code: Code
    /// The 1-based line number in the input.
    public var line: Int
    /// What was wrong, naming the field or value.
    public var context: String

    public init(_ code: Code, line: Int, _ context: String) {
        self.code = code
        self.line = line
        self.context = context
    }

    public var description: String { "line \(self.line): \(self.code.rawValue): \(self.context)" }
}
