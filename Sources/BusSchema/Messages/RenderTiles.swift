/// What changed in a surface, for viewers that keep the frame (schema `render.tiles` v1), on
/// `render/tiles/<surface>/`.
///
/// A key frame (no `base`) is one tile, the whole frame. Every other message lists the
/// rectangles that changed since frame `base`, each encoded on its own, drawn in order over that
/// frame. Unlike ``RenderImage`` a message is no state: the proxy's last-value cache does not
/// keep this topic, and a viewer that missed `base` waits for the next key frame, which the
/// render worker sends to every new subscription. Decoding checks every field against the
/// schema's bounds (the tiles against the frame, their bytes in total) before allocating, so a
/// hostile message is a ``CodecError`` naming the field, never a huge allocation or a trap.
public struct RenderTiles: BusMessage, Hashable {
    public static let schema = SchemaID("render.tiles", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("surface", "string"), FieldSpec("width", "integer"), FieldSpec("height", "integer"),
        FieldSpec("scale", "number"), FieldSpec("frame", "integer"), FieldSpec("base", "integer", required: false),
        FieldSpec("tiles", "array"), FieldSpec("input", "object", required: false),
        FieldSpec("encode_ms", "number", required: false),
    ]

    /// The most tiles one message lists.
    public static let maximumTiles = RenderImage.maximumDamageCount

    /// A rectangle of the frame and its encoded pixels.
    public struct Tile: Sendable, Hashable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        public var encoding: RenderImage.Encoding
        /// The encoded pixels, `width` × `height`.
        public var data: [UInt8]

        public init(x: Int, y: Int, width: Int, height: Int, encoding: RenderImage.Encoding, data: [UInt8]) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.encoding = encoding
            self.data = data
        }
    }

    /// Surface name, the topic's last segment (`main`).
    public var surface: String
    /// Frame size in pixels.
    public var width: Int
    public var height: Int
    /// Pixels per scene point.
    public var scale: Double
    /// The render worker's frame number (the `render.frame` `frame_id` with the same pixels).
    public var frame: Int
    /// The frame the tiles change; nil for a key frame.
    public var base: Int?
    public var tiles: [Tile]
    public var input: TouchInput?
    /// Time spent encoding the tiles, in ms.
    public var encodeMs: Double?

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

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(
            6 + (self.base == nil ? 0 : 1) + (self.input == nil ? 0 : 1) + (self.encodeMs == nil ? 0 : 1))
        writer.writeKey("surface")
        writer.write(self.surface)
        writer.writeKey("width")
        writer.write(self.width)
        writer.writeKey("height")
        writer.write(self.height)
        writer.writeKey("scale")
        writer.writeNumber(self.scale)
        writer.writeKey("frame")
        writer.write(self.frame)
        if let base = self.base {
            writer.writeKey("base")
            writer.write(base)
        }
        if let input = self.input {
            writer.writeField("input", input)
        }
        if let encodeMs = self.encodeMs {
            writer.writeKey("encode_ms")
            writer.writeNumber(encodeMs)
        }
        // Last, so a reader that wants only the header fields stops before the bulk.
        writer.writeKey("tiles")
        writer.writeArrayHeader(self.tiles.count)
        for tile in self.tiles {
            writer.writeMapHeader(6)
            writer.writeKey("x")
            writer.write(tile.x)
            writer.writeKey("y")
            writer.write(tile.y)
            writer.writeKey("width")
            writer.write(tile.width)
            writer.writeKey("height")
            writer.write(tile.height)
            writer.write("encoding", tile.encoding)
            writer.writeKey("data")
            writer.writeBinary(tile.data)
        }
    }

    /// Decodes and checks a payload.
    ///
    /// - Throws: ``CodecError`` for malformed bytes, a missing required field, or any value
    ///   outside the schema's bounds (`invalid_value`, naming the field): a tile outside the
    ///   frame, a key frame that is not one whole-frame tile, more tile bytes in all than a frame.
    public init(from reader: inout MessagePackReader) throws {
        var surface: String?
        var width: Int?
        var height: Int?
        var scale: Double?
        var frame: Int?
        var base: Int?
        var tiles: [Tile]?
        var input: TouchInput?
        var encodeMs: Double?
        try reader.readMap { reader, key in
            switch key {
            case "surface": surface = try reader.readSurface()
            case "width": width = try reader.readBounded("width", 1...RenderImage.maximumSide)
            case "height": height = try reader.readBounded("height", 1...RenderImage.maximumSide)
            case "scale": scale = try reader.readScale()
            case "frame": frame = try reader.readBounded("frame", 1...RenderImage.maximumCounter)
            case "base": base = try reader.readBounded("base", 1...RenderImage.maximumCounter)
            case "tiles": tiles = try reader.readTiles()
            case "input": input = try TouchInput(from: &reader, path: "input")
            case "encode_ms": encodeMs = try reader.readDuration("encode_ms")
            default: try reader.skip()
            }
        }
        self.init(
            surface: try reader.require(surface, "surface"), width: try reader.require(width, "width"),
            height: try reader.require(height, "height"), scale: try reader.require(scale, "scale"),
            frame: try reader.require(frame, "frame"), base: base, tiles: try reader.require(tiles, "tiles"),
            input: input, encodeMs: encodeMs)
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
        guard count >= 1, count <= RenderTiles.maximumTiles else {
            throw CodecError(
                .invalidValue, offset: start, context: "tiles: \(count) tiles, 1...\(RenderTiles.maximumTiles)")
        }
        var tiles: [RenderTiles.Tile] = []
        tiles.reserveCapacity(count)
        var bytes = 0
        for index in 0..<count {
            var x: Int?
            var y: Int?
            var width: Int?
            var height: Int?
            var encoding: RenderImage.Encoding?
            var data: [UInt8]?
            let side = 1...RenderImage.maximumSide
            let origin = 0...(RenderImage.maximumSide - 1)
            let path = "tiles[\(index)]"
            try self.readMap { reader, key in
                switch key {
                case "x": x = try reader.readBounded("\(path).x", origin)
                case "y": y = try reader.readBounded("\(path).y", origin)
                case "width": width = try reader.readBounded("\(path).width", side)
                case "height": height = try reader.readBounded("\(path).height", side)
                case "encoding": encoding = try reader.readEnum(RenderImage.Encoding.self, field: "\(path).encoding")
                case "data":
                    let tileStart = reader.offset
                    let tileData = try reader.readImageData("\(path).data")
                    bytes += tileData.count
                    guard bytes <= RenderImage.maximumDataBytes else {
                        throw CodecError(
                            .invalidValue, offset: tileStart,
                            context: "\(path).data: more than \(RenderImage.maximumDataBytes) bytes in all tiles")
                    }
                    data = tileData
                default: try reader.skip()
                }
            }
            tiles.append(
                RenderTiles.Tile(
                    x: try self.require(x, "\(path).x"), y: try self.require(y, "\(path).y"),
                    width: try self.require(width, "\(path).width"), height: try self.require(height, "\(path).height"),
                    encoding: try self.require(encoding, "\(path).encoding"),
                    data: try self.require(data, "\(path).data")))
        }
        return tiles
    }
}
