/// A pull-to-refresh header's full state (schema `state.pullToRefresh` v1), on
/// `ui/pullToRefresh/<instance>/`.
public struct PullToRefreshState: ValueMessage, Hashable {
    public static let schema = SchemaID("state.pullToRefresh", major: 1, minor: 3)
    public static let fields: [FieldSpec] = [
        FieldSpec("instance", "string"), FieldSpec("t_ms", "number"), FieldSpec("phase", "string"),
        FieldSpec("offset", "number"), FieldSpec("threshold", "number"), FieldSpec("label", "string"),
        FieldSpec("arrow_angle", "number"), FieldSpec("offline", "boolean", required: false),
        FieldSpec("header_height", "number", required: false), FieldSpec("animation", "object", required: false),
        FieldSpec("input", "object", required: false), FieldSpec("arrow_animation", "object", required: false),
        FieldSpec("updated_at_ms", "number", required: false),
    ]
    /// The touch frame whose effect this state shows, when a gesture changed it.
    public var input: TouchInput?

    public enum Phase: String, Sendable, Hashable, CaseIterable {
        case hidden, pullingDown, overThreshold, refreshing
    }

    public var instance: String
    public var tMs: Double
    public var phase: Phase
    /// How far the content is pulled down; the header height while refreshing.
    public var offset: Double
    public var threshold: Double
    public var label: String
    /// 0 pointing down, π − ε up once over the threshold: where the arrow is turning to while
    /// it turns (a model value, as a UIView block animation sets it).
    public var arrowAngle: Double
    /// The last refresh failed fast because there is no connectivity.
    public var offline: Bool?
    public var headerHeight: Double?
    /// Set when the header snaps to `offset` (back to 0, or to the header height to refresh).
    public var animation: StateAnimation?
    /// Set on the state that starts the arrow's turn to `arrowAngle`: the renderer turns it from
    /// where it is on screen over this (since minor 3).
    public var arrowAnimation: StateAnimation?
    /// When the last refresh's data was updated, in wall-clock ms since the Unix epoch: the
    /// header's last-updated line (since minor 3).
    public var updatedAtMs: Double?

    public init(
        instance: String, tMs: Double, phase: Phase, offset: Double, threshold: Double, label: String,
        arrowAngle: Double, offline: Bool? = nil, headerHeight: Double? = nil, animation: StateAnimation? = nil,
        arrowAnimation: StateAnimation? = nil, updatedAtMs: Double? = nil
    ) {
        self.instance = instance
        self.tMs = tMs
        self.phase = phase
        self.offset = offset
        self.threshold = threshold
        self.label = label
        self.arrowAngle = arrowAngle
        self.offline = offline
        self.headerHeight = headerHeight
        self.animation = animation
        self.arrowAnimation = arrowAnimation
        self.updatedAtMs = updatedAtMs
    }

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(
            (self.input == nil ? 0 : 1) + 7 + (self.offline == nil ? 0 : 1) + (self.headerHeight == nil ? 0 : 1)
                + (self.animation == nil ? 0 : 1) + (self.arrowAnimation == nil ? 0 : 1)
                + (self.updatedAtMs == nil ? 0 : 1))
        writer.writeField("instance", self.instance)
        writer.writeField("t_ms", number: self.tMs)
        writer.write("phase", self.phase)
        writer.writeField("offset", number: self.offset)
        writer.writeField("threshold", number: self.threshold)
        writer.writeField("label", self.label)
        writer.writeField("arrow_angle", number: self.arrowAngle)
        if let offline = self.offline { writer.writeField("offline", bool: offline) }
        if let headerHeight = self.headerHeight { writer.writeField("header_height", number: headerHeight) }
        if let animation = self.animation { writer.writeField("animation", animation) }
        if let input = self.input { writer.writeField("input", input) }
        if let arrowAnimation = self.arrowAnimation { writer.writeField("arrow_animation", arrowAnimation) }
        if let updatedAtMs = self.updatedAtMs { writer.writeField("updated_at_ms", number: updatedAtMs) }
    }

    public init(payload: Value) throws {
        let fields = try PayloadFields(payload)
        self.init(
            instance: try fields.string("instance"), tMs: try fields.number("t_ms"),
            phase: try fields.enumValue("phase", Phase.self), offset: try fields.number("offset"),
            threshold: try fields.number("threshold"), label: try fields.string("label"),
            arrowAngle: try fields.number("arrow_angle"), offline: try fields.optional("offline", PayloadFields.bool),
            headerHeight: try fields.optional("header_height", PayloadFields.number),
            animation: fields.has("animation") ? try StateAnimation(fields: try fields.object("animation")) : nil,
            arrowAnimation: fields.has("arrow_animation")
                ? try StateAnimation(fields: try fields.object("arrow_animation")) : nil,
            updatedAtMs: try fields.optional("updated_at_ms", PayloadFields.number))
        self.input = try fields.optional("input", PayloadFields.object).map(TouchInput.init(fields:))
    }
}
