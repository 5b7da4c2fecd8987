/// A slide-cell table's full state (schema `state.slideTable` v1), on `ui/slideTable/<instance>/`.
public struct SlideTableState: ValueMessage, Hashable {
    public static let schema = SchemaID("state.slideTable", major: 1, minor: 4)
    public static let fields: [FieldSpec] = [
        FieldSpec("instance", "string"), FieldSpec("t_ms", "number"), FieldSpec("rows", "integer"),
        FieldSpec("open_row", "integer|null"), FieldSpec("offsets", "array"),
        FieldSpec("scroll_offset", "number", required: false),
        FieldSpec("animating_row", "integer|null", required: false),
        FieldSpec("animation", "object", required: false),
        FieldSpec("closing_row", "integer", required: false),
        FieldSpec("close_animation", "object", required: false),
        FieldSpec("input", "object", required: false), FieldSpec("highlighted_row", "integer", required: false),
        FieldSpec("selected_row", "integer", required: false),
    ]
    /// The touch frame whose effect this state shows, when a gesture changed it.
    public var input: TouchInput?

    public var instance: String
    public var tMs: Double
    public var rows: Int
    /// Model index of the open row.
    public var openRow: Int?
    /// Front-view offset of each row (0 closed, the row width open).
    public var offsets: [Double]
    public var scrollOffset: Double?
    /// Row whose slide animation is running (`.some(nil)`: none; `nil`: the field is left out).
    public var animatingRow: Int??
    /// Set on the state that starts a slide: `offsets` then holds the rows' targets.
    public var animation: StateAnimation?
    /// On a state that opens one row while another closes: the closing row, which slides over
    /// `closeAnimation` rather than `animation` (since minor 3).
    public var closingRow: Int?
    public var closeAnimation: StateAnimation?
    /// The row under a finger that has not lifted yet, drawn light grey (since minor 4).
    public var highlightedRow: Int?
    /// The row a tap selected, drawn with the grey gradient (since minor 4).
    public var selectedRow: Int?

    public init(
        instance: String, tMs: Double, rows: Int, openRow: Int?, offsets: [Double], scrollOffset: Double? = nil,
        animatingRow: Int?? = nil, animation: StateAnimation? = nil, closingRow: Int? = nil,
        closeAnimation: StateAnimation? = nil, highlightedRow: Int? = nil, selectedRow: Int? = nil
    ) {
        self.instance = instance
        self.tMs = tMs
        self.rows = rows
        self.openRow = openRow
        self.offsets = offsets
        self.scrollOffset = scrollOffset
        self.animatingRow = animatingRow
        self.animation = animation
        self.closingRow = closingRow
        self.closeAnimation = closeAnimation
        self.highlightedRow = highlightedRow
        self.selectedRow = selectedRow
    }

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(
            (self.input == nil ? 0 : 1) + 5 + (self.scrollOffset == nil ? 0 : 1) + (self.animatingRow == nil ? 0 : 1)
                + (self.animation == nil ? 0 : 1) + (self.closingRow == nil ? 0 : 1)
                + (self.closeAnimation == nil ? 0 : 1) + (self.highlightedRow == nil ? 0 : 1)
                + (self.selectedRow == nil ? 0 : 1))
        writer.writeField("instance", self.instance)
        writer.writeField("t_ms", number: self.tMs)
        writer.writeField("rows", int: self.rows)
        writer.writeField("open_row", int: self.openRow)
        writer.writeKey("offsets")
        writer.writeNumbers(self.offsets)
        if let scrollOffset = self.scrollOffset { writer.writeField("scroll_offset", number: scrollOffset) }
        if let animatingRow = self.animatingRow { writer.writeField("animating_row", int: animatingRow) }
        if let animation = self.animation { writer.writeField("animation", animation) }
        if let closingRow = self.closingRow { writer.writeField("closing_row", int: closingRow) }
        if let closeAnimation = self.closeAnimation { writer.writeField("close_animation", closeAnimation) }
        if let input = self.input { writer.writeField("input", input) }
        if let highlightedRow = self.highlightedRow { writer.writeField("highlighted_row", int: highlightedRow) }
        if let selectedRow = self.selectedRow { writer.writeField("selected_row", int: selectedRow) }
    }

    public init(payload: Value) throws {
        let fields = try PayloadFields(payload)
        var offsets: [Double] = []
        for (index, offset) in try fields.array("offsets").enumerated() {
            guard let number = offset.doubleValue else {
                throw CodecError(.typeMismatch, offset: 0, context: "offsets[\(index)]: expected a number")
            }
            offsets.append(number)
        }
        self.init(
            instance: try fields.string("instance"), tMs: try fields.number("t_ms"), rows: try fields.int("rows"),
            openRow: try fields.optional("open_row", PayloadFields.int), offsets: offsets,
            scrollOffset: try fields.optional("scroll_offset", PayloadFields.number),
            animatingRow: fields.value["animating_row"] == nil
                ? nil : .some(try fields.optional("animating_row", PayloadFields.int)),
            animation: fields.has("animation") ? try StateAnimation(fields: try fields.object("animation")) : nil,
            closingRow: try fields.optional("closing_row", PayloadFields.int),
            closeAnimation: fields.has("close_animation")
                ? try StateAnimation(fields: try fields.object("close_animation")) : nil,
            highlightedRow: try fields.optional("highlighted_row", PayloadFields.int),
            selectedRow: try fields.optional("selected_row", PayloadFields.int))
        self.input = try fields.optional("input", PayloadFields.object).map(TouchInput.init(fields:))
    }
}
