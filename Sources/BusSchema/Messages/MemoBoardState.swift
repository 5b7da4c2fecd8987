/// A memo board's full state (schema `state.memoBoard` v1), on `ui/memoBoard/<instance>/`.
///
/// Between full states the board publishes only what changed (``MemoBoardDelta``); `revision`
/// says which deltas apply on top of this state.
public struct MemoBoardState: ComponentStateMessage, Buildable, Hashable {
    public static let schema = SchemaID("state.memoBoard", major: 1, minor: 2)
    public static let fields: [FieldSpec] = [
        FieldSpec("instance", "string"), FieldSpec("t_ms", "number"), FieldSpec("memos", "array"),
        FieldSpec("selected", "string|null"), FieldSpec("arrange_order", "string"),
        FieldSpec("background", "string|null"), FieldSpec("editing", "string|null", required: false),
        FieldSpec("trash", "array", required: false), FieldSpec("search", "object|null", required: false),
        FieldSpec("store_seq", "integer", required: false), FieldSpec("pending_commands", "integer", required: false),
        FieldSpec("syncing", "boolean", required: false), FieldSpec("revision", "integer", required: false),
        FieldSpec("input", "object", required: false), FieldSpec("animation", "object", required: false),
    ]
    /// The instance, time and input every component state carries (forwarded as `instance`, `tMs`,
    /// `input`).
    public var common = ComponentStateCommon()
    /// How the render worker animates what this state changed: the editor opening (since minor 2).
    public var animation: StateAnimation?

    /// The palette, in the order arrange-by-colour follows.
    public enum Color: String, Sendable, Hashable, CaseIterable, MessagePackEnum {
        case yellow, orange, pink, purple, blue, green, gray, white
    }

    /// A memo as the board shows it.
    public struct Memo: Sendable, Hashable {
        public var id: String
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
        public var scale: Double
        public var rotation: Double
        public var z: Int
        public var color: Color
        public var minimized: Bool
        public var text: String
        public var version: Int?
        /// A local change to it is not acknowledged yet.
        public var pending: Bool?

        public init(
            id: String, x: Double, y: Double, width: Double, height: Double, scale: Double = 1, rotation: Double = 0,
            z: Int = 0, color: Color = .yellow, minimized: Bool = false, text: String = "", version: Int? = nil,
            pending: Bool? = nil
        ) {
            self.id = id
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.scale = scale
            self.rotation = rotation
            self.z = z
            self.color = color
            self.minimized = minimized
            self.text = text
            self.version = version
            self.pending = pending
        }
    }

    /// One search match: highlight ranges `[start, end)` in Unicode scalar offsets.
    public struct Match: Sendable, Hashable {
        public var memoID: String
        public var trashed: Bool
        public var ranges: [Range<Int>]

        public init(memoID: String, trashed: Bool, ranges: [Range<Int>]) {
            self.memoID = memoID
            self.trashed = trashed
            self.ranges = ranges
        }
    }

    /// The current search.
    public struct Search: Sendable, Hashable {
        public var query: String
        public var matches: [Match]

        public init(query: String, matches: [Match]) {
            self.query = query
            self.matches = matches
        }
    }

    public var memos: [Memo] = []
    public var selected: String?
    public var arrangeOrder = MemoArrangeOrder.created
    public var background: String?
    /// The memo open in the editor (`.some(nil)`: none; `nil`: the field is left out).
    public var editing: String??
    public var trash: [Memo]?
    /// The current search (`.some(nil)`: none; `nil`: the field is left out).
    public var search: Search??
    public var storeSeq: Int?
    public var pendingCommands: Int?
    public var syncing: Bool?
    /// The board's revision: the ``MemoBoardDelta`` with this `base_revision` applies next.
    public var revision: Int?

    public init() {}

    public func encode(to writer: inout MessagePackWriter) {
        let optionals = [
            self.editing != nil, self.trash != nil, self.search != nil, self.storeSeq != nil,
            self.pendingCommands != nil, self.syncing != nil, self.revision != nil,
        ].filter { $0 }.count
        writer.writeMapHeader((self.input == nil ? 0 : 1) + (self.animation == nil ? 0 : 1) + 6 + optionals)
        writer.writeField("instance", self.instance)
        writer.writeField("t_ms", number: self.tMs)
        writer.write("memos")
        Self.write(self.memos, to: &writer)
        writer.writeField("selected", self.selected)
        writer.write("arrange_order", self.arrangeOrder)
        writer.writeField("background", self.background)
        if let editing = self.editing { writer.writeField("editing", editing) }
        if let trash = self.trash {
            writer.write("trash")
            Self.write(trash, to: &writer)
        }
        if let search = self.search {
            writer.write("search")
            if let search { Self.write(search, to: &writer) } else { writer.writeNil() }
        }
        if let storeSeq = self.storeSeq { writer.writeField("store_seq", int: storeSeq) }
        if let pendingCommands = self.pendingCommands { writer.writeField("pending_commands", int: pendingCommands) }
        if let syncing = self.syncing { writer.writeField("syncing", bool: syncing) }
        if let revision = self.revision { writer.writeField("revision", int: revision) }
        if let input = self.input { writer.writeField("input", input) }
        if let animation = self.animation { writer.writeField("animation", animation) }
    }

    static func write(_ memos: [Memo], to writer: inout MessagePackWriter) {
        writer.writeArrayHeader(memos.count)
        for memo in memos {
            writer.writeMapHeader(11 + (memo.version == nil ? 0 : 1) + (memo.pending == nil ? 0 : 1))
            writer.writeField("id", memo.id)
            writer.writeField("x", number: memo.x)
            writer.writeField("y", number: memo.y)
            writer.writeField("width", number: memo.width)
            writer.writeField("height", number: memo.height)
            writer.writeField("scale", number: memo.scale)
            writer.writeField("rotation", number: memo.rotation)
            writer.writeField("z", int: memo.z)
            writer.write("color", memo.color)
            writer.writeField("minimized", bool: memo.minimized)
            writer.writeField("text", memo.text)
            if let version = memo.version { writer.writeField("version", int: version) }
            if let pending = memo.pending { writer.writeField("pending", bool: pending) }
        }
    }

    static func write(_ search: Search, to writer: inout MessagePackWriter) {
        writer.writeMapHeader(2)
        writer.writeField("query", search.query)
        writer.write("matches")
        writer.writeArrayHeader(search.matches.count)
        for match in search.matches {
            writer.writeMapHeader(3)
            writer.writeField("memo_id", match.memoID)
            writer.writeField("trashed", bool: match.trashed)
            writer.write("ranges", match.ranges)
        }
    }

    public init(payload: Value) throws {
        let fields = try PayloadFields(payload)
        let memos = try fields.array("memos").enumerated().map { try Self.memo($1, path: "memos[\($0)]") }
        let trash = try fields.optional("trash", PayloadFields.array)?.enumerated().map {
            try Self.memo($1, path: "trash[\($0)]")
        }
        var search: Search?? = nil
        if fields.value["search"] != nil {
            search = .some(try fields.optional("search", PayloadFields.object).map(Self.search))
        }
        self.init()
        self.instance = try fields.string("instance")
        self.tMs = try fields.number("t_ms")
        self.memos = memos
        self.selected = try fields.optional("selected", PayloadFields.string)
        self.arrangeOrder = try fields.enumValue("arrange_order", MemoArrangeOrder.self)
        self.background = try fields.optional("background", PayloadFields.string)
        self.editing =
            fields.value["editing"] == nil ? nil : .some(try fields.optional("editing", PayloadFields.string))
        self.trash = trash
        self.search = search
        self.storeSeq = try fields.optional("store_seq", PayloadFields.int)
        self.pendingCommands = try fields.optional("pending_commands", PayloadFields.int)
        self.syncing = try fields.optional("syncing", PayloadFields.bool)
        self.revision = try fields.optional("revision", PayloadFields.int)
        self.input = try fields.optional("input", PayloadFields.object).map(TouchInput.init(fields:))
        self.animation = try fields.optional("animation", PayloadFields.object).map(StateAnimation.init(fields:))
    }

    static func memo(_ value: Value, path: String) throws -> Memo {
        let fields = try PayloadFields(value, path: path)
        return Memo(
            id: try fields.string("id"), x: try fields.number("x"), y: try fields.number("y"),
            width: try fields.number("width"), height: try fields.number("height"), scale: try fields.number("scale"),
            rotation: try fields.number("rotation"), z: try fields.int("z"),
            color: try fields.enumValue("color", Color.self), minimized: try fields.bool("minimized"),
            text: try fields.string("text"), version: try fields.optional("version", PayloadFields.int),
            pending: try fields.optional("pending", PayloadFields.bool))
    }

    static func search(_ fields: PayloadFields) throws -> Search {
        var matches: [Match] = []
        for (index, value) in try fields.array("matches").enumerated() {
            let match = try PayloadFields(value, path: "search.matches[\(index)]")
            var ranges: [Range<Int>] = []
            for range in try match.array("ranges") {
                guard let pair = range.arrayValue, pair.count == 2, let start = pair[0].intValue,
                    let end = pair[1].intValue, start <= end
                else { throw CodecError(.invalidValue, offset: 0, context: "search.matches[\(index)].ranges") }
                ranges.append(Int(start)..<Int(end))
            }
            matches.append(
                Match(memoID: try match.string("memo_id"), trashed: try match.bool("trashed"), ranges: ranges))
        }
        return Search(query: try fields.string("query"), matches: matches)
    }
}
