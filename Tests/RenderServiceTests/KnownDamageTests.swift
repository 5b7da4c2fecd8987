import RenderCore
import Testing

@testable import RenderService

/// The pixels the render thread found changed are the encoder's tiles when relative to the frame
/// the tiles last showed; relative to another frame they make a key frame.
@Suite struct KnownDamageTests {
    static let tiles = ImageRequest(image: nil, tiles: ImageRequest.Stream(keyFrame: false), input: nil)
    static let white = RGBA8(255, 255, 255, 255)

    static func rects(_ tiles: EncodedTiles?) -> [[Int]] {
        tiles?.tiles.map { [$0.x, $0.y, $0.width, $0.height] } ?? []
    }

    @Test func tilesOfAFrameWithKnownDamageAreItsRectanglesAndAnUnchainedFrameIsAKeyFrame() throws {
        var encoder = try ImageEncoder()
        let first = try Image(width: 64, height: 48, fill: RGBA8(0x33, 0x66, 0x99, 255))
        let key = try encoder.encode(
            first, frameID: 1, Self.tiles, damage: KnownDamage(shows: 1, since: nil, rects: []))
        #expect(Self.rects(key.tiles) == [[0, 0, 64, 48]], "the first frame is a key frame")
        var second = first
        second.setPixel(10, 10, Self.white)
        let known = try encoder.encode(
            second, frameID: 2, Self.tiles,
            damage: KnownDamage(
                shows: 2, since: 1,
                rects: [PixelRect(x: 10, y: 10, width: 1, height: 1), PixelRect(x: 40, y: 30, width: 9, height: 9)]))
        #expect(Self.rects(known.tiles) == [[10, 10, 1, 1], [40, 30, 9, 9]], "the known rectangles, not compared")
        #expect(known.tiles?.base == 1)
        var third = second
        third.setPixel(30, 20, Self.white)
        let unchained = try encoder.encode(
            third, frameID: 3, Self.tiles,
            damage: KnownDamage(shows: 3, since: 7, rects: [PixelRect(x: 0, y: 0, width: 4, height: 4)]))
        #expect(Self.rects(unchained.tiles) == [[0, 0, 64, 48]], "relative to another frame: a key frame")
        #expect(unchained.tiles?.base == nil)
        let unchanged = try encoder.encode(
            third, frameID: 4, Self.tiles, damage: KnownDamage(shows: 3, since: 3, rects: []))
        #expect(unchanged.tiles == nil, "no damage since the tiles' frame: nothing sent")
    }

    @Test func aFrameDrawnWithNoPixelChangedKeepsTheTilesChainedToTheNextFrame() throws {
        var encoder = try ImageEncoder()
        var image = try Image(width: 64, height: 48, fill: RGBA8(0x33, 0x66, 0x99, 255))
        _ = try encoder.encode(image, frameID: 1, Self.tiles, damage: KnownDamage(shows: 1, since: nil, rects: []))
        // Frame 2 was drawn (its layers changed) but no pixel did: nothing to send.
        let same = try encoder.encode(image, frameID: 2, Self.tiles, damage: KnownDamage(shows: 2, since: 1, rects: []))
        #expect(same.tiles == nil)
        image.setPixel(10, 10, Self.white)
        let next = try encoder.encode(
            image, frameID: 3, Self.tiles,
            damage: KnownDamage(shows: 3, since: 2, rects: [PixelRect(x: 10, y: 10, width: 1, height: 1)]))
        #expect(next.tiles?.base == 1, "over frame 1's tiles, no key frame")
        #expect(Self.rects(next.tiles) == [[10, 10, 1, 1]])
    }

    @Test func aReplacedFramesDamageJoinsItsSuccessorsWhenTheyFollowEachOther() {
        let (a, b) = (PixelRect(x: 0, y: 0, width: 2, height: 2), PixelRect(x: 9, y: 9, width: 3, height: 3))
        let replaced = KnownDamage(shows: 2, since: 1, rects: [a])
        #expect(
            KnownDamage(shows: 3, since: 2, rects: [b]).following(replaced)
                == KnownDamage(shows: 3, since: 1, rects: [a, b]))
        #expect(KnownDamage(shows: 2, since: 2, rects: []).following(replaced) == replaced, "the same image")
        #expect(
            KnownDamage(shows: 5, since: 4, rects: [b]).following(replaced)
                == KnownDamage(shows: 5, since: nil, rects: []), "a gap: not known")
        #expect(
            KnownDamage(shows: 3, since: 2, rects: [b]).following(KnownDamage(shows: 2, since: nil, rects: []))
                == KnownDamage(shows: 3, since: nil, rects: []), "after a frame drawn whole: not known")
    }
}
