import Testing

@testable import RenderCore

/// Frames for viewers go out as JPEG (libjpeg-turbo); what comes back must be the same frame.
@Suite struct JPEGCodecTests {
    @Test func aFrameEncodesToAJPEGOfItsSizeThatDecodesCloseToIt() throws {
        let frame = try LayerRenderer(font: try FontFace.systemJapanese())
            .render(DemoScene.root(), width: 640, height: 480, scale: 2)
        let data = try JPEGEncoder().encode(frame, quality: 85)
        #expect(Array(data.prefix(3)) == [0xFF, 0xD8, 0xFF], "JPEG SOI marker")
        #expect(Array(data.suffix(2)) == [0xFF, 0xD9], "JPEG EOI marker")
        let decoded = try JPEGCodec.decode(data)
        #expect(decoded.width == 640 && decoded.height == 480)
        #expect(decoded.bytes.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 }, "opaque")
        #expect(frame.psnr(decoded) > 30, "PSNR \(frame.psnr(decoded)) dB")
    }

    @Test func oneEncoderEncodesFrameAfterFrameAndQualityTradesBytes() throws {
        let encoder = try JPEGEncoder()
        let frame = try TestPattern.frame(width: 96, height: 64)
        let low = try encoder.encode(frame, quality: 20)
        let high = try encoder.encode(frame, quality: 95)
        #expect(low.count < high.count)
        #expect(try encoder.encode(frame, quality: 20) == low, "the same frame, the same bytes")
    }

    @Test func badArgumentsAreErrors() throws {
        let encoder = try JPEGEncoder()
        let mask = try Image(width: 4, height: 4, channels: 1)
        #expect(throws: RenderError.self) { try encoder.encode(mask) }
        let frame = try TestPattern.frame(width: 4, height: 4)
        #expect(throws: RenderError.self) { try encoder.encode(frame, quality: 0) }
        #expect(throws: RenderError.self) { try encoder.encode(frame, quality: 101) }
    }

    @Test(arguments: [[], [0xFF, 0xD8, 0xFF], Array("not a jpeg at all".utf8)])
    func garbageIsAJPEGErrorNotACrash(data: [UInt8]) {
        #expect(throws: RenderError.self) { try JPEGCodec.decode(data) }
    }

    @Test func truncatedJPEGsAreErrorsNotCrashes() throws {
        let data = try JPEGEncoder().encode(try TestPattern.frame(width: 40, height: 30))
        for cut in [2, 20, 100] {
            #expect(throws: RenderError.self) { try JPEGCodec.decode(Array(data.prefix(cut))) }
        }
    }
}
