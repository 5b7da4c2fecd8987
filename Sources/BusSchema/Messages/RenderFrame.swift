/// A frame the render worker produced (schema `render.frame` v1), on `render/frame/`.
public struct RenderFrame: BusMessage, Hashable {
    public static let schema = SchemaID("render.frame", major: 1, minor: 0)
    public static let fields: [FieldSpec] = [
        FieldSpec("frame_id", "integer"), FieldSpec("width", "integer"), FieldSpec("height", "integer"),
        FieldSpec("checksum", "string"), FieldSpec("state_seq", "integer"), FieldSpec("timings", "object"),
        FieldSpec("png", "string", required: false),
    ]

    /// Time spent on the frame, in milliseconds, measured by the worker with the monotonic clock.
    public struct Timings: Sendable, Hashable {
        /// Drawing layers, shadows and text.
        public var renderMs: Double
        /// Blurring (included in `renderMs`).
        public var blurMs: Double
        /// PNG encoding; 0 when no PNG was written.
        public var encodeMs: Double

        public init(renderMs: Double, blurMs: Double, encodeMs: Double) {
            self.renderMs = renderMs
            self.blurMs = blurMs
            self.encodeMs = encodeMs
        }
    }

    /// Frame number, from 1.
    public var frameID: Int
    public var width: Int
    public var height: Int
    /// Lower-case hex digest of the premultiplied RGBA8 pixels.
    public var checksum: String
    /// State messages (`ui/` and `memo/changed/`) applied when the frame was rendered.
    public var stateSeq: Int
    public var timings: Timings
    /// Path of the PNG snapshot written for this frame.
    public var png: String?

    public init(
        frameID: Int, width: Int, height: Int, checksum: String, stateSeq: Int, timings: Timings, png: String? = nil
    ) {
        self.frameID = frameID
        self.width = width
        self.height = height
        self.checksum = checksum
        self.stateSeq = stateSeq
        self.timings = timings
        self.png = png
    }

    public func encode(to writer: inout MessagePackWriter) {
        writer.writeMapHeader(6 + (self.png == nil ? 0 : 1))
        writer.writeKey("frame_id")
        writer.write(self.frameID)
        writer.writeKey("width")
        writer.write(self.width)
        writer.writeKey("height")
        writer.write(self.height)
        writer.writeKey("checksum")
        writer.write(self.checksum)
        writer.writeKey("state_seq")
        writer.write(self.stateSeq)
        writer.writeKey("timings")
        writer.writeMapHeader(3)
        writer.writeKey("render_ms")
        writer.writeNumber(self.timings.renderMs)
        writer.writeKey("blur_ms")
        writer.writeNumber(self.timings.blurMs)
        writer.writeKey("encode_ms")
        writer.writeNumber(self.timings.encodeMs)
        if let png = self.png {
            writer.writeKey("png")
            writer.write(png)
        }
    }

    public init(from reader: inout MessagePackReader) throws {
        var frameID: Int?
        var width: Int?
        var height: Int?
        var checksum: String?
        var stateSeq: Int?
        var timings: Timings?
        var png: String?
        try reader.readMap { reader, key in
            switch key {
            case "frame_id": frameID = try reader.readInteger()
            case "width": width = try reader.readInteger()
            case "height": height = try reader.readInteger()
            case "checksum": checksum = try reader.readString()
            case "state_seq": stateSeq = try reader.readInteger()
            case "timings": timings = try Self.readTimings(&reader)
            case "png": png = try reader.readString()
            default: try reader.skip()
            }
        }
        self.init(
            frameID: try reader.require(frameID, "frame_id"), width: try reader.require(width, "width"),
            height: try reader.require(height, "height"), checksum: try reader.require(checksum, "checksum"),
            stateSeq: try reader.require(stateSeq, "state_seq"), timings: try reader.require(timings, "timings"),
            png: png)
    }

    private static func readTimings(_ reader: inout MessagePackReader) throws -> Timings {
        var render: Double?
        var blur: Double?
        var encode: Double?
        try reader.readMap { reader, key in
            switch key {
            case "render_ms": render = try reader.readDouble()
            case "blur_ms": blur = try reader.readDouble()
            case "encode_ms": encode = try reader.readDouble()
            default: try reader.skip()
            }
        }
        return Timings(
            renderMs: try reader.require(render, "timings.render_ms"),
            blurMs: try reader.require(blur, "timings.blur_ms"),
            encodeMs: try reader.require(encode, "timings.encode_ms"))
    }
}
