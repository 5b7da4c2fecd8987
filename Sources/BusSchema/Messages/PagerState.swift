/// A SmartNews-style pager's full state (schema `state.pager` v1), on `ui/pager/<instance>/`.
public struct PagerState: ValueMessage, Hashable {
    public static let schema = SchemaID("state.pager", major: 1, minor: 3)
    public static let fields: [FieldSpec] = [
        FieldSpec("instance", "string"), FieldSpec("t_ms", "number"), FieldSpec("page", "integer"),
        FieldSpec("page_count", "integer"), FieldSpec("header_offset", "number"), FieldSpec("progress", "number"),
        FieldSpec("label", "string"), FieldSpec("loading", "boolean"),
        FieldSpec("page_offset", "number", required: false), FieldSpec("pull_offset", "number", required: false),
        FieldSpec("scroll_offset", "number", required: false), FieldSpec("animation", "object", required: false),
        FieldSpec("input", "object", required: false), FieldSpec("progress_opacity", "number", required: false),
    ]
    /// The touch frame whose effect this state shows, when a gesture changed it.
    public var input: TouchInput?

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
    /// Set when the page offset or the header snaps (after a release, a swipe or a page request):
    /// `page_offset` and `scroll_offset` are then the targets.
    public var animation: StateAnimation?
    /// The progress bar's opacity, set (to 0) while a finished load's full bar fades out; absent: 1
    /// (since minor 3).
    public var progressOpacity: Double?

    public init(
        instance: String, tMs: Double, page: Int, pageCount: Int, headerOffset: Double, progress: Double,
        label: String, loading: Bool, pageOffset: Double? = nil, pullOffset: Double? = nil,
        scrollOffset: Double? = nil, animation: StateAnimation? = nil, progressOpacity: Double? = nil
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
        self.animation = animation
        self.progressOpacity = progressOpacity
    }

    public func encode(to writer: inout MessagePackWriter) {
        let optionals = [self.pageOffset, self.pullOffset, self.scrollOffset, self.progressOpacity].filter {
            $0 != nil
        }.count
        writer.writeMapHeader((self.input == nil ? 0 : 1) + 8 + optionals + (self.animation == nil ? 0 : 1))
        writer.writeField("instance", self.instance)
        writer.writeField("t_ms", number: self.tMs)
        writer.writeField("page", int: self.page)
        writer.writeField("page_count", int: self.pageCount)
        writer.writeField("header_offset", number: self.headerOffset)
        writer.writeField("progress", number: self.progress)
        writer.writeField("label", self.label)
        writer.writeField("loading", bool: self.loading)
        if let pageOffset = self.pageOffset { writer.writeField("page_offset", number: pageOffset) }
        if let pullOffset = self.pullOffset { writer.writeField("pull_offset", number: pullOffset) }
        if let scrollOffset = self.scrollOffset { writer.writeField("scroll_offset", number: scrollOffset) }
        if let animation = self.animation { writer.writeField("animation", animation) }
        if let progressOpacity = self.progressOpacity { writer.writeField("progress_opacity", number: progressOpacity) }
        if let input = self.input { writer.writeField("input", input) }
    }

    public init(payload: Value) throws {
        let fields = try PayloadFields(payload)
        self.init(
            instance: try fields.string("instance"), tMs: try fields.number("t_ms"), page: try fields.int("page"),
            pageCount: try fields.int("page_count"), headerOffset: try fields.number("header_offset"),
            progress: try fields.number("progress"), label: try fields.string("label"),
            loading: try fields.bool("loading"), pageOffset: try fields.optional("page_offset", PayloadFields.number),
            pullOffset: try fields.optional("pull_offset", PayloadFields.number),
            scrollOffset: try fields.optional("scroll_offset", PayloadFields.number),
            animation: fields.has("animation") ? try StateAnimation(fields: try fields.object("animation")) : nil,
            progressOpacity: try fields.optional("progress_opacity", PayloadFields.number))
        self.input = try fields.optional("input", PayloadFields.object).map(TouchInput.init(fields:))
    }
}
