/// Why a scene (schema `scene` v2) is refused: the file, the JSON path of the value and the rule
/// it breaks, in one message.
///
/// Every service and offline tool that takes a scene refuses an invalid one with this error and
/// exit status 65 (sysexits' EX_DATAERR).
public struct SceneError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule a value breaks: a JSON Schema keyword where the schema states it, else a scene rule.
    public typealias Rule = ErrorCode<SceneError>

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

extension ErrorCode where Domain == SceneError {
    /// The text is not JSON.
    public static var json: Self { Self(rawValue: "json") }
    /// A value of the wrong JSON type.
    public static var type: Self { Self(rawValue: "type") }
    /// A required property is absent.
    public static var required: Self { Self(rawValue: "required") }
    /// A property the schema does not declare here (a misspelling would be silently ignored).
    public static var additionalProperties: Self { Self(rawValue: "additionalProperties") }
    /// A number below its minimum (`minimum`), or not above it (`exclusiveMinimum`).
    public static var minimum: Self { Self(rawValue: "minimum") }
    public static var exclusiveMinimum: Self { Self(rawValue: "exclusiveMinimum") }
    /// A number above its maximum.
    public static var maximum: Self { Self(rawValue: "maximum") }
    /// A string outside its allowed set.
    public static var `enum`: Self { Self(rawValue: "enum") }
    /// A string that does not match its pattern (colours), or an empty one.
    public static var pattern: Self { Self(rawValue: "pattern") }
    public static var minLength: Self { Self(rawValue: "minLength") }
    /// An array with a repeated item.
    public static var uniqueItems: Self { Self(rawValue: "uniqueItems") }
    /// Past what any screen needs (``SceneBounds``): a side, a count or a magnitude.
    public static var bounds: Self { Self(rawValue: "bounds") }
    /// A view id, component id or recognizer name used twice.
    public static var uniqueID: Self { Self(rawValue: "unique-id") }
    /// A reference (parent, relationship, target, scroll view, overlay, zoom view) naming nothing.
    public static var reference: Self { Self(rawValue: "reference") }
    /// A view whose frame leaves the screen.
    public static var insideScreen: Self { Self(rawValue: "inside-screen") }
    /// Two settings that contradict each other (a maximum below its minimum).
    public static var consistent: Self { Self(rawValue: "consistent") }
}
