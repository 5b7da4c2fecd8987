/// Why a scene (schema `scene` v2) is refused: the file, the JSON path of the value and the rule
/// it breaks, in one message.
///
/// Every service and offline tool that takes a scene refuses an invalid one with this error and
/// exit status 65 (sysexits' EX_DATAERR).
public struct SceneError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule a value breaks: a JSON Schema keyword where the schema states it, else a scene rule.
    public struct Rule: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { self.rawValue }

        /// The text is not JSON.
        public static let json = Rule(rawValue: "json")
        /// A value of the wrong JSON type.
        public static let type = Rule(rawValue: "type")
        /// A required property is absent.
        public static let required = Rule(rawValue: "required")
        /// A property the schema does not declare here (a misspelling would be silently ignored).
        public static let additionalProperties = Rule(rawValue: "additionalProperties")
        /// A number below its minimum (`minimum`), or not above it (`exclusiveMinimum`).
        public static let minimum = Rule(rawValue: "minimum")
        public static let exclusiveMinimum = Rule(rawValue: "exclusiveMinimum")
        /// A number above its maximum.
        public static let maximum = Rule(rawValue: "maximum")
        /// A string outside its allowed set.
        public static let `enum` = Rule(rawValue: "enum")
        /// A string that does not match its pattern (colours), or an empty one.
        public static let pattern = Rule(rawValue: "pattern")
        public static let minLength = Rule(rawValue: "minLength")
        /// An array with a repeated item.
        public static let uniqueItems = Rule(rawValue: "uniqueItems")
        /// Past what any screen needs (``SceneBounds``): a side, a count or a magnitude.
        public static let bounds = Rule(rawValue: "bounds")
        /// A view id, component id or recognizer name used twice.
        public static let uniqueID = Rule(rawValue: "unique-id")
        /// A reference (parent, relationship, target, scroll view, overlay, zoom view) naming nothing.
        public static let reference = Rule(rawValue: "reference")
        /// A view whose frame leaves the screen.
        public static let insideScreen = Rule(rawValue: "inside-screen")
        /// Two settings that contradict each other (a maximum below its minimum).
        public static let consistent = Rule(rawValue: "consistent")
    }

    /// The file (or bus topic) the scene came from.
    public var file: String
    /// The JSON path of the value, e.g. `$.views[3].frame.width`.
    public var path: String
    public var rule: Rule
    /// What is wrong, in words.
    public var message: String

    public init(file: String = "scene", path: String, rule: Rule, _ message: String) {
        self.file = file
        self.path = path
        self.rule = rule
        self.message = message
    }

    public var description: String { "\(self.file): \(self.path): \(self.message) (rule: \(self.rule))" }
}
