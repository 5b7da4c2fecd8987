import Testing

@testable import RenderCore

@Suite struct RegionBlurTests {
    let kernel = BlurKernel(threads: 2)

    @Test func pixelsOutsideTheRegionAreUntouched() throws {
        let image = Reference.random(width: 80, height: 60, seed: 21)
        var blurred = image
        let region = PixelRect(x: 10, y: 8, width: 50, height: 40)
        try kernel.apply(.standard, to: &blurred, region: region)
        for y in 0..<60 {
            for x in 0..<80 where !(10..<60).contains(x) || !(8..<48).contains(y) {
                #expect(blurred.pixel(x, y) == image.pixel(x, y))
            }
        }
    }

    @Test func insideTheMaskTheRegionEqualsABlurOfTheCroppedRegion() throws {
        let image = Reference.random(width: 80, height: 60, seed: 22)
        var blurred = image
        try kernel.apply(.gaussian(sigma: 6), to: &blurred, region: PixelRect(x: 10, y: 8, width: 50, height: 40))
        var crop = try Image(width: 50, height: 40)
        for y in 0..<40 { for x in 0..<50 { crop.setPixel(x, y, image.pixel(x + 10, y + 8)) } }
        try kernel.apply(.gaussian(sigma: 6), to: &crop)
        // Away from the rounded corners the mask is fully on.
        for y in 0..<40 { for x in 20..<30 { #expect(blurred.pixel(x + 10, y + 8) == crop.pixel(x, y)) } }
    }

    @Test func roundedCornersBlendSmoothlyAndTheVeryCornerKeepsTheOriginal() throws {
        #expect(RoundedRectCoverage.at(x: 0, y: 0, width: 100, height: 100, radius: 20) == 0)
        #expect(RoundedRectCoverage.at(x: 50, y: 0, width: 100, height: 100, radius: 20) == 255)
        #expect(RoundedRectCoverage.at(x: 20, y: 20, width: 100, height: 100, radius: 20) == 255)
        // Along a row through the corner the coverage rises from 0 to 255 through partial values.
        let row = (0..<20).map { RoundedRectCoverage.at(x: $0, y: 3, width: 100, height: 100, radius: 20) }
        #expect(row.contains { $0 > 0 && $0 < 255 })
        #expect(zip(row, row.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func aRegionOutsideTheImageIsIgnoredAndBadRadiiAreRejected() throws {
        var image = Reference.random(width: 20, height: 20, seed: 23)
        let original = image
        try kernel.apply(.weak, to: &image, region: PixelRect(x: 30, y: 0, width: 10, height: 10))
        #expect(image == original)
        #expect(throws: RenderError.self) {
            try kernel.apply(.weak, to: &image, region: PixelRect(x: 0, y: 0, width: 10, height: 10), cornerRadius: -1)
        }
        #expect(throws: RenderError.self) {
            try kernel.apply(
                .weak, to: &image, region: PixelRect(x: 0, y: 0, width: 10, height: 10), cornerRadius: .nan)
        }
    }
}
