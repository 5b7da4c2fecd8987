import Glibc

extension Image {
    /// Peak signal-to-noise ratio of the colour channels of two four-channel images of the same
    /// size, in dB (how close a lossy encoding came; identical images give about 120 dB).
    public func psnr(_ other: Image) -> Double {
        precondition(self.channels == 4 && other.channels == 4 && self.bytes.count == other.bytes.count)
        var squared = 0.0
        for i in stride(from: 0, to: self.bytes.count, by: 4) {
            for c in 0..<3 {
                let d = Double(self.bytes[i + c]) - Double(other.bytes[i + c])
                squared += d * d
            }
        }
        let mean = squared / Double(self.width * self.height * 3)
        return 10 * log10(255 * 255 / max(mean, 1e-12))
    }
}
