import Bus
import BusSchema
import RenderCore

/// What a frame's job asks of the encoder: set only while someone watches the surface.
struct ImageRequest: Sendable {
    /// Report the whole frame as damaged (the first image after a viewer joined).
    let keyFrame: Bool
    /// The newest touch frame whose effect the drawn state shows.
    let input: TouchInput?
}

/// A frame encoded for viewers.
struct EncodedImage: Sendable {
    let width: Int
    let height: Int
    let encoding: RenderImage.Encoding
    let data: [UInt8]
    /// What changed since the previous image encoded.
    let damage: [PixelRect]
    let encodeMs: Double
    let input: TouchInput?
}

/// Encodes drawn frames for `render.image`: always the whole frame (a viewer that skips
/// frames loses nothing), as JPEG (libjpeg-turbo) or PNG (libpng), with the rectangles that
/// changed since the previous image. It keeps that previous image only while frames are
/// being encoded. Used on the encoding thread (``FrameEncoder``).
struct ImageEncoder {
    let encoding: RenderImage.Encoding
    let quality: Int
    private let jpeg: JPEGEncoder
    private var previous: Image?

    /// - Throws: ``RenderError`` when libjpeg-turbo cannot make a compressor.
    init(encoding: RenderImage.Encoding = .jpeg, quality: Int = JPEGEncoder.defaultQuality) throws {
        self.encoding = encoding
        self.quality = quality
        self.jpeg = try JPEGEncoder()
    }

    /// Encodes `image` and finds what changed since the previous one.
    /// - Throws: ``RenderError`` when the codec fails.
    mutating func encode(_ image: Image, _ request: ImageRequest) throws -> EncodedImage {
        let damage = image.damage(
            since: request.keyFrame ? nil : self.previous, maximumCount: RenderImage.maximumDamageCount)
        self.previous = image
        let start = Clock.monotonicNs()
        let data =
            switch self.encoding {
            case .jpeg: try self.jpeg.encode(image, quality: self.quality)
            case .png: try PNGCodec.encode(image)
            }
        return EncodedImage(
            width: image.width, height: image.height, encoding: self.encoding, data: data, damage: damage,
            encodeMs: FrameRenderer.ms(Clock.monotonicNs() - start), input: request.input)
    }

    /// Drops the previous image (nobody watches): the next image is a key frame anyway.
    mutating func forget() {
        self.previous = nil
    }
}
