/// A ten-key number pad's full state (schema `state.numberPad` v1), on `ui/numberPad/<instance>/`.
public struct NumberPadState: ValueMessage, Hashable {
    public static let schema = SchemaID("state.numberPad", major: 1, minor: 1)
    public static let fields: [FieldSpec] = [
        FieldSpec("instance", "string"), FieldSpec("t_ms", "number"), FieldSpec("layout", "string"),
        FieldSpec("enabled", "array"), FieldSpec("highlighted", "integer|null"), FieldSpec("popup", "object|null"),
        FieldSpec("touched_string", "string"), FieldSpec("sequential_string", "string"),
        FieldSpec("input", "object", required: false),
    ]
    /// The touch frame whose effect this state shows, when a gesture changed it.
    public var input: TouchInput?

    /// Key order: 0…9, or the phone's 1…9, 0.
    public enum Layout: String, Sendable, Hashable, CaseIterable {
        case startWithZero, phone

        /// LKNumberPad's default (`startWithZero` NO): 1 on the left, 0 on the right, like the
        /// standard keyboard. The state machine and the drawing both start from it.
        public static let standard = Layout.phone

        /// The digits from the leftmost key to the rightmost.
        public var digits: [Int] { self == .startWithZero ? Array(0...9) : Array(1...9) + [0] }
    }

    /// Popup shape: the left-edge key, an inner key, the right-edge key.
    public enum PopupKind: String, Sendable, Hashable, CaseIterable {
        case left, inner, right
    }

    /// The key popup shown while a finger is down.
    public struct Popup: Sendable, Hashable {
        public var kind: PopupKind
        public var digit: Int

        public init(kind: PopupKind, digit: Int) {
            self.kind = kind
            self.digit = digit
        }
    }

    public var instance: String
    public var tMs: Double
    public var layout: Layout
    /// Enabled digits, in key order.
    public var enabled: [Int]
    public var highlighted: Int?
    public var popup: Popup?
    /// The digit emitted by the latest lift; empty before any.
    public var touchedString: String
    /// Digits tapped within the sequence window of each other, ending with the latest.
    public var sequentialString: String

    public init(
        instance: String, tMs: Double, layout: Layout, enabled: [Int], highlighted: Int?, popup: Popup?,
        touchedString: String, sequentialString: String
    ) {
        self.instance = instance
        self.tMs = tMs
        self.layout = layout
        self.enabled = enabled
        self.highlighted = highlighted
        self.popup = popup
        self.touchedString = touchedString
        self.sequentialString = sequentialString
    }

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader((self.input == nil ? 0 : 1) + 8)
        writer.writeField("instance", self.instance)
        writer.writeField("t_ms", number: self.tMs)
        writer.write("layout", self.layout)
        writer.write("enabled")
        writer.writeArrayHeader(self.enabled.count)
        for digit in self.enabled { writer.write(digit) }
        writer.writeField("highlighted", int: self.highlighted)
        writer.write("popup")
        if let popup = self.popup {
            writer.writeMapHeader(2)
            writer.write("kind", popup.kind)
            writer.writeField("digit", int: popup.digit)
        } else {
            writer.writeNil()
        }
        writer.writeField("touched_string", self.touchedString)
        writer.writeField("sequential_string", self.sequentialString)
        if let input = self.input { writer.writeField("input", input) }
    }

    public init(payload: Value) throws {
        let fields = try PayloadFields(payload)
        var enabled: [Int] = []
        for (index, digit) in try fields.array("enabled").enumerated() {
            guard let int = digit.intValue, (0...9).contains(int) else {
                throw CodecError(.invalidValue, offset: 0, context: "enabled[\(index)]")
            }
            enabled.append(Int(int))
        }
        let popup = try fields.optional("popup", PayloadFields.object).map {
            Popup(kind: try $0.enumValue("kind", PopupKind.self), digit: try $0.int("digit"))
        }
        self.init(
            instance: try fields.string("instance"), tMs: try fields.number("t_ms"),
            layout: try fields.enumValue("layout", Layout.self), enabled: enabled,
            highlighted: try fields.optional("highlighted", PayloadFields.int), popup: popup,
            touchedString: try fields.string("touched_string"), sequentialString: try fields.string("sequential_string")
        )
        self.input = try fields.optional("input", PayloadFields.object).map(TouchInput.init(fields:))
    }
}
