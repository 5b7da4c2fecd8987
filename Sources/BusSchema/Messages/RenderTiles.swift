/// What changed in a surface, for viewers that keep the frame (schema `render.tiles` v1), on
/// `render/tiles/<surface>/`.
///
/// A key frame (no `base`) is one tile, the whole frame. Every other message lists the
/// rectangles that changed since frame `base`, each encoded on its own, drawn in order over that
/// frame. A message with no tiles (minor 1) is a frame that changed no pixel since `base` but
/// reflects newer `input`: a viewer's pixels already show that input. Unlike ``RenderImage`` a message is no state: the proxy's last-value cache does not
/// keep this topic, and a viewer that missed `base` waits for the next key frame, which the
/// render worker sends to every new subscription. Decoding checks every field against the
/// schema's bounds (the tiles against the frame, their bytes in total) before allocating, so a
/// hostile message is a ``CodecError`` naming the field, never a huge allocation or a trap.
public struct RenderTiles: BusMessage, MessagePackMap, MapFields, Hashable {
    public static let schema = SchemaID("render.tiles", major: 1, minor: 1)
    public static let fields: [FieldSpec] = [
        FieldSpec("surface", "string"), FieldSpec("width", "integer"), FieldSpec("height", "integer"),
        FieldSpec("scale", "number"), FieldSpec("frame", "integer"), FieldSpec("base", "integer", required: false),
        FieldSpec("tiles", "array"), FieldSpec("input", "object", required: false),
        FieldSpec("encode_ms", "number", required: false),
    ]

    /// The most tiles one message lists.
    public static let maximumTiles = RenderImage.maximumDamageCount

    /// A rectangle of the frame and its encoded pixels.
    public struct Tile: MessagePackMap, MapFields, Hashable {
        public var x = 0
        public var y = 0
        public var width = 0
        public var height = 0
        public var encoding = RenderImage.Encoding.jpeg
        /// The encoded pixels, `width` × `height`.
        public var data: [UInt8] = []

        public init() {}

        public init(x: Int, y: Int, width: Int, height: Int, encoding: RenderImage.Encoding, data: [UInt8]) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.encoding = encoding
            self.data = data
        }

        public mutating func visitFields<V: MapFieldVisitor & ~Copyable>(_ visitor: inout V) throws(V.Failure) {
            try RenderImage.Rect.visit(&visitor, &self.x, &self.y, &self.width, &self.height)
            try visitor.field("encoding", &self.encoding, .any)
            visitor.write("data", Binary(self.data))
            try visitor.readField("data", required: true) { reader, name in
                self.data = try reader.readImageData(name.description)
            }
        }
    }

    /// Surface name, the topic's last segment (`main`).
    public var surface = ""
    /// Frame size in pixels.
    public var width = 0
    public var height = 0
    /// Pixels per scene point.
    public var scale = 0.0
    /// The render worker's frame number (the `render.frame` `frame_id` with the same pixels).
    public var frame = 0
    /// The frame the tiles change; nil for a key frame.
    public var base: Int?
    public var tiles: [Tile] = []
    public var input: TouchInput?
    /// Time spent encoding the tiles, in ms.
    public var encodeMs: Double?

    public init() {}

    public init(
        surface: String, width: Int, height: Int, scale: Double, frame: Int, base: Int?, tiles: [Tile],
        input: TouchInput? = nil, encodeMs: Double? = nil
    ) {
        self.surface = surface
        self.width = width
        self.height = height
        self.scale = scale
        self.frame = frame
        self.base = base
        self.tiles = tiles
        self.input = input
        self.encodeMs = encodeMs
    }

    /// Whether this is a key frame: its one tile is the whole frame.
    public var isKeyFrame: Bool { self.base == nil }

    /// `render/tiles/<surface>/`.
    public static func topic(surface: String) throws -> Topic { try Topic(segments: "render", "tiles", surface) }

    public mutating func visitFields<V: MapFieldVisitor & ~Copyable>(_ visitor: inout V) throws(V.Failure) {
        try visitor.surface(&self.surface, width: &self.width, height: &self.height, scale: &self.scale)
        try visitor.field("frame", &self.frame, RenderImage.counters)
        try visitor.optional("base", &self.base, RenderImage.counters)
        try visitor.optional("input", &self.input, .any)
        try visitor.optional("encode_ms", &self.encodeMs, .atLeast(0))
        // Last, so a reader that wants only the header fields stops before the bulk.
        visitor.write("tiles", self.tiles)
        try visitor.readField("tiles", required: true) { reader, _ in self.tiles = try reader.readTiles() }
    }

    /// Decodes and checks a payload.
    ///
    /// - Throws: ``CodecError`` for malformed bytes, a missing required field, or any value
    ///   outside the schema's bounds (`invalid_value`, naming the field): a tile outside the
    ///   frame, a key frame that is not one whole-frame tile, more tile bytes in all than a frame.
    public init(from reader: inout MessagePackReader, path: String) throws {
        self.init()
        try reader.readFields(into: &self, path: path)
        // Tiles are checked against the frame once both are known (keys come in any order).
        let problem: String? =
            if self.isKeyFrame,
                self.tiles.count != 1 || self.tiles[0].width != self.width || self.tiles[0].height != self.height
            {
                "tiles: a key frame (no base) is one tile of the whole \(self.width)×\(self.height) frame"
            } else if let index = self.tiles.firstIndex(where: {
                $0.x + $0.width > self.width || $0.y + $0.height > self.height
            }) {
                "tiles[\(index)]: \(self.tiles[index].width)×\(self.tiles[index].height) at "
                    + "(\(self.tiles[index].x), \(self.tiles[index].y)) outside the \(self.width)×\(self.height) frame"
            } else {
                nil
            }
        if let problem { throw CodecError(.invalidValue, offset: reader.offset, context: problem) }
    }
}

extension MessagePackReader {
    fileprivate mutating func readTiles() throws -> [RenderTiles.Tile] {
        let start = self.offset
        let count = try self.readArrayHeader()
        guard count <= RenderTiles.maximumTiles else {
            throw CodecError(
                .invalidValue, offset: start, context: "tiles: \(count) tiles, 0...\(RenderTiles.maximumTiles)")
        }
        var tiles: [RenderTiles.Tile] = []
        tiles.reserveCapacity(count)
        var bytes = 0
        for index in 0..<count {
            let tileStart = self.offset
            let tile = try RenderTiles.Tile(from: &self, path: "tiles[\(index)]")
            bytes += tile.data.count
            guard bytes <= RenderImage.maximumDataBytes else {
                throw CodecError(
                    .invalidValue, offset: tileStart,
                    context: "tiles[\(index)].data: more than \(RenderImage.maximumDataBytes) bytes in all tiles")
            }
            tiles.append(tile)
        }
        return tiles
    }
}
