/// A SmartNews-style pager's full state (schema `state.pager` v1), on `ui/pager/<instance>/`.
public struct PagerState: ValueMessage, Hashable {
    public static let schema = SchemaID("state.pager", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("instance", "string"), FieldSpec("t_ms", "number"), FieldSpec("page", "integer"),
        FieldSpec("page_count", "integer"), FieldSpec("header_offset", "number"), FieldSpec("progress", "number"),
        FieldSpec("label", "string"), FieldSpec("loading", "boolean"),
        FieldSpec("page_offset", "number", required: false), FieldSpec("pull_offset", "number", required: false),
        FieldSpec("scroll_offset", "number", required: false),
    ]

    public var instance: String
    public var tMs: Double
    public var page: Int
    public var pageCount: Int
    /// How far the nav bar and menu have moved up (0 = fully shown).
    public var headerOffset: Double
    /// Load progress in percent.
    public var progress: Double
    public var label: String
    public var loading: Bool
    /// Horizontal position in pages, fractional while swiping.
    public var pageOffset: Double?
    /// How far past the top the current page is pulled.
    public var pullOffset: Double?
    /// Vertical content offset of the current page.
    public var scrollOffset: Double?

    public init(
        instance: String, tMs: Double, page: Int, pageCount: Int, headerOffset: Double, progress: Double,
        label: String, loading: Bool, pageOffset: Double? = nil, pullOffset: Double? = nil,
        scrollOffset: Double? = nil
    ) {
        self.instance = instance
        self.tMs = tMs
        self.page = page
        self.pageCount = pageCount
        self.headerOffset = headerOffset
        self.progress = progress
        self.label = label
        self.loading = loading
        self.pageOffset = pageOffset
        self.pullOffset = pullOffset
        self.scrollOffset = scrollOffset
    }

    public var payload: Value {
        var map: ValueMap = [
            "instance": .string(self.instance), "t_ms": .number(self.tMs), "page": .int(Int64(self.page)),
            "page_count": .int(Int64(self.pageCount)), "header_offset": .number(self.headerOffset),
            "progress": .number(self.progress), "label": .string(self.label), "loading": .bool(self.loading),
        ]
        if let pageOffset = self.pageOffset { map["page_offset"] = .number(pageOffset) }
        if let pullOffset = self.pullOffset { map["pull_offset"] = .number(pullOffset) }
        if let scrollOffset = self.scrollOffset { map["scroll_offset"] = .number(scrollOffset) }
        return .map(map)
    }

    public init(payload: Value) throws {
        let fields = try PayloadFields(payload)
        self.init(
            instance: try fields.string("instance"), tMs: try fields.number("t_ms"), page: try fields.int("page"),
            pageCount: try fields.int("page_count"), headerOffset: try fields.number("header_offset"),
            progress: try fields.number("progress"), label: try fields.string("label"),
            loading: try fields.bool("loading"), pageOffset: try fields.optional("page_offset", PayloadFields.number),
            pullOffset: try fields.optional("pull_offset", PayloadFields.number),
            scrollOffset: try fields.optional("scroll_offset", PayloadFields.number))
    }
}
