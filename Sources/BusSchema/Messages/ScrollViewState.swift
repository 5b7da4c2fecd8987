/// A scroll view's full state (schema `state.scrollView` v1), on `ui/scrollView/<instance>/`.
public struct ScrollViewState: ValueMessage, Hashable {
    public static let schema = SchemaID("state.scrollView", major: 1, minor: 1)
    public static let fields: [FieldSpec] = [
        FieldSpec("instance", "string"), FieldSpec("t_ms", "number"), FieldSpec("offset", "object"),
        FieldSpec("content_size", "object"), FieldSpec("insets", "object"), FieldSpec("zoom_scale", "number"),
        FieldSpec("dragging", "boolean"), FieldSpec("decelerating", "boolean"), FieldSpec("zooming", "boolean"),
        FieldSpec("overlays_visible", "boolean"), FieldSpec("velocity", "object", required: false),
        FieldSpec("page", "integer", required: false),
        FieldSpec("input", "object", required: false),
    ]
    /// The touch frame whose effect this state shows, when a gesture changed it.
    public var input: TouchInput?

    /// Content insets in points.
    public struct Insets: Sendable, Hashable {
        public var top: Double
        public var left: Double
        public var bottom: Double
        public var right: Double

        public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
            self.top = top
            self.left = left
            self.bottom = bottom
            self.right = right
        }
    }

    public var instance: String
    public var tMs: Double
    public var offsetX: Double
    public var offsetY: Double
    public var contentWidth: Double
    public var contentHeight: Double
    public var insets: Insets
    public var zoomScale: Double
    public var dragging: Bool
    public var decelerating: Bool
    public var zooming: Bool
    public var overlaysVisible: Bool
    /// Points per second, while moving.
    public var velocity: GestureEvent.Vector?
    /// Current page when paging is on.
    public var page: Int?

    public init(
        instance: String, tMs: Double, offsetX: Double, offsetY: Double, contentWidth: Double, contentHeight: Double,
        insets: Insets, zoomScale: Double, dragging: Bool, decelerating: Bool, zooming: Bool, overlaysVisible: Bool,
        velocity: GestureEvent.Vector? = nil, page: Int? = nil
    ) {
        self.instance = instance
        self.tMs = tMs
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.contentWidth = contentWidth
        self.contentHeight = contentHeight
        self.insets = insets
        self.zoomScale = zoomScale
        self.dragging = dragging
        self.decelerating = decelerating
        self.zooming = zooming
        self.overlaysVisible = overlaysVisible
        self.velocity = velocity
        self.page = page
    }

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(
            (self.input == nil ? 0 : 1) + 10 + (self.velocity == nil ? 0 : 1) + (self.page == nil ? 0 : 1))
        writer.writeField("instance", self.instance)
        writer.writeField("t_ms", number: self.tMs)
        writer.writeField("offset", x: self.offsetX, y: self.offsetY)
        writer.write("content_size")
        writer.writeMapHeader(2)
        writer.writeField("width", number: self.contentWidth)
        writer.writeField("height", number: self.contentHeight)
        writer.write("insets")
        writer.writeMapHeader(4)
        writer.writeField("top", number: self.insets.top)
        writer.writeField("left", number: self.insets.left)
        writer.writeField("bottom", number: self.insets.bottom)
        writer.writeField("right", number: self.insets.right)
        writer.writeField("zoom_scale", number: self.zoomScale)
        writer.writeField("dragging", bool: self.dragging)
        writer.writeField("decelerating", bool: self.decelerating)
        writer.writeField("zooming", bool: self.zooming)
        writer.writeField("overlays_visible", bool: self.overlaysVisible)
        if let velocity = self.velocity { writer.writeField("velocity", x: velocity.x, y: velocity.y) }
        if let page = self.page { writer.writeField("page", int: page) }
        if let input = self.input { writer.writeField("input", input) }
    }

    public init(payload: Value) throws {
        let fields = try PayloadFields(payload)
        let offset = try fields.object("offset")
        let size = try fields.object("content_size")
        let insets = try fields.object("insets")
        self.init(
            instance: try fields.string("instance"), tMs: try fields.number("t_ms"), offsetX: try offset.number("x"),
            offsetY: try offset.number("y"), contentWidth: try size.number("width"),
            contentHeight: try size.number("height"),
            insets: Insets(
                top: try insets.number("top"), left: try insets.number("left"), bottom: try insets.number("bottom"),
                right: try insets.number("right")),
            zoomScale: try fields.number("zoom_scale"), dragging: try fields.bool("dragging"),
            decelerating: try fields.bool("decelerating"), zooming: try fields.bool("zooming"),
            overlaysVisible: try fields.bool("overlays_visible"),
            velocity: try fields.optional("velocity", PayloadFields.object).map {
                GestureEvent.Vector(x: try $0.number("x"), y: try $0.number("y"))
            }, page: try fields.optional("page", PayloadFields.int))
        self.input = try fields.optional("input", PayloadFields.object).map(TouchInput.init(fields:))
    }
}
