/// One encoded frame of a surface for viewers (schema `render.image` v1), on
/// `render/image/<surface>/`.
///
/// `data` always decodes to the whole frame, so a viewer that skips frames loses nothing;
/// `damage` says what changed since the previous image. Decoding checks every field against the
/// schema's bounds (and the rectangles against the frame) before allocating anything, so a hostile
/// message is a ``CodecError`` naming the field, never a huge allocation or a trap.
public struct RenderImage: BusMessage, MessagePackMap, MapFields, Hashable {
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

    /// A frame side in pixels.
    static let sides: ClosedRange<Int64> = 1...Int64(maximumSide)
    /// A frame number.
    static let counters: ClosedRange<Int64> = 1...Int64(maximumCounter)
    /// Pixels per point.
    static let scales = NumberRule(NumberRange(0, maximumScale), exclusiveLower: true)

    /// A rectangle of pixels, inside the frame (RenderCore's `PixelRect`).
    public struct Rect: MessagePackMap, MapFields, Hashable {
        public var x = 0
        public var y = 0
        public var width = 0
        public var height = 0

        public init() {}

        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        public mutating func visitFields<V: MapFieldVisitor & ~Copyable>(_ visitor: inout V) throws(V.Failure) {
            try Self.visit(&visitor, &self.x, &self.y, &self.width, &self.height)
        }

        /// The fields of a rectangle inside a frame: those of a rect, and the first of a tile.
        static func visit<V: MapFieldVisitor & ~Copyable>(
            _ visitor: inout V, _ x: inout Int, _ y: inout Int, _ width: inout Int, _ height: inout Int
        ) throws(V.Failure) {
            let origins: ClosedRange<Int64> = 0...Int64(RenderImage.maximumSide - 1)
            try visitor.field("x", &x, origins)
            try visitor.field("y", &y, origins)
            try visitor.field("width", &width, RenderImage.sides)
            try visitor.field("height", &height, RenderImage.sides)
        }
    }

    /// Surface name, the topic's last segment (`main`).
    public var surface = ""
    /// Frame size in pixels.
    public var width = 0
    public var height = 0
    /// Pixels per scene point.
    public var scale = 0.0
    public var encoding = Encoding.jpeg
    /// The encoded image, `width` × `height` pixels.
    public var data: [UInt8] = []
    /// Pixels changed since the previous image of the surface.
    public var damage: [Rect] = []
    /// The render worker's frame number (the `render.frame` `frame_id` with the same pixels).
    public var frame = 0
    public var input: TouchInput?
    /// Time spent encoding `data`, in ms.
    public var encodeMs: Double?

    public init() {}

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

    public mutating func visitFields<V: MapFieldVisitor & ~Copyable>(_ visitor: inout V) throws(V.Failure) {
        try visitor.surface(&self.surface, width: &self.width, height: &self.height, scale: &self.scale)
        try visitor.field("encoding", &self.encoding, .any)
        try visitor.field("damage", &self.damage, ArrayRule(count: 0...Self.maximumDamageCount, item: .any))
        try visitor.field("frame", &self.frame, Self.counters)
        try visitor.optional("input", &self.input, .any)
        try visitor.optional("encode_ms", &self.encodeMs, .atLeast(0))
        // Last, so a reader that wants only the header fields stops before the bulk.
        visitor.write("data", Binary(self.data))
        try visitor.readField("data", required: true) { reader, _ in self.data = try reader.readImageData() }
    }

    /// Decodes and checks a payload.
    ///
    /// - Throws: ``CodecError`` for malformed bytes, a missing required field, or any value
    ///   outside the schema's bounds (`invalid_value`, naming the field).
    public init(from reader: inout MessagePackReader, path: String) throws {
        self.init()
        try reader.readFields(into: &self, path: path)
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

/// Bytes written as a MessagePack bin.
struct Binary: MessagePackValue {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func write(to writer: inout MessagePackWriter) { writer.writeBinary(self.bytes) }
}

extension MapFieldVisitor where Self: ~Copyable {
    /// The fields `render.image` and `render.tiles` start with: the surface, and the frame's size
    /// in pixels and its scale.
    @inline(__always)
    mutating func surface(_ surface: inout String, width: inout Int, height: inout Int, scale: inout Double)
        throws(Failure)
    {
        self.write("surface", surface)
        try self.readField("surface", required: true) { reader, _ in surface = try reader.readSurface() }
        try self.field("width", &width, RenderImage.sides)
        try self.field("height", &height, RenderImage.sides)
        try self.field("scale", &scale, RenderImage.scales)
    }
}

/// Field readers `render.image` and `render.tiles` share.
extension MessagePackReader {
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
}
