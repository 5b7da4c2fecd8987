import BusSchema
import Foundation

@testable import RenderCore

/// Slow, obviously correct reference blurs the kernel is checked against.
enum Reference {
    /// A W×W matrix M so that out[i] = Σ M[i][j]·in[j] is a Gaussian (±8σ, float64) over a line
    /// padded by replicated edge pixels (taps beyond the ends land on the end pixels).
    static func gaussianMatrix(length: Int, sigma: Double) -> [Double] {
        let reach = Int((8 * sigma).rounded(.up))
        var taps = (-reach...reach).map { k in exp(-Double(k * k) / (2 * sigma * sigma)) }
        let total = taps.reduce(0, +)
        taps = taps.map { $0 / total }
        var matrix = [Double](repeating: 0, count: length * length)
        for i in 0..<length {
            for k in -reach...reach {
                let j = min(max(i + k, 0), length - 1)
                matrix[i * length + j] += taps[k + reach]
            }
        }
        return matrix
    }

    /// The clamp-padded float64 Gaussian of a whole image, unrounded, separable.
    static func gaussian(_ image: Image, sigma: Double) -> [Double] {
        let (w, h, c) = (image.width, image.height, image.channels)
        let mx = gaussianMatrix(length: w, sigma: sigma)
        let my = gaussianMatrix(length: h, sigma: sigma)
        var rows = [Double](repeating: 0, count: w * h * c)
        for y in 0..<h {
            for x in 0..<w {
                for ch in 0..<c {
                    var s = 0.0
                    for j in 0..<w { s += mx[x * w + j] * Double(image.bytes[(y * w + j) * c + ch]) }
                    rows[(y * w + x) * c + ch] = s
                }
            }
        }
        var out = [Double](repeating: 0, count: w * h * c)
        for y in 0..<h {
            for x in 0..<w {
                for ch in 0..<c {
                    var s = 0.0
                    for j in 0..<h { s += my[y * h + j] * rows[(j * w + x) * c + ch] }
                    out[(y * w + x) * c + ch] = s
                }
            }
        }
        return out
    }

    /// The 320×240 opaque 2-D feature of the accuracy table: black, the right half white, and a
    /// white 60×80 bar with its top left corner at (`barX`, `barY`).
    static func edgeAndBar(barX: Int, barY: Int) throws -> Image {
        var image = try Image(width: 320, height: 240, fill: RGBA8(0, 0, 0, 255))
        for y in 0..<240 {
            for x in 0..<320 where x >= 160 || ((barX..<barX + 60).contains(x) && (barY..<barY + 80).contains(y)) {
                image.setPixel(x, y, RGBA8(255, 255, 255, 255))
            }
        }
        return image
    }

    /// The float64 Gaussian of ``edgeAndBar(barX:barY:)``, one value per pixel. Rows are of
    /// two kinds (through the bar or not), so by linearity the result is the blurred row
    /// without the bar plus the bar's blurred row difference weighted by the blurred bar rows.
    static func gaussianEdgeAndBar(barX: Int, barY: Int, sigma: Double) -> [Double] {
        let (w, h) = (320, 240)
        let mx = gaussianMatrix(length: w, sigma: sigma)
        let my = gaussianMatrix(length: h, sigma: sigma)
        func blurred(_ line: [Double], _ matrix: [Double]) -> [Double] {
            (0..<line.count).map { i in (0..<line.count).reduce(0.0) { $0 + matrix[i * line.count + $1] * line[$1] } }
        }
        let plain = blurred((0..<w).map { $0 >= w / 2 ? 255 : 0 }, mx)
        let barred = blurred((0..<w).map { $0 >= w / 2 || (barX..<barX + 60).contains($0) ? 255 : 0 }, mx)
        let weight = blurred((0..<h).map { (barY..<barY + 80).contains($0) ? 1 : 0 }, my)
        return (0..<(w * h)).map { p in plain[p % w] + (barred[p % w] - plain[p % w]) * weight[p / w] }
    }

    /// The 1-D kernel the gaussian mode runs with `passes` boxes, convolved out in float64.
    static func cascadeKernel(sigma: Double, passes: Int) -> [Double] {
        guard case .extended(let box, let times, let peak) = BoxCascade(.gaussian(sigma: sigma), gaussianPasses: passes)
        else { return [] }
        func taps(_ box: ExtendedBox) -> [Double] {
            (-(box.l + 1)...(box.l + 1)).map { abs($0) == box.l + 1 ? Double(box.alpha) : 1 }
        }
        var first = taps(peak.box)
        first[peak.box.l + 1] += Double(peak.centre)
        var kernel = first.map { $0 / Double(peak.weight) }
        for _ in 0..<times {
            let step = taps(box)
            let weight = step.reduce(0, +)
            var next = [Double](repeating: 0, count: kernel.count + step.count - 1)
            for (i, a) in kernel.enumerated() { for (j, b) in step.enumerated() { next[i + j] += a * b / weight } }
            kernel = next
        }
        return kernel
    }

    /// SABlur boxes, naively: `times` sums of width 2r+1 with the edge clamped at every pass,
    /// exact integers per axis, rounded once per axis (rows first).
    static func boxes(_ image: Image, size: Int, times: Int) -> Image {
        let r = size / 2
        let divisor = (0..<times).reduce(1) { acc, _ in acc * (2 * r + 1) }
        func line(_ values: [Int]) -> [Int] {
            var current = values
            for _ in 0..<times {
                current = current.indices.map { i in
                    (-r...r).reduce(0) { $0 + current[min(max(i + $1, 0), current.count - 1)] }
                }
            }
            return current.map { ($0 + divisor / 2) / divisor }
        }
        let (w, h, c) = (image.width, image.height, image.channels)
        var mid = image.bytes.map(Int.init)
        for y in 0..<h {
            for ch in 0..<c {
                let out = line((0..<w).map { mid[(y * w + $0) * c + ch] })
                for x in 0..<w { mid[(y * w + x) * c + ch] = out[x] }
            }
        }
        for x in 0..<w {
            for ch in 0..<c {
                let out = line((0..<h).map { mid[($0 * w + x) * c + ch] })
                for y in 0..<h { mid[(y * w + x) * c + ch] = out[y] }
            }
        }
        return try! Image(width: w, height: h, channels: c, bytes: mid.map { UInt8($0) })
    }

    /// A random premultiplied image (or alpha mask) from a fixed seed.
    static func random(width: Int, height: Int, channels: Int = 4, seed: UInt64) -> Image {
        var generator = SplitMix64(seed: seed)
        var bytes = [UInt8](repeating: 0, count: width * height * channels)
        for p in 0..<(width * height) {
            let word = generator.next()
            if channels == 1 {
                bytes[p] = UInt8(word & 0xFF)
                continue
            }
            let a = UInt8(word >> 56)
            bytes[4 * p + 3] = a
            for k in 0..<3 { bytes[4 * p + k] = UInt8(((word >> (8 * k)) & 0xFF) % (UInt64(a) + 1)) }
        }
        return try! Image(width: width, height: height, channels: channels, bytes: bytes)
    }

    /// A `width`×`height` image holding the pixel at (x, y) of `image` at pixel index `target(x, y)`.
    static func moved(_ image: Image, width: Int, height: Int, to target: (Int, Int) -> Int) -> Image {
        let (w, h, c) = (image.width, image.height, image.channels)
        var bytes = [UInt8](repeating: 0, count: image.bytes.count)
        for y in 0..<h {
            for x in 0..<w {
                let p = target(x, y)
                for ch in 0..<c { bytes[p * c + ch] = image.bytes[(y * w + x) * c + ch] }
            }
        }
        return try! Image(width: width, height: height, channels: c, bytes: bytes)
    }

    /// The image mirrored about its main diagonal.
    static func transposed(_ image: Image) -> Image {
        Self.moved(image, width: image.height, height: image.width) { x, y in x * image.height + y }
    }

    /// The image mirrored left to right.
    static func flipped(_ image: Image) -> Image {
        Self.moved(image, width: image.width, height: image.height) { x, y in y * image.width + (image.width - 1 - x) }
    }
}
