import Bus
import BusSchema
import RenderCore

/// Publishes the render worker's frames for viewers on `render/image/<surface>/`
/// (``RenderImage``), only while someone subscribes.
///
/// Who subscribes: the publisher's socket is an XPUB behind the proxy's verbose XPUB, so every
/// subscribe reaches it (``Publisher/reportEverySubscribe(_:)``), repeats included, and the last
/// unsubscribe too. A subscription counts when its prefix starts with `render/image/` and covers
/// the surface's topic: a tool recording the whole bus (`""`, `render/`) does not make the
/// worker encode. Each frame's job asks ``request()`` whether to encode; the owner polls
/// ``viewerJoined()`` every ``pollMs`` and draws the current state again when a viewer joined,
/// so a new viewer gets the current frame without waiting for input (the first image after a
/// join is a key frame: all of it damaged).
///
/// Provenance: ``noteState(_:)`` keeps the newest `input` a component state carried (the touch
/// frame a gesture came from); each image carries the one noted when its frame started.
final class ImagePublisher {
    /// How often subscriptions are looked at (they queue on the socket until read).
    static let pollMs = 20

    let topic: Topic
    let surface: String
    /// Pixels per scene point of the frames.
    let scale: Double
    private let publisher: Publisher
    private var joined = false
    private var keyFramePending = true
    private var latestInput: TouchInput?
    /// Images published, and the size and encoding time of the last one (health).
    private(set) var published: UInt64 = 0
    private var lastBytes = 0
    private var lastEncodeMs = 0.0

    /// - Throws: ``BusError`` if the publisher cannot report subscriptions, ``CodecError`` for
    ///   a surface name that is no topic segment.
    init(publisher: Publisher, surface: String, scale: Double) throws {
        self.topic = try RenderImage.topic(surface: surface)
        self.surface = surface
        self.scale = scale
        self.publisher = publisher
        try publisher.reportEverySubscribe { [unowned self] prefix in
            if self.covers(prefix) { self.joined = true }
        }
    }

    /// Whether a subscription to `prefix` asks for this surface's images.
    private func covers(_ prefix: String) -> Bool {
        prefix.hasPrefix("render/image/") && self.topic.rawValue.hasPrefix(prefix)
    }

    /// Reads the subscription notices; true once after a viewer subscribed (the owner draws again).
    func viewerJoined() throws -> Bool {
        try self.publisher.drainSubscriptions()
        defer { self.joined = false }
        if self.joined { self.keyFramePending = true }
        return self.joined
    }

    /// What the frame starting now asks of the encoder; nil while nobody subscribes.
    func request() throws -> ImageRequest? {
        try self.publisher.drainSubscriptions()
        guard self.publisher.subscriptions.contains(where: self.covers) else {
            self.keyFramePending = true
            return nil
        }
        defer { self.keyFramePending = false }
        return ImageRequest(keyFrame: self.keyFramePending, input: self.latestInput)
    }

    /// Keeps the `input` of a component state just applied, if it has a valid one.
    func noteState(_ state: Value) {
        guard let input = state["input"], let fields = try? PayloadFields(input, path: "input") else { return }
        if let input = try? TouchInput(fields: fields) { self.latestInput = input }
    }

    /// Publishes frame `frameID`'s image.
    /// - Throws: ``RenderError`` `invalidSize` for a frame or an encoding larger than
    ///   `render.image` carries, ``BusError`` if sending fails.
    func publish(_ image: EncodedImage, frameID: Int) throws {
        let (width, height) = (image.width, image.height)
        guard max(width, height) <= RenderImage.maximumSide, image.data.count <= RenderImage.maximumDataBytes else {
            throw RenderError(
                .invalidSize, "image \(width)×\(height), \(image.data.count) bytes: more than render.image carries")
        }
        let message = RenderImage(
            surface: self.surface, width: width, height: height, scale: self.scale, encoding: image.encoding,
            data: image.data,
            damage: image.damage.map { RenderImage.Rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) },
            frame: frameID, input: image.input, encodeMs: image.encodeMs)
        try self.publisher.publish(message, on: self.topic)
        self.published += 1
        self.lastBytes = image.data.count
        self.lastEncodeMs = image.encodeMs
    }

    /// Health numbers: `images` published, the last one's `image_bytes` and `image_encode_ms`.
    var health: [(String, Value)] {
        [
            ("images", Value(self.published)), ("image_bytes", Value(UInt64(self.lastBytes))),
            ("image_encode_ms", .double(self.lastEncodeMs)),
        ]
    }
}
