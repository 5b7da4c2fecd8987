/// A bus topic: UTF-8 segments separated by `/`, always ending in `/`.
///
/// The trailing slash makes prefix subscriptions exact: `touch/d1/` never matches `touch/d10/`.
public struct Topic: Sendable, Hashable, CustomStringConvertible {
    /// The longest topic accepted, in UTF-8 bytes.
    public static let maximumLength = 255

    public let rawValue: String

    /// Validates `rawValue` as a topic.
    ///
    /// - Throws: ``CodecError/Code/invalidValue`` naming the rule that was broken.
    public init(_ rawValue: String) throws {
        if let problem = Self.problem(in: rawValue) {
            throw CodecError(.invalidValue, offset: 0, context: "topic '\(rawValue)': \(problem)")
        }
        self.rawValue = rawValue
    }

    /// Builds a topic from segments, each of which must be non-empty and contain no `/`.
    public init(segments: String...) throws {
        try self.init(segments.map { $0 + "/" }.joined())
    }

    public var description: String { self.rawValue }

    public var segments: [Substring] { self.rawValue.split(separator: "/") }

    /// Why `text` is not a valid topic, or nil if it is.
    public static func problem(in text: String) -> String? {
        var text = text
        return text.withUTF8 { Self.problem(inUTF8: UnsafeRawBufferPointer($0)) }
    }

    /// Why these UTF-8 bytes are not a valid topic, or nil if they are: one pass, no String.
    public static func problem(inUTF8 bytes: UnsafeRawBufferPointer) -> String? {
        let slash = UInt8(ascii: "/")
        guard let last = bytes.last else { return "empty" }
        if bytes.count > Self.maximumLength { return "longer than \(Self.maximumLength) bytes" }
        if last != slash { return "must end with '/'" }
        if bytes[0] == slash { return "must not start with '/'" }
        var previous: UInt8 = 0
        for byte in bytes {
            if byte < 0x21 || byte == 0x7f { return "space or control character" }
            if byte == slash && previous == slash { return "empty segment" }
            previous = byte
        }
        return nil
    }

    /// Why `name` cannot be one topic segment of at most `maximumLength` bytes (empty, too
    /// long, a `/`, a space or a control character), or nil if it can.
    public static func segmentProblem(_ name: String, maximumLength: Int) -> String? {
        if name.isEmpty { return "empty" }
        if name.utf8.count > maximumLength { return "longer than \(maximumLength) bytes" }
        if name.utf8.contains(UInt8(ascii: "/")) { return "contains '/'" }
        return Self.problem(in: name + "/")
    }
}

extension Topic {
    /// `sys/health/<service>/`.
    public static func health(_ service: String) throws -> Topic { try Topic(segments: "sys", "health", service) }
    /// `sys/lifecycle/<service>/`.
    public static func lifecycle(_ service: String) throws -> Topic { try Topic(segments: "sys", "lifecycle", service) }
    /// `touch/<device>/`.
    public static func touch(_ device: String) throws -> Topic { try Topic(segments: "touch", device) }
}
