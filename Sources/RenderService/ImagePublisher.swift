import Bus
import BusSchema
import RenderCore

/// Publishes the render worker's frames for viewers, only while someone subscribes: whole
/// frames on `render/image/<surface>/` (``RenderImage``, kept by the proxy's last-value cache for
/// a late joiner) and what changed on `render/tiles/<surface>/` (``RenderTiles``, the stream the
/// live page draws: a small change costs a small encoding, transfer and decoding).
///
/// Who subscribes: the publisher's socket is an XPUB behind the proxy's verbose XPUB, so every
/// subscribe reaches it (``Publisher/reportEverySubscribe(_:)``), repeats included, and the last
/// unsubscribe too. A subscription counts for a stream when its prefix starts with the stream's
/// family (`render/image/`, `render/tiles/`) and covers the surface's topic: a tool recording the
/// whole bus (`""`, `render/`) does not make the worker encode. Each frame's job asks
/// ``request()`` what to encode; the owner polls ``viewerJoined()`` every ``pollMs`` and draws the
/// current state again when a viewer joined, so a new viewer gets the current frame without
/// waiting for input (the first message of a stream after a join is a key frame).
///
/// Provenance: ``noteState(_:)`` keeps the newest `input` a component state carried (the touch
/// frame a gesture came from); each image carries the one noted when its frame started.
final class ImagePublisher {
    /// How often subscriptions are looked at (they queue on the socket until read).
    static let pollMs = 20

    /// One stream's topic and whether its next message must be a key frame.
    private struct Stream {
        let family: String
        let topic: Topic
        var keyFramePending = true
        var joined = false

        /// Whether a subscription to `prefix` asks for this stream.
        func covers(_ prefix: String) -> Bool {
            prefix.hasPrefix(self.family) && self.topic.rawValue.hasPrefix(prefix)
        }

        /// What the frame starting now asks of this stream, given the current subscriptions.
        mutating func request(_ subscriptions: Set<String>) -> ImageRequest.Stream? {
            guard subscriptions.contains(where: self.covers) else {
                self.keyFramePending = true
                return nil
            }
            defer { self.keyFramePending = false }
            return ImageRequest.Stream(keyFrame: self.keyFramePending)
        }
    }

    let surface: String
    /// Pixels per scene point of the frames.
    let scale: Double
    private let publisher: Publisher
    private var image: Stream
    private var tiles: Stream
    private var latestInput: TouchInput?
    /// Images and tile messages published, and the size and encoding time of the last ones (health).
    private(set) var published: UInt64 = 0
    private var lastBytes = 0
    private var lastEncodeMs = 0.0
    private var tilesPublished: UInt64 = 0
    private var tileKeyFrames: UInt64 = 0
    private var lastTileBytes = 0
    private var lastTileEncodeMs = 0.0

    /// - Throws: ``BusError`` if the publisher cannot report subscriptions, ``CodecError`` for
    ///   a surface name that is no topic segment.
    init(publisher: Publisher, surface: String, scale: Double) throws {
        self.image = Stream(family: "render/image/", topic: try RenderImage.topic(surface: surface))
        self.tiles = Stream(family: "render/tiles/", topic: try RenderTiles.topic(surface: surface))
        self.surface = surface
        self.scale = scale
        self.publisher = publisher
        try publisher.reportEverySubscribe { [unowned self] prefix in
            if self.image.covers(prefix) { self.image.joined = true }
            if self.tiles.covers(prefix) { self.tiles.joined = true }
        }
    }

    /// Reads the subscription notices; true once after a viewer subscribed (the owner draws again).
    func viewerJoined() throws -> Bool {
        try self.publisher.drainSubscriptions()
        let joined = self.image.joined || self.tiles.joined
        if self.image.joined { self.image.keyFramePending = true }
        if self.tiles.joined { self.tiles.keyFramePending = true }
        self.image.joined = false
        self.tiles.joined = false
        return joined
    }

    /// Makes the next tile message a key frame (a viewer lost one).
    func requestKeyFrame() {
        self.tiles.keyFramePending = true
    }

    /// What the frame starting now asks of the encoder; nil while nobody subscribes.
    func request() throws -> ImageRequest? {
        try self.publisher.drainSubscriptions()
        let subscriptions = self.publisher.subscriptions
        let request = ImageRequest(
            image: self.image.request(subscriptions), tiles: self.tiles.request(subscriptions),
            input: self.latestInput)
        return request.image == nil && request.tiles == nil ? nil : request
    }

    /// Keeps the `input` of a component state just applied, if it has a valid one.
    func noteState(_ state: Value) {
        guard let input = state["input"], let fields = try? PayloadFields(input, path: "input") else { return }
        if let input = try? TouchInput(fields: fields) { self.latestInput = input }
    }

    /// Publishes frame `frameID` on each stream it was encoded for.
    /// - Throws: ``RenderError`` `invalidSize` for a frame or an encoding larger than the
    ///   messages carry, ``BusError`` if sending fails.
    func publish(_ frame: EncodedFrame, frameID: Int) throws {
        if let image = frame.image { try self.publish(image, frameID: frameID) }
        if let tiles = frame.tiles { try self.publish(tiles, frameID: frameID) }
    }

    private func publish(_ image: EncodedImage, frameID: Int) throws {
        let (width, height) = (image.width, image.height)
        guard max(width, height) <= RenderImage.maximumSide, image.data.count <= RenderImage.maximumDataBytes else {
            throw RenderError(
                .invalidSize, "image \(width)×\(height), \(image.data.count) bytes: more than render.image carries")
        }
        let message = RenderImage(
            surface: self.surface, width: width, height: height, scale: self.scale, encoding: image.encoding,
            data: image.data,
            damage: image.damage,
            frame: frameID, input: image.input, encodeMs: image.encodeMs)
        try self.publisher.publish(message, on: self.image.topic)
        self.published += 1
        self.lastBytes = image.data.count
        self.lastEncodeMs = image.encodeMs
    }

    private func publish(_ tiles: EncodedTiles, frameID: Int) throws {
        let (width, height, bytes) = (tiles.width, tiles.height, tiles.bytes)
        guard max(width, height) <= RenderImage.maximumSide, bytes <= RenderImage.maximumDataBytes else {
            throw RenderError(
                .invalidSize, "tiles of \(width)×\(height), \(bytes) bytes: more than render.tiles carries")
        }
        let message = RenderTiles(
            surface: self.surface, width: width, height: height, scale: self.scale, frame: frameID, base: tiles.base,
            tiles: tiles.tiles, input: tiles.input, encodeMs: tiles.encodeMs)
        try self.publisher.publish(message, on: self.tiles.topic)
        self.tilesPublished += 1
        if tiles.base == nil { self.tileKeyFrames += 1 }
        self.lastTileBytes = bytes
        self.lastTileEncodeMs = tiles.encodeMs
    }

    /// Health numbers: `images` published, the last one's `image_bytes` and `image_encode_ms`;
    /// `tile_messages` published, how many were `tile_key_frames`, the last one's `tile_bytes`
    /// and `tile_encode_ms`.
    var health: [(String, Value)] {
        [
            ("images", Value(self.published)), ("image_bytes", Value(UInt64(self.lastBytes))),
            ("image_encode_ms", .double(self.lastEncodeMs)), ("tile_messages", Value(self.tilesPublished)),
            ("tile_key_frames", Value(self.tileKeyFrames)), ("tile_bytes", Value(UInt64(self.lastTileBytes))),
            ("tile_encode_ms", .double(self.lastTileEncodeMs)),
        ]
    }
}
