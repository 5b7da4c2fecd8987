import BusSchema

/// A message from a page over the WebSocket (JSON text), checked once here.
///
/// - `{"type":"pointer","t":MS,"contacts":[{"id":N,"phase":"began","x":X,"y":Y,"tool":"finger"}]}`:
///   contacts in scene points at the page's `performance.now()` time `t` in ms.
/// - `{"type":"visibility","visible":BOOL}`: the page was hidden or shown.
/// - `{"type":"command","instance":ID,"command":NAME,"args":{...}}`: a component command
///   (`edit`, `search`, `close_editor` of the memo board, …) for `cmd/ui/<instance>/`.
///
/// Anything else (not JSON, an unknown type, a missing or out-of-range field) is a
/// ``PageMessageError``; the service closes the page's connection with its description.
public enum PageMessage: Equatable, Sendable {
    case pointer(tMs: Double, contacts: [TouchContact])
    case visibility(visible: Bool)
    case command(ComponentCommand)

    /// The longest message a page may send, in bytes (a memo's text fits with room to spare).
    public static let maximumBytes = 16 * 1024
    /// The largest coordinate, in scene points either way (a drag may leave the scene).
    public static let maximumCoordinate = 100_000.0
    /// The latest page time, in ms (about 31 years of `performance.now()`).
    public static let maximumTimeMs = 1e12

    /// Parses one message.
    ///
    /// - Throws: ``PageMessageError`` naming what was wrong.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws -> PageMessage {
        guard bytes.count <= Self.maximumBytes else {
            throw PageMessageError(.oversized, "\(bytes.count) bytes, at most \(Self.maximumBytes)")
        }
        let value: Value
        do {
            value = try JSONReader.parse(bytes)
        } catch {
            throw PageMessageError(.malformed, "\(error)")
        }
        guard case .map(let fields) = value else { throw PageMessageError(.malformed, "not a JSON object") }
        guard let type = fields["type"]?.stringValue else { throw PageMessageError(.malformed, "no type") }
        switch type {
        case "pointer": return try Self.pointer(fields)
        case "visibility":
            guard let visible = fields["visible"]?.boolValue else { throw PageMessageError(.malformed, "visible") }
            return .visibility(visible: visible)
        case "command": return .command(try Self.command(fields))
        default: throw PageMessageError(.unknown, "type '\(type.prefix(40))'")
        }
    }

    private static func pointer(_ fields: ValueMap) throws -> PageMessage {
        guard let t = fields["t"]?.doubleValue, t.isFinite, t >= 0, t <= Self.maximumTimeMs else {
            throw PageMessageError(.malformed, "t")
        }
        guard let list = fields["contacts"]?.arrayValue, !list.isEmpty, list.count <= TouchCoalescer.maximumContacts
        else { throw PageMessageError(.malformed, "contacts: 1 to \(TouchCoalescer.maximumContacts) needed") }
        let contacts = try list.enumerated().map { index, item in
            guard case .map(let contact) = item else { throw PageMessageError(.malformed, "contacts[\(index)]") }
            return try Self.contact(contact, index: index)
        }
        return .pointer(tMs: t, contacts: contacts)
    }

    private static func contact(_ fields: ValueMap, index: Int) throws -> TouchContact {
        func number(_ name: String, limit: Double) throws -> Double {
            guard let value = fields[name]?.doubleValue, value.isFinite, abs(value) <= limit else {
                throw PageMessageError(.malformed, "contacts[\(index)].\(name)")
            }
            return value
        }
        let id = try number("id", limit: Double(Int32.max))
        guard id >= 0, id == id.rounded() else { throw PageMessageError(.malformed, "contacts[\(index)].id") }
        guard let phaseName = fields["phase"]?.stringValue, let phase = TouchContact.Phase(rawValue: phaseName),
            phase != .stationary
        else { throw PageMessageError(.malformed, "contacts[\(index)].phase") }
        var tool = TouchContact.Tool.finger
        if let name = fields["tool"] {
            guard let text = name.stringValue, let named = TouchContact.Tool(rawValue: text) else {
                throw PageMessageError(.malformed, "contacts[\(index)].tool")
            }
            tool = named
        }
        return try TouchContact {
            $0.id = Int(id)
            $0.phase = phase
            $0.x = try number("x", limit: Self.maximumCoordinate)
            $0.y = try number("y", limit: Self.maximumCoordinate)
            $0.tool = tool
        }
    }

    private static func command(_ fields: ValueMap) throws -> ComponentCommand {
        guard let instance = fields["instance"]?.stringValue, Self.isName(instance, allowing: "-") else {
            throw PageMessageError(.malformed, "instance")
        }
        guard let command = fields["command"]?.stringValue, Self.isName(command, allowing: ""),
            command.first?.isLowercase == true
        else { throw PageMessageError(.malformed, "command") }
        var args: ValueMap?
        if let given = fields["args"] {
            guard case .map(let map) = given else { throw PageMessageError(.malformed, "args") }
            for (key, value) in map {
                switch value {
                case .string, .int, .bool: continue
                case .double(let number) where number.isFinite: continue
                default: throw PageMessageError(.malformed, "args.\(key.prefix(40))")
                }
            }
            args = map
        }
        return ComponentCommand {
            $0.instance = instance
            $0.command = command
            $0.args = args
        }
    }

    /// 1 to 64 ASCII letters, digits, `_` and `extra`.
    private static func isName(_ text: String, allowing extra: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "_"
                    || extra.unicodeScalars.contains($0)
            }
    }
}

/// Why a page's message was refused: the connection is closed with this as the reason.
public struct PageMessageError: Error, Equatable, CustomStringConvertible {
    /// What kind of problem it was; new codes can be added without breaking callers.
    public typealias Code = ErrorCode<PageMessageError>

    public var code: Code
    public var context: String

    public init(_ code: Code, _ context: String) {
        self.code = code
        self.context = context
    }

    /// `"<code>: <context>"`, short enough for a WebSocket close reason (123 bytes).
    public var description: String {
        String(decoding: Array("\(self.code.rawValue): \(self.context)".utf8.prefix(120)), as: UTF8.self)
    }
}

extension ErrorCode where Domain == PageMessageError {
    /// Longer than ``PageMessage/maximumBytes``.
    public static var oversized: Self { Self(rawValue: "oversized") }
    /// A `type` the service does not know.
    public static var unknown: Self { Self(rawValue: "unknown") }
    /// Touches the service refused (see ``TouchCoalescer``).
    public static var touches: Self { Self(rawValue: "touches") }
    /// A binary message (pages send text only).
    public static var binary: Self { Self(rawValue: "binary") }
}
