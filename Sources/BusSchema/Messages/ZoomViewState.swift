/// A zoomable image's full state (schema `state.zoomView` v1), on `ui/zoomView/<instance>/`.
public struct ZoomViewState: ValueMessage, Hashable {
    public static let schema = SchemaID("state.zoomView", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("instance", "string"), FieldSpec("t_ms", "number"), FieldSpec("scale", "number"),
        FieldSpec("min_scale", "number"), FieldSpec("max_scale", "number"), FieldSpec("offset", "object"),
        FieldSpec("overlay_visible", "boolean"), FieldSpec("zooming", "boolean", required: false),
        FieldSpec("image", "string", required: false),
    ]

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

    public init(
        instance: String, tMs: Double, scale: Double, minScale: Double, maxScale: Double, offsetX: Double,
        offsetY: Double, overlayVisible: Bool, zooming: Bool? = nil, image: String? = nil
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
    }

    public var payload: Value {
        var map: ValueMap = [
            "instance": .string(self.instance), "t_ms": .number(self.tMs), "scale": .number(self.scale),
            "min_scale": .number(self.minScale), "max_scale": .number(self.maxScale),
            "offset": .point(self.offsetX, self.offsetY), "overlay_visible": .bool(self.overlayVisible),
        ]
        if let zooming = self.zooming { map["zooming"] = .bool(zooming) }
        if let image = self.image { map["image"] = .string(image) }
        return .map(map)
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
            image: try fields.optional("image", PayloadFields.string))
    }
}
