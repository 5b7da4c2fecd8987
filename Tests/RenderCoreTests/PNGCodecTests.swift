import Testing

@testable import RenderCore

@Suite struct PNGCodecTests {
    @Test func opaqueImagesRoundTripExactly() throws {
        let image = try TestPattern.frame(width: 33, height: 21)
        #expect(try PNGCodec.decode(PNGCodec.encode(image)) == image)
    }

    @Test func translucentPixelsRoundTripWithinPremultiplicationError() throws {
        let image = Reference.random(width: 31, height: 17, seed: 31)
        let decoded = try PNGCodec.decode(PNGCodec.encode(image))
        #expect(zip(image.bytes, decoded.bytes).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    @Test func diskHoldsStraightAlpha() throws {
        // Premultiplied (64, 0, 0, 128) is straight (128, 0, 0, 128).
        let image = try Image(width: 2, height: 2, fill: RGBA8(64, 0, 0, 128))
        var straight = image.bytes
        PNGCodec.unpremultiply(&straight)
        #expect(Array(straight.prefix(4)) == [128, 0, 0, 128])
        PNGCodec.premultiply(&straight)
        #expect(straight == image.bytes)
    }

    @Test(arguments: [[], [0x89, 0x50, 0x4E, 0x47], Array("not a png at all".utf8)])
    func garbageIsABadPNGError(data: [UInt8]) {
        #expect(throws: RenderError.self) { try PNGCodec.decode(data) }
    }

    @Test func truncatedPNGsAreErrorsNotCrashes() throws {
        let data = try PNGCodec.encode(TestPattern.frame(width: 40, height: 30))
        for cut in [8, 20, 33, data.count / 2, data.count - 13] {
            #expect(throws: RenderError.self) { try PNGCodec.decode(Array(data.prefix(cut))) }
        }
    }

    @Test func aChunkClaimingMoreThanTheFileHoldsIsABadPNG() throws {
        // Found by the fuzzer (Tests/data/fuzz/png/): libpng allocated the 1 GiB such a chunk
        // claimed before finding the file too short, seconds for a 100-byte file.
        var data = try PNGCodec.encode(TestPattern.frame(width: 4, height: 3))
        let idat = try #require(data.indices.first { data[$0..<$0 + 4].elementsEqual("IDAT".utf8) })
        data.replaceSubrange(idat - 4..<idat, with: [0x44, 0x41, 0x54, 0x01])
        let error = try #require(throws: RenderError.self) { try PNGCodec.decode(data) }
        #expect(error.code == .badPNG)
        #expect(error.context.contains("claims 1145132033 bytes"))
    }
}

@Suite struct ChecksumTests {
    @Test func checksumIsSixteenHexDigitsAndFollowsThePixels() throws {
        var image = try Image(width: 3, height: 2)
        let empty = image.checksum
        #expect(empty.count == 16 && empty.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(try Image(width: 3, height: 2).checksum == empty)
        image.setPixel(1, 1, RGBA8(1, 0, 0, 1))
        #expect(image.checksum != empty)
    }

    /// Two columns and two rows of blocks (64×16 pixels, then 6×2), each row of a block hashed
    /// 32 bytes at a time (256 bytes) or byte by byte (24 bytes).
    @Test func aChangeOfAnyOneByteGivesAnotherChecksum() throws {
        let image = try Image(width: 70, height: 18, fill: RGBA8(0x20, 0x40, 0x60, 0x80))
        var seen: Set<String> = [image.checksum]
        for index in image.bytes.indices {
            for flipped in [UInt8(0x01), 0x10, 0x80] {
                var changed = image
                changed.bytes[index] ^= flipped
                seen.insert(changed.checksum)
            }
        }
        #expect(seen.count == 1 + 3 * image.bytes.count, "every one-byte change has a checksum of its own")
    }

    @Test func aDigestUpdatedWithinTheChangedRectanglesIsTheWholeImagesDigest() throws {
        let image = try Image(width: 150, height: 40, fill: RGBA8(9, 8, 7, 255))
        var digest = FrameDigest(of: image)
        var changed = image
        for (x, y) in [(0, 0), (63, 15), (64, 16), (149, 39), (100, 20)] { changed.setPixel(x, y, RGBA8(1, 2, 3, 4)) }
        let rects = [
            PixelRect(x: 0, y: 0, width: 65, height: 17), PixelRect(x: 100, y: 20, width: 1, height: 1),
            PixelRect(x: 149, y: 39, width: 5, height: 5),
        ]
        digest.update(changed, within: rects)
        #expect(digest == FrameDigest(of: changed))
        #expect(digest.checksum == changed.checksum && digest.checksum != image.checksum)
        var stale = FrameDigest(of: image)
        stale.update(changed, within: [PixelRect(x: 0, y: 0, width: 1, height: 1)])
        #expect(stale != FrameDigest(of: changed), "a change outside the rectangles given is not seen")
        stale.update(try Image(width: 10, height: 10), within: [])
        #expect(stale == FrameDigest(of: try Image(width: 10, height: 10)), "another size is digested whole")
    }
}

@Suite struct ImageSizeTests {
    @Test(arguments: [(0, 10), (10, 0), (-1, 5), (16385, 1), (10_000, 10_000)])
    func zeroNegativeAndHugeSizesAreErrors(width: Int, height: Int) {
        #expect(throws: RenderError.self) { try Image(width: width, height: height) }
    }
}
