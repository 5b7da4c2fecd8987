import BusSchema

/// A line of input that was skipped, and why: parsers report these and carry on.
public struct InputProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it was; new codes can be added without breaking callers.
    public typealias Code = ErrorCode<InputProblem>

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

extension ErrorCode where Domain == InputProblem {
    /// A coordinate is not finite or lies outside the scene.
    public static var outOfRange: Self { Self(rawValue: "out_of_range") }
    /// The line's time is earlier than the line before it.
    public static var timeWentBackwards: Self { Self(rawValue: "time_went_backwards") }
    /// A touch moved or ended without having begun, or began twice.
    public static var unknownTouch: Self { Self(rawValue: "unknown_touch") }
}
