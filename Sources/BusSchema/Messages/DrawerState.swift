/// An edge drawer menu's full state (schema `state.drawer` v1), on `ui/drawer/<instance>/`.
public struct DrawerState: ValueMessage, Hashable {
    public static let schema = SchemaID("state.drawer", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("instance", "string"), FieldSpec("t_ms", "number"), FieldSpec("open", "boolean"),
        FieldSpec("progress", "number"), FieldSpec("listening_direction", "string"),
        FieldSpec("edge", "string", required: false), FieldSpec("width", "number", required: false),
    ]

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

    public init(
        instance: String, tMs: Double, open: Bool, progress: Double, listeningDirection: Side, edge: Side? = nil,
        width: Double? = nil
    ) {
        self.instance = instance
        self.tMs = tMs
        self.open = open
        self.progress = progress
        self.listeningDirection = listeningDirection
        self.edge = edge
        self.width = width
    }

    public var payload: Value {
        var map: ValueMap = [
            "instance": .string(self.instance), "t_ms": .number(self.tMs), "open": .bool(self.open),
            "progress": .number(self.progress), "listening_direction": .string(self.listeningDirection.rawValue),
        ]
        if let edge = self.edge { map["edge"] = .string(edge.rawValue) }
        if let width = self.width { map["width"] = .number(width) }
        return .map(map)
    }

    public init(payload: Value) throws {
        let fields = try PayloadFields(payload)
        self.init(
            instance: try fields.string("instance"), tMs: try fields.number("t_ms"), open: try fields.bool("open"),
            progress: try fields.number("progress"),
            listeningDirection: try fields.enumValue("listening_direction", Side.self),
            edge: fields.has("edge") ? try fields.enumValue("edge", Side.self) : nil,
            width: try fields.optional("width", PayloadFields.number))
    }
}
