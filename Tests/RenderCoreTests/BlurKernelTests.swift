import Foundation
import Testing

@testable import RenderCore

@Suite struct BlurKernelTests {
    static let sigmas = [10.2, 20.8, 50.5, 100]
    let kernel = BlurKernel(threads: 2)

    @Test(arguments: [BlurMode.gaussian(sigma: 0.8), .gaussian(sigma: 10.2), .gaussian(sigma: 100), .weak, .strong])
    func constantImageStaysBitExact(mode: BlurMode) throws {
        for fill in [RGBA8(200, 100, 50, 255), RGBA8(255, 255, 255, 255), RGBA8(3, 0, 7, 9)] {
            var image = try Image(width: 37, height: 23, fill: fill)
            let original = image
            try kernel.apply(mode, to: &image)
            #expect(image == original, "fill \(fill) mode \(mode)")
        }
        var mask = try Image(width: 41, height: 19, channels: 1, fill: RGBA8(0, 0, 0, 255))
        try kernel.apply(mode, to: &mask)
        #expect(mask.bytes.allSatisfy { $0 == 255 })
    }

    @Test func zeroRadiusIsTheIdentity() throws {
        let original = Reference.random(width: 23, height: 17, seed: 3)
        for mode in [BlurMode.gaussian(sigma: 0), .boxes(size: 0, times: 2), .boxes(size: 1, times: 3)] {
            var image = original
            try kernel.apply(mode, to: &image)
            #expect(image == original)
        }
    }

    @Test(arguments: sigmas)
    func isolatedEdgeIsWithinThreeLSBOfFloat64Gaussian(sigma: Double) throws {
        // A full-contrast opaque step, once across x and once across y.
        let width = 700
        var image = try Image(width: width, height: 3, fill: RGBA8(0, 0, 0, 255))
        for y in 0..<3 { for x in (width / 2)..<width { image.setPixel(x, y, RGBA8(255, 255, 255, 255)) } }
        let matrix = Reference.gaussianMatrix(length: width, sigma: sigma)
        let expected = (0..<width).map { x in
            (0..<width).reduce(0.0) { $0 + matrix[x * width + $1] * Double(image.pixel($1, 0).r) }
        }
        for vertical in [false, true] {
            var blurred = vertical ? Reference.transposed(image) : image
            try kernel.apply(.gaussian(sigma: sigma), to: &blurred)
            if vertical { blurred = Reference.transposed(blurred) }
            var worst = 0.0
            for y in 0..<3 {
                for x in 0..<width { worst = max(worst, abs(Double(blurred.pixel(x, y).r) - expected[x])) }
            }
            #expect(worst <= 3, "σ \(sigma) vertical \(vertical): \(worst) LSB")
        }
    }

    @Test(arguments: 3...6)
    func everyPassCountKeepsConstantsExactAndAnEdgeWithinThreeLSB(passes: Int) throws {
        // Each pass count runs its own specialized sweep; short lines (σ 30 needs more warm-up
        // than 41 pixels) and long ones must both be right.
        let kernel = BlurKernel(threads: 2, gaussianPasses: passes)
        var flat = try Image(width: 41, height: 9, fill: RGBA8(3, 200, 77, 255))
        let original = flat
        try kernel.apply(.gaussian(sigma: 30), to: &flat)
        #expect(flat == original)
        let width = 400
        var image = try Image(width: width, height: 1, fill: RGBA8(0, 0, 0, 255))
        for x in (width / 2)..<width { image.setPixel(x, 0, RGBA8(255, 255, 255, 255)) }
        let matrix = Reference.gaussianMatrix(length: width, sigma: 20.8)
        try kernel.apply(.gaussian(sigma: 20.8), to: &image)
        let worst = (0..<width).map { x in
            let expected = (0..<width).reduce(0.0) { $0 + matrix[x * width + $1] * ($1 >= width / 2 ? 255 : 0) }
            return abs(Double(image.pixel(x, 0).r) - expected)
        }.max()!
        #expect(worst <= 3, "\(passes) passes: \(worst) LSB")
    }

    @Test(arguments: sigmas)
    func naturalImageIsAbove45dBAgainstFloat64Gaussian(sigma: Double) throws {
        let image = try TestPattern.frame(width: 160, height: 120, seed: 7)
        let expected = Reference.gaussian(image, sigma: sigma)
        var blurred = image
        try kernel.apply(.gaussian(sigma: sigma), to: &blurred)
        let squared = zip(blurred.bytes, expected).reduce(0.0) { $0 + pow(Double($1.0) - $1.1, 2) }
        let psnr = 10 * log10(255 * 255 / (squared / Double(expected.count)))
        #expect(psnr >= 45, "σ \(sigma): \(psnr) dB")
    }

    @Test(arguments: sigmas)
    func gaussianCascadeHasUnitMassAndVarianceSigmaSquared(sigma: Double) {
        // Convolve the peaked stage and the extended boxes exactly and measure mass and variance.
        for passes in 3...6 {
            let kernel = Reference.cascadeKernel(sigma: sigma, passes: passes)
            let centre = Double(kernel.count - 1) / 2
            let mass = kernel.reduce(0, +)
            let variance = kernel.enumerated().reduce(0.0) { $0 + $1.1 * pow(Double($1.0) - centre, 2) }
            #expect(abs(mass - 1) < 1e-5)
            #expect(
                abs(variance / (sigma * sigma) - 1) < 0.005,
                "\(passes) passes: variance \(variance) for σ² \(sigma * sigma)")
        }
    }

    @Test(arguments: sigmas)
    func twoDimensionalFeatureIsWithinThreeLSBOfFloat64Gaussian(sigma: Double) throws {
        // Boxes alone are lighter-tailed than a Gaussian; where a vertical edge meets a bar both
        // axes' errors add up (three plain boxes: 4.4 / 4.2 / 5.7 LSB at σ 10.2 / 20.8 / 50.5).
        // The feature sits once inside and once against the corner, so the replicated border
        // counts too.
        for origin in [(40, 80), (0, 0)] {
            let image = try Reference.edgeAndBar(barX: origin.0, barY: origin.1)
            let expected = Reference.gaussianEdgeAndBar(barX: origin.0, barY: origin.1, sigma: sigma)
            var blurred = image
            try kernel.apply(.gaussian(sigma: sigma), to: &blurred)
            var worst = 0.0
            for p in 0..<(image.width * image.height) {
                for c in 0..<3 { worst = max(worst, abs(Double(blurred.bytes[4 * p + c]) - expected[p])) }
            }
            #expect(worst <= 3, "σ \(sigma), bar at \(origin): \(worst) LSB")
        }
    }

    @Test(arguments: [(25, 2), (50, 2), (100, 3), (9, 3), (4, 1)])
    func boxesEqualNaiveClampedReferenceExactly(size: Int, times: Int) throws {
        for channels in [4, 1] {
            let image = Reference.random(width: 61, height: 37, channels: channels, seed: UInt64(size * 10 + times))
            var blurred = image
            try kernel.apply(.boxes(size: size, times: times), to: &blurred)
            #expect(blurred == Reference.boxes(image, size: size, times: times), "\(size)x\(times), \(channels) ch")
        }
    }

    @Test func boxImpulseVarianceIsExactlyNTimesDSquaredMinusOneOverTwelve() {
        // The integer cascade's kernel, as the kernel sums it: (1 + … + 1)^n.
        for (d, n) in [(25, 2), (51, 2), (101, 3)] {
            var kernel = [1]
            for _ in 0..<n {
                var next = [Int](repeating: 0, count: kernel.count + d - 1)
                for (i, a) in kernel.enumerated() { for j in 0..<d { next[i + j] += a } }
                kernel = next
            }
            let centre = (kernel.count - 1) / 2
            let total = kernel.reduce(0, +)
            let moment = kernel.enumerated().reduce(0) { $0 + $1.1 * ($1.0 - centre) * ($1.0 - centre) }
            #expect(total == (0..<n).reduce(1) { acc, _ in acc * d })
            #expect(moment * 12 == n * (d * d - 1) * total)
        }
    }

    @Test(arguments: [BlurMode.gaussian(sigma: 6.5), .weak, .boxes(size: 7, times: 3)])
    func blurCommutesWithTransposeWithinOneLSB(mode: BlurMode) throws {
        let image = Reference.random(width: 53, height: 31, seed: 11)
        var a = image
        try kernel.apply(mode, to: &a)
        var b = Reference.transposed(image)
        try kernel.apply(mode, to: &b)
        let back = Reference.transposed(b)
        #expect(zip(a.bytes, back.bytes).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    @Test func boxesCommuteWithHorizontalFlipExactly() throws {
        let image = Reference.random(width: 53, height: 31, seed: 12)
        var a = image
        try kernel.apply(.standard, to: &a)
        var b = Reference.flipped(image)
        try kernel.apply(.standard, to: &b)
        #expect(a == Reference.flipped(b))
    }

    @Test(arguments: sigmas)
    func opaqueImageStaysOpaqueAtTheEdges(sigma: Double) throws {
        var image = try TestPattern.frame(width: 90, height: 60)
        try kernel.apply(.gaussian(sigma: sigma), to: &image)
        #expect(stride(from: 3, to: image.bytes.count, by: 4).allSatisfy { image.bytes[$0] == 255 })
    }

    @Test(arguments: [BlurMode.gaussian(sigma: 10.2), .standard])
    func transparentNeighboursLeaveNoColourFringe(mode: BlurMode) throws {
        // Straight transparent red is (0,0,0,0) premultiplied; a white opaque square sits on it.
        var image = try Image(width: 64, height: 48)
        for y in 16..<32 { for x in 20..<44 { image.setPixel(x, y, RGBA8(255, 255, 255, 255)) } }
        try kernel.apply(mode, to: &image)
        var straight = image.bytes
        PNGCodec.unpremultiply(&straight)
        for p in 0..<(64 * 48) where straight[4 * p + 3] > 0 {
            #expect((0..<3).allSatisfy { straight[4 * p + $0] >= 254 }, "pixel \(p)")
        }
        for p in 0..<(64 * 48) { #expect((0..<3).allSatisfy { image.bytes[4 * p + $0] <= image.bytes[4 * p + 3] }) }
    }

    @Test(arguments: [BlurMode.gaussian(sigma: 20.8), .strong])
    func resultIsIdenticalForAnyThreadCountAndDirtyBuffers(mode: BlurMode) throws {
        let image = Reference.random(width: 97, height: 83, seed: 5)
        var expected = image
        try BlurKernel(threads: 1).apply(mode, to: &expected)
        let dirty = BufferPool(dirtyFill: 0xCD)
        for threads in [2, 3, 8, 16] {
            let kernel = BlurKernel(pool: dirty, threads: threads)
            for _ in 0..<2 {
                var blurred = image
                try kernel.apply(mode, to: &blurred)
                #expect(blurred == expected, "\(threads) threads")
            }
        }
    }

    @Test func pooledBuffersAreReusedOnceWarm() throws {
        let pool = BufferPool()
        let kernel = BlurKernel(pool: pool, threads: 2)
        var image = Reference.random(width: 64, height: 64, seed: 1)
        try kernel.apply(.gaussian(sigma: 5), to: &image)
        let idle = pool.idleCount
        try kernel.apply(.gaussian(sigma: 5), to: &image)
        #expect(pool.idleCount == idle)
        #expect(idle > 0)
    }

    @Test func alphaOnlyBlurMatchesTheAlphaChannelOfAnRGBABlur() throws {
        let mask = Reference.random(width: 45, height: 29, channels: 1, seed: 9)
        var rgba = try Image(width: 45, height: 29)
        for p in 0..<(45 * 29) { rgba.bytes[4 * p + 3] = mask.bytes[p] }
        for mode in [BlurMode.gaussian(sigma: 4.2), .weak] {
            var a = mask
            var b = rgba
            try kernel.apply(mode, to: &a)
            try kernel.apply(mode, to: &b)
            #expect(a.bytes == stride(from: 3, to: b.bytes.count, by: 4).map { b.bytes[$0] })
        }
    }

    @Test(arguments: [
        BlurMode.gaussian(sigma: -1), .gaussian(sigma: .nan), .gaussian(sigma: .infinity), .boxes(size: -3, times: 2),
        .boxes(size: 25, times: -1), .boxes(size: 300, times: 3),
    ])
    func invalidParametersAreRejected(mode: BlurMode) throws {
        var image = try Image(width: 4, height: 4)
        #expect(throws: RenderError.self) { try kernel.apply(mode, to: &image) }
    }
}
