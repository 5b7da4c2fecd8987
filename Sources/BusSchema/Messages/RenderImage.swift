/// One encoded frame of a surface for viewers (schema `render.image` v1), on
/// `render/image/<surface>/`.
///
/// `data` always decodes to the whole frame, so a viewer that skips frames loses nothing;
/// `damage` says what changed since the previous image. Decoding checks every field against the
/// schema's bounds (and the rectangles against the frame) before allocating anything, so a hostile
/// message is a ``CodecError`` naming the field, never a huge allocation or a trap.
public struct RenderImage: BusMessage, Hashable {
    public static let schema = SchemaID("render.image", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("surface", "string"), FieldSpec("width", "integer"), FieldSpec("height", "integer"),
        FieldSpec("scale", "number"), FieldSpec("encoding", "string"), FieldSpec("data", "array"),
        FieldSpec("damage", "array"), FieldSpec("frame", "integer"), FieldSpec("input", "object", required: false),
        FieldSpec("encode_ms", "number", required: false),
    ]

    /// The largest frame side, in pixels.
    public static let maximumSide = 8192
    /// The largest encoded image, in bytes.
    public static let maximumDataBytes = 32 << 20
    /// The most damage rectangles one image lists.
    public static let maximumDamageCount = 64
    /// The largest scale (pixels per point).
    public static let maximumScale = 16.0
    /// The longest surface name, in bytes.
    public static let maximumSurfaceLength = 64
    /// Frame numbers stay exact in JSON (2^53 − 1).
    public static let maximumCounter = (1 << 53) - 1

    public enum Encoding: String, Sendable, Hashable, CaseIterable, MessagePackEnum {
        case jpeg, png
    }

    /// A rectangle of pixels, inside the frame.
    public struct Rect: Sendable, Hashable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int

        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// Surface name, the topic's last segment (`main`).
    public var surface: String
    /// Frame size in pixels.
    public var width: Int
    public var height: Int
    /// Pixels per scene point.
    public var scale: Double
    public var encoding: Encoding
    /// The encoded image, `width` × `height` pixels.
    public var data: [UInt8]
    /// Pixels changed since the previous image of the surface.
    public var damage: [Rect]
    /// The render worker's frame number (the `render.frame` `frame_id` with the same pixels).
    public var frame: Int
    public var input: TouchInput?
    /// Time spent encoding `data`, in ms.
    public var encodeMs: Double?

    public init(
        surface: String, width: Int, height: Int, scale: Double, encoding: Encoding, data: [UInt8], damage: [Rect],
        frame: Int, input: TouchInput? = nil, encodeMs: Double? = nil
    ) {
        self.surface = surface
        self.width = width
        self.height = height
        self.scale = scale
        self.encoding = encoding
        self.data = data
        self.damage = damage
        self.frame = frame
        self.input = input
        self.encodeMs = encodeMs
    }

    /// `render/image/<surface>/`.
    public static func topic(surface: String) throws -> Topic { try Topic(segments: "render", "image", surface) }

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(8 + (self.input == nil ? 0 : 1) + (self.encodeMs == nil ? 0 : 1))
        writer.writeKey("surface")
        writer.write(self.surface)
        writer.writeKey("width")
        writer.write(self.width)
        writer.writeKey("height")
        writer.write(self.height)
        writer.writeKey("scale")
        writer.writeNumber(self.scale)
        writer.write("encoding", self.encoding)
        writer.writeKey("damage")
        writer.writeArrayHeader(self.damage.count)
        for rect in self.damage {
            writer.writeMapHeader(4)
            writer.writeKey("x")
            writer.write(rect.x)
            writer.writeKey("y")
            writer.write(rect.y)
            writer.writeKey("width")
            writer.write(rect.width)
            writer.writeKey("height")
            writer.write(rect.height)
        }
        writer.writeKey("frame")
        writer.write(self.frame)
        if let input = self.input {
            writer.writeField("input", input)
        }
        if let encodeMs = self.encodeMs {
            writer.writeKey("encode_ms")
            writer.writeNumber(encodeMs)
        }
        // Last, so a reader that wants only the header fields stops before the bulk.
        writer.writeKey("data")
        writer.writeBinary(self.data)
    }

    /// Decodes and checks a payload.
    ///
    /// - Throws: ``CodecError`` for malformed bytes, a missing required field, or any value
    ///   outside the schema's bounds (`invalid_value`, naming the field).
    public init(from reader: inout MessagePackReader) throws {
        var surface: String?
        var width: Int?
        var height: Int?
        var scale: Double?
        var encoding: Encoding?
        var data: [UInt8]?
        var damage: [Rect]?
        var frame: Int?
        var input: TouchInput?
        var encodeMs: Double?
        try reader.readMap { reader, key in
            switch key {
            case "surface": surface = try reader.readSurface()
            case "width": width = try reader.readBounded("width", 1...Self.maximumSide)
            case "height": height = try reader.readBounded("height", 1...Self.maximumSide)
            case "scale": scale = try reader.readScale()
            case "encoding": encoding = try reader.readEnum(Encoding.self, field: "encoding")
            case "data": data = try reader.readImageData()
            case "damage": damage = try reader.readDamage()
            case "frame": frame = try reader.readBounded("frame", 1...Self.maximumCounter)
            case "input": input = try TouchInput(from: &reader, path: "input")
            case "encode_ms": encodeMs = try reader.readDuration("encode_ms")
            default: try reader.skip()
            }
        }
        self.init(
            surface: try reader.require(surface, "surface"), width: try reader.require(width, "width"),
            height: try reader.require(height, "height"), scale: try reader.require(scale, "scale"),
            encoding: try reader.require(encoding, "encoding"), data: try reader.require(data, "data"),
            damage: try reader.require(damage, "damage"), frame: try reader.require(frame, "frame"), input: input,
            encodeMs: encodeMs)
        // Rectangles are checked against the frame once both are known (keys come in any order).
        for (index, rect) in self.damage.enumerated()
        where rect.x + rect.width > self.width || rect.y + rect.height > self.height {
            throw CodecError(
                .invalidValue, offset: reader.offset,
                context: "damage[\(index)]: \(rect.width)×\(rect.height) at (\(rect.x), \(rect.y)) "
                    + "outside the \(self.width)×\(self.height) frame")
        }
    }
}

/// Field readers `render.image` and `render.tiles` share.
extension MessagePackReader {
    /// Reads an integer and checks it lies in `range`.
    mutating func readBounded(_ field: String, _ range: ClosedRange<Int>) throws -> Int {
        let start = self.offset
        let value = try self.readInt()
        guard value >= range.lowerBound, value <= range.upperBound else {
            throw CodecError(.invalidValue, offset: start, context: "\(field): \(value) outside \(range)")
        }
        return Int(value)
    }

    mutating func readScale() throws -> Double {
        let start = self.offset
        let scale = try self.readDouble()
        guard scale.isFinite, scale > 0, scale <= RenderImage.maximumScale else {
            throw CodecError(
                .invalidValue, offset: start, context: "scale: \(scale) not in (0, \(RenderImage.maximumScale)]")
        }
        return scale
    }

    mutating func readDuration(_ field: String) throws -> Double {
        let start = self.offset
        let value = try self.readDouble()
        guard value.isFinite, value >= 0 else {
            throw CodecError(.invalidValue, offset: start, context: "\(field): \(value) not a finite time ≥ 0")
        }
        return value
    }

    mutating func readSurface() throws -> String {
        let start = self.offset
        let name = try self.readString()
        if let problem = Topic.segmentProblem(name, maximumLength: RenderImage.maximumSurfaceLength) {
            throw CodecError(.invalidValue, offset: start, context: "surface '\(name)': \(problem)")
        }
        return name
    }

    /// Reads the encoded image: a bin, or (the JSON form) an array of bytes; its size is checked
    /// before it is copied.
    mutating func readImageData(_ field: String = "data") throws -> [UInt8] {
        let start = self.offset
        let next = start < self.count ? self.base.load(fromByteOffset: start, as: UInt8.self) : 0
        let isArray = (0x90...0x9f).contains(next) || next == 0xdc || next == 0xdd
        // A bin's bytes are borrowed (and checked against the input) before anything is copied.
        let binary = isArray ? nil : try self.readBinaryBytes()
        let count = try binary?.count ?? self.readArrayHeader()
        guard count >= 1, count <= RenderImage.maximumDataBytes else {
            throw CodecError(
                .invalidValue, offset: start,
                context: "\(field): \(count) bytes outside 1...\(RenderImage.maximumDataBytes)")
        }
        if let binary { return Array(binary) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for index in 0..<count {
            let byteStart = self.offset
            guard let byte = UInt8(exactly: try self.readInt()) else {
                throw CodecError(.invalidValue, offset: byteStart, context: "\(field)[\(index)]: not a byte")
            }
            bytes.append(byte)
        }
        return bytes
    }

    fileprivate mutating func readDamage() throws -> [RenderImage.Rect] {
        let start = self.offset
        let count = try self.readArrayHeader()
        guard count <= RenderImage.maximumDamageCount else {
            throw CodecError(
                .invalidValue, offset: start,
                context: "damage: \(count) rectangles, at most \(RenderImage.maximumDamageCount)")
        }
        var rects: [RenderImage.Rect] = []
        rects.reserveCapacity(count)
        for index in 0..<count {
            var x: Int?
            var y: Int?
            var width: Int?
            var height: Int?
            let side = 1...RenderImage.maximumSide
            let origin = 0...(RenderImage.maximumSide - 1)
            try self.readMap { reader, key in
                switch key {
                case "x": x = try reader.readBounded("damage[\(index)].x", origin)
                case "y": y = try reader.readBounded("damage[\(index)].y", origin)
                case "width": width = try reader.readBounded("damage[\(index)].width", side)
                case "height": height = try reader.readBounded("damage[\(index)].height", side)
                default: try reader.skip()
                }
            }
            rects.append(
                RenderImage.Rect(
                    x: try self.require(x, "damage[\(index)].x"), y: try self.require(y, "damage[\(index)].y"),
                    width: try self.require(width, "damage[\(index)].width"),
                    height: try self.require(height, "damage[\(index)].height")))
        }
        return rects
    }
}
