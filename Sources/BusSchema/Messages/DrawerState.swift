/// An edge drawer menu's full state (schema `state.drawer` v1), on `ui/drawer/<instance>/`.
public struct DrawerState: ValueMessage, Hashable {
    public static let schema = SchemaID("state.drawer", major: 1, minor: 3)
    public static let fields: [FieldSpec] = [
        FieldSpec("instance", "string"), FieldSpec("t_ms", "number"), FieldSpec("open", "boolean"),
        FieldSpec("progress", "number"), FieldSpec("listening_direction", "string"),
        FieldSpec("edge", "string", required: false), FieldSpec("width", "number", required: false),
        FieldSpec("tab", "number", required: false),
        FieldSpec("animation", "object", required: false),
        FieldSpec("input", "object", required: false),
    ]
    /// The touch frame whose effect this state shows, when a gesture changed it.
    public var input: TouchInput?

    /// A horizontal side: the swipe direction the drawer listens for, or the edge it is attached to.
    public enum Side: String, Sendable, Hashable, CaseIterable {
        case left, right
    }

    public var instance: String
    public var tMs: Double
    /// Open or opening.
    public var open: Bool
    /// 0 closed … 1 open.
    public var progress: Double
    public var listeningDirection: Side
    public var edge: Side?
    public var width: Double?
    /// Points of the closed menu left showing at its edge (since minor 3).
    public var tab: Double?
    /// Set on the state that starts a slide: `progress` is then its target.
    public var animation: StateAnimation?

    public init(
        instance: String, tMs: Double, open: Bool, progress: Double, listeningDirection: Side, edge: Side? = nil,
        width: Double? = nil, animation: StateAnimation? = nil
    ) {
        self.instance = instance
        self.tMs = tMs
        self.open = open
        self.progress = progress
        self.listeningDirection = listeningDirection
        self.edge = edge
        self.width = width
        self.animation = animation
    }

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(
            (self.input == nil ? 0 : 1) + 5 + (self.edge == nil ? 0 : 1) + (self.width == nil ? 0 : 1)
                + (self.tab == nil ? 0 : 1) + (self.animation == nil ? 0 : 1))
        writer.writeField("instance", self.instance)
        writer.writeField("t_ms", number: self.tMs)
        writer.writeField("open", bool: self.open)
        writer.writeField("progress", number: self.progress)
        writer.write("listening_direction", self.listeningDirection)
        if let edge = self.edge { writer.write("edge", edge) }
        if let width = self.width { writer.writeField("width", number: width) }
        if let tab = self.tab { writer.writeField("tab", number: tab) }
        if let animation = self.animation { writer.writeField("animation", animation) }
        if let input = self.input { writer.writeField("input", input) }
    }

    public init(payload: Value) throws {
        let fields = try PayloadFields(payload)
        self.init(
            instance: try fields.string("instance"), tMs: try fields.number("t_ms"), open: try fields.bool("open"),
            progress: try fields.number("progress"),
            listeningDirection: try fields.enumValue("listening_direction", Side.self),
            edge: fields.has("edge") ? try fields.enumValue("edge", Side.self) : nil,
            width: try fields.optional("width", PayloadFields.number),
            animation: fields.has("animation") ? try StateAnimation(fields: try fields.object("animation")) : nil)
        self.tab = try fields.optional("tab", PayloadFields.number)
        self.input = try fields.optional("input", PayloadFields.object).map(TouchInput.init(fields:))
    }
}
