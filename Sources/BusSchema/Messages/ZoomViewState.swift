/// A zoomable image's full state (schema `state.zoomView` v1), on `ui/zoomView/<instance>/`.
public struct ZoomViewState: ValueMessage, Hashable {
    public static let schema = SchemaID("state.zoomView", major: 1, minor: 2)
    public static let fields: [FieldSpec] = [
        FieldSpec("instance", "string"), FieldSpec("t_ms", "number"), FieldSpec("scale", "number"),
        FieldSpec("min_scale", "number"), FieldSpec("max_scale", "number"), FieldSpec("offset", "object"),
        FieldSpec("overlay_visible", "boolean"), FieldSpec("zooming", "boolean", required: false),
        FieldSpec("image", "string", required: false), FieldSpec("animation", "object", required: false),
        FieldSpec("input", "object", required: false),
    ]
    /// The touch frame whose effect this state shows, when a gesture changed it.
    public var input: TouchInput?

    public var instance: String
    public var tMs: Double
    public var scale: Double
    public var minScale: Double
    public var maxScale: Double
    public var offsetX: Double
    public var offsetY: Double
    public var overlayVisible: Bool
    public var zooming: Bool?
    public var image: String?
    /// Set when the zoom snaps (a double tap, a reset, a pinch released past its limits):
    /// `scale` and `offset` are then the targets.
    public var animation: StateAnimation?

    public init(
        instance: String, tMs: Double, scale: Double, minScale: Double, maxScale: Double, offsetX: Double,
        offsetY: Double, overlayVisible: Bool, zooming: Bool? = nil, image: String? = nil,
        animation: StateAnimation? = nil
    ) {
        self.instance = instance
        self.tMs = tMs
        self.scale = scale
        self.minScale = minScale
        self.maxScale = maxScale
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.overlayVisible = overlayVisible
        self.zooming = zooming
        self.image = image
        self.animation = animation
    }

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(
            (self.input == nil ? 0 : 1) + 7 + (self.zooming == nil ? 0 : 1) + (self.image == nil ? 0 : 1)
                + (self.animation == nil ? 0 : 1))
        writer.writeField("instance", self.instance)
        writer.writeField("t_ms", number: self.tMs)
        writer.writeField("scale", number: self.scale)
        writer.writeField("min_scale", number: self.minScale)
        writer.writeField("max_scale", number: self.maxScale)
        writer.writeField("offset", x: self.offsetX, y: self.offsetY)
        writer.writeField("overlay_visible", bool: self.overlayVisible)
        if let zooming = self.zooming { writer.writeField("zooming", bool: zooming) }
        if let image = self.image { writer.writeField("image", image) }
        if let animation = self.animation { writer.writeField("animation", animation) }
        if let input = self.input { writer.writeField("input", input) }
    }

    public init(payload: Value) throws {
        let fields = try PayloadFields(payload)
        let offset = try fields.object("offset")
        self.init(
            instance: try fields.string("instance"), tMs: try fields.number("t_ms"), scale: try fields.number("scale"),
            minScale: try fields.number("min_scale"), maxScale: try fields.number("max_scale"),
            offsetX: try offset.number("x"), offsetY: try offset.number("y"),
            overlayVisible: try fields.bool("overlay_visible"),
            zooming: try fields.optional("zooming", PayloadFields.bool),
            image: try fields.optional("image", PayloadFields.string),
            animation: fields.has("animation") ? try StateAnimation(fields: try fields.object("animation")) : nil)
        self.input = try fields.optional("input", PayloadFields.object).map(TouchInput.init(fields:))
    }
}
