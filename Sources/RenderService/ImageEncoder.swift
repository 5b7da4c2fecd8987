import Bus
import BusSchema
import RenderCore

/// What a frame's job asks of the encoder: set only while someone watches the surface.
struct ImageRequest: Sendable {
    /// One stream's ask: encode the frame for it, a key frame when a viewer just joined.
    struct Stream: Sendable, Equatable {
        var keyFrame: Bool
    }

    /// `render.image`, the whole frame (someone watches `render/image/`).
    var image: Stream?
    /// `render.tiles`, what changed (someone watches `render/tiles/`).
    var tiles: Stream?
    /// The newest touch frame whose effect the drawn state shows.
    let input: TouchInput?

    /// Whether a stream asks for a key frame (a viewer joined or lost one).
    var asksForKeyFrame: Bool { self.image?.keyFrame == true || self.tiles?.keyFrame == true }

    /// This request, also asking for the key frames `replaced` asked for (a frame replaced
    /// before it was encoded passes its keys on, so a viewer that joined still gets one).
    func keepingKeys(of replaced: ImageRequest) -> ImageRequest {
        var request = self
        if replaced.image?.keyFrame == true, request.image != nil { request.image = Stream(keyFrame: true) }
        if replaced.tiles?.keyFrame == true, request.tiles != nil { request.tiles = Stream(keyFrame: true) }
        return request
    }
}

/// What the render thread knows about how a frame's image differs from an earlier one: the
/// pixels that changed within the damage found from the layers
/// (``LayerRenderer/damage(from:to:width:height:scale:maximumCount:)``), compared while they
/// were redrawn, so the encoder needs neither the frame before nor a search through the pixels.
struct KnownDamage: Sendable, Equatable {
    /// The drawn frame whose image this frame shows (an unchanged frame shows an earlier one's).
    let shows: Int
    /// The drawn frame the damage is relative to; nil when it is not known (drawn whole).
    let since: Int?
    /// Every pixel that can differ from that frame's image.
    let rects: [PixelRect]

    /// The damage of a frame that replaces `replaced` before it was encoded: since the frame
    /// the replaced one's damage was relative to, when the two follow each other.
    func following(_ replaced: KnownDamage) -> KnownDamage {
        if self.shows == replaced.shows { return replaced }
        guard self.since == replaced.shows, let since = replaced.since else {
            return KnownDamage(shows: self.shows, since: nil, rects: [])
        }
        return KnownDamage(shows: self.shows, since: since, rects: replaced.rects + self.rects)
    }
}

/// A frame encoded whole for viewers (`render.image`).
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

/// What changed in a frame, encoded tile by tile (`render.tiles`).
struct EncodedTiles: Sendable {
    let width: Int
    let height: Int
    /// The frame the tiles change; nil for a key frame (one tile, the whole frame).
    let base: Int?
    let tiles: [RenderTiles.Tile]
    let encodeMs: Double
    let input: TouchInput?

    var bytes: Int { self.tiles.reduce(0) { $0 + $1.data.count } }
}

/// A frame encoded for each stream that asked; nil where it did not, or (tiles) nothing changed
/// and it names no newer input.
struct EncodedFrame: Sendable {
    var image: EncodedImage?
    var tiles: EncodedTiles?
}

/// Encodes drawn frames for viewers, on the encoding thread (``FrameEncoder``).
///
/// `render.image` gets the whole frame (a viewer that skips frames loses nothing), as JPEG
/// (libjpeg-turbo) or PNG (libpng), with the rectangles that changed since the previous image.
/// `render.tiles` gets only those rectangles, each encoded by itself (the encoding configured,
/// except that with JPEG a tile of at most ``pngTileMaximumPixels`` goes as PNG: smaller and as
/// fast, `render-worker bench-encode`), over the frame its last message showed; a key frame (the
/// whole frame as one tile) when a viewer joined, when the change covers half the frame or more,
/// or every ``keyFrameInterval`` frames, so a viewer that missed a message unnoticed is not out of
/// step for long. When the tiles since the last key frame that still show (a later tile covering
/// one hides it, as in uibus-view's `TileChain`, which a new page gets) outweigh it
/// ``shownBytesPerKeyByte`` times or number more than ``maximumShownTiles``, the frame sends a
/// few tiles over all of them and its change instead (a key frame if those are half the frame).
/// A drag thus sends no key frame: one costs a whole frame's encoding (25 ms) and bytes, and
/// showed up as the drags' slowest frames; a pull, whose tiles move down and never cover the one
/// before, sent one every 6 to 8 frames.
/// The previous images are kept only while frames are being encoded.
struct ImageEncoder {
    /// Tiles of at most this many pixels are PNG when the encoding is JPEG (a 128×128 square).
    static let pngTileMaximumPixels = 128 * 128
    /// The most tile messages between key frames (10 s at 60 frames/s).
    static let keyFrameInterval = 600
    /// How many times the key frame's bytes the tiles still showing may weigh.
    static let shownBytesPerKeyByte = 2
    /// The most tiles that replace those still showing when they weigh too much: separate
    /// gestures' regions (a pull's column, a pager's strip) each get one, not one box over both.
    static let consolidatedTiles = 4
    /// The most tiles still showing before a few replace them whatever they weigh, well under
    /// what uibus-view's `TileChain` keeps (1 024; past it, it asks for a key frame).
    static let maximumShownTiles = 256

    /// Where the tile stream stands: the frame its last message showed.
    private struct TileBase {
        var frameID: Int
        /// Kept only for a frame whose damage was not known, to compare the next one's pixels
        /// with (otherwise the render thread draws the next frame over it in place).
        var image: Image?
        /// The tiles since the key frame that no later one covers, and their encoded bytes.
        var shown: [(rect: PixelRect, bytes: Int)]
        var keyBytes: Int
        var framesSinceKey: Int
        /// The drawn frame whose image this is, when known (``KnownDamage/shows``).
        var shows: Int?
        /// The input the last message named.
        var input: TouchInput?

        var shownBytes: Int { self.shown.reduce(0) { $0 + $1.bytes } }

        /// The stream moves on to frame `frameID` (`image`: kept when its damage was not known).
        mutating func advance(to frameID: Int, image: Image?, shows: Int?, input: TouchInput?) {
            self.frameID = frameID
            self.image = image
            self.framesSinceKey += 1
            self.shows = shows
            self.input = input
        }

        /// Adds tiles drawn over the frame, dropping those they cover.
        mutating func add(_ tiles: [RenderTiles.Tile]) {
            for tile in tiles {
                let rect = PixelRect(x: tile.x, y: tile.y, width: tile.width, height: tile.height)
                self.shown.removeAll { rect.covers($0.rect) }
                self.shown.append((rect, tile.data.count))
            }
        }
    }

    let encoding: RenderImage.Encoding
    let quality: Int
    private let jpeg: JPEGEncoder
    private var previous: Image?
    private var tileBase: TileBase?

    /// - Throws: ``RenderError`` when libjpeg-turbo cannot make a compressor.
    init(encoding: RenderImage.Encoding = .jpeg, quality: Int = JPEGEncoder.defaultQuality) throws {
        self.encoding = encoding
        self.quality = quality
        self.jpeg = try JPEGEncoder()
    }

    /// Encodes frame `frameID` for the streams `request` asks for.
    /// - Throws: ``RenderError`` when the codec fails.
    /// - Parameter damage: what the frame is known to change, used instead of comparing pixels
    ///   (a key frame when it is not relative to the frame the tiles last showed); nil: compare.
    mutating func encode(_ image: Image, frameID: Int, _ request: ImageRequest, damage: KnownDamage? = nil) throws
        -> EncodedFrame
    {
        var frame = EncodedFrame()
        if let stream = request.image {
            frame.image = try self.encodeWhole(image, keyFrame: stream.keyFrame, input: request.input)
        } else {
            self.previous = nil
        }
        if let stream = request.tiles {
            frame.tiles = try self.encodeTiles(
                image, frameID: frameID, keyFrame: stream.keyFrame, input: request.input, known: damage)
        } else {
            self.tileBase = nil
        }
        return frame
    }

    /// Drops the previous images (nobody watches): the next frame is a key frame anyway.
    mutating func forget() {
        self.previous = nil
        self.tileBase = nil
    }

    private mutating func encodeWhole(_ image: Image, keyFrame: Bool, input: TouchInput?) throws -> EncodedImage {
        let damage = image.damage(
            since: keyFrame ? nil : self.previous, maximumCount: RenderImage.maximumDamageCount)
        self.previous = image
        let start = Clock.monotonicNs()
        let data = try self.encode(image, as: self.encoding)
        return EncodedImage(
            width: image.width, height: image.height, encoding: self.encoding, data: data, damage: damage,
            encodeMs: FrameRenderer.ms(Clock.monotonicNs() - start), input: input)
    }

    private mutating func encodeTiles(
        _ image: Image, frameID: Int, keyFrame: Bool, input: TouchInput?, known: KnownDamage?
    ) throws -> EncodedTiles? {
        let start = Clock.monotonicNs()
        let whole = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        var base = keyFrame ? nil : self.tileBase
        if let due = base, due.framesSinceKey >= Self.keyFrameInterval { base = nil }
        let consolidate =
            base.map {
                $0.shownBytes > $0.keyBytes * Self.shownBytesPerKeyByte || $0.shown.count > Self.maximumShownTiles
            } ?? false
        var damage: [PixelRect]
        if let known {
            // The render thread found the pixels that changed; relative to another frame than
            // the tiles showed last, they say nothing about the tiles: a key frame.
            if known.since == nil || known.since != base?.shows { base = nil }
            damage = base == nil ? [whole] : PixelRect.merged(known.rects, maximumCount: RenderTiles.maximumTiles)
        } else {
            damage = image.damage(since: base?.image, maximumCount: RenderTiles.maximumTiles)
        }
        if damage.isEmpty {
            // No pixel changed; a message with no tiles still tells viewers that newer input is
            // shown, so they do not take a later frame for its effect.
            guard var next = base, let input, input != next.input else {
                // Nothing to send, but the stream shows this frame's pixels now: the next frame's
                // damage, found since this one, still follows it (else it would be a key frame).
                if let known { self.tileBase?.shows = known.shows }
                return nil
            }
            next.advance(to: frameID, image: known == nil ? image : nil, shows: known?.shows, input: input)
            self.tileBase = next
            return EncodedTiles(
                width: image.width, height: image.height, base: base?.frameID, tiles: [], encodeMs: 0, input: input)
        }
        if consolidate, let due = base {
            // A few tiles, each over some of the tiles still showing, and this frame's change
            // replace them all (one tile that alone outweighs the key frame: a key frame).
            if due.shown.count > 1 {
                damage = PixelRect.clustered(due.shown.map(\.rect) + damage, maximumCount: Self.consolidatedTiles)
            } else {
                base = nil
            }
        }
        if damage.reduce(0, { $0 + $1.width * $1.height }) * 2 >= whole.width * whole.height { base = nil }
        if base == nil { damage = [whole] }
        var tiles: [RenderTiles.Tile] = []
        tiles.reserveCapacity(damage.count)
        for rect in damage {
            let pixels = rect == whole ? image : try image.cropped(to: rect)
            let encoding: RenderImage.Encoding =
                rect.width * rect.height <= Self.pngTileMaximumPixels ? .png : self.encoding
            tiles.append(
                RenderTiles.Tile(
                    x: rect.x, y: rect.y, width: rect.width, height: rect.height, encoding: encoding,
                    data: try self.encode(pixels, as: encoding)))
        }
        let encoded = EncodedTiles(
            width: image.width, height: image.height, base: base?.frameID, tiles: tiles,
            encodeMs: FrameRenderer.ms(Clock.monotonicNs() - start), input: input)
        if var next = base {
            next.advance(to: frameID, image: known == nil ? image : nil, shows: known?.shows, input: input)
            next.add(tiles)
            self.tileBase = next
        } else {
            self.tileBase = TileBase(
                frameID: frameID, image: known == nil ? image : nil, shown: [], keyBytes: encoded.bytes,
                framesSinceKey: 0, shows: known?.shows, input: input)
        }
        return encoded
    }

    private func encode(_ image: Image, as encoding: RenderImage.Encoding) throws -> [UInt8] {
        switch encoding {
        case .jpeg: try self.jpeg.encode(image, quality: self.quality)
        case .png: try PNGCodec.encode(image)
        }
    }
}
