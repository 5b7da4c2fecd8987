import BusSchema

/// Deterministic synthetic images for benchmarks and accuracy checks.
public enum TestPattern {
    /// A "natural-ish" UI frame: a diagonal gradient with overlapping opaque and translucent
    /// rectangles, thin lines and mild noise; premultiplied, the same for the same size.
    public static func frame(width: Int, height: Int, seed: UInt64 = 1) throws -> Image {
        var image = try Image(width: width, height: height)
        var random = SplitMix64(seed: seed)
        image.bytes.withUnsafeMutableBufferPointer { p in
            for y in 0..<height {
                for x in 0..<width {
                    let i = 4 * (y * width + x)
                    p[i] = UInt8(40 + 120 * x / width)
                    p[i + 1] = UInt8(60 + 100 * y / height)
                    p[i + 2] = UInt8(150 + 60 * (x + y) / (width + height))
                    p[i + 3] = 255
                }
            }
            let count = 12 + (width * height) / 40_000
            for _ in 0..<count {
                let w = 1 + Int(random.next() % UInt64(max(1, width / 3)))
                let h = 1 + Int(random.next() % UInt64(max(1, height / 3)))
                let x0 = Int(random.next() % UInt64(width))
                let y0 = Int(random.next() % UInt64(height))
                let colour = random.next()
                let a = UInt32(random.next() % 2 == 0 ? 255 : 96 + colour % 128)
                let rgb = (0..<3).map { UInt32((colour >> (8 * $0)) & 0xFF) * a / 255 }
                for y in y0..<min(height, y0 + h) {
                    for x in x0..<min(width, x0 + w) {
                        let i = 4 * (y * width + x)
                        for c in 0..<3 { p[i + c] = UInt8(rgb[c] + UInt32(p[i + c]) * (255 - a) / 255) }
                    }
                }
            }
            for i in stride(from: 0, to: p.count, by: 4) {
                let noise = Int(random.next() % 9) - 4
                for c in 0..<3 { p[i + c] = UInt8(clamping: Int(p[i + c]) + noise) }
            }
        }
        return image
    }
}
