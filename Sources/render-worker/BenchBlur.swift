import RenderCore
import ServiceSupport

/// `render-worker bench-blur`: times the blur on a synthetic frame and prints one JSON object.
enum BenchBlur {
    static func run(_ options: inout Options) throws -> String {
        let width = try options.int("width", in: 1...Image.maxSide, default: 1920)
        let height = try options.int("height", in: 1...Image.maxSide, default: 1080)
        let runs = try options.int("runs", in: 1...10_000, default: 21)
        let warmup = try options.int("warmup", in: 0...1000, default: 3)
        let threads = try options.int("threads", in: 1...64, default: 2)
        let passes = try options.int("passes", in: 3...6, default: 3)
        guard let sigma = try options.double("sigma", in: 0...2000) else {
            throw UsageError("missing --sigma")
        }
        let kernel = BlurKernel(threads: threads, gaussianPasses: passes)
        let source = try TestPattern.frame(width: width, height: height)
        var image = source
        var times: [Double] = []
        for run in 0..<(warmup + runs) {
            image.bytes.withUnsafeMutableBytes { target in
                source.bytes.withUnsafeBytes { target.copyMemory(from: $0) }
            }
            let start = ContinuousClock.now
            try kernel.apply(.gaussian(sigma: sigma), to: &image)
            let elapsed = ContinuousClock.now - start
            if run >= warmup {
                let (seconds, attoseconds) = elapsed.components
                times.append(Double(seconds) * 1e3 + Double(attoseconds) * 1e-15)
            }
        }
        times.sort()
        let median = times[times.count / 2]
        let checksum = image.bytes.reduce(UInt64(0)) { $0 &* 31 &+ UInt64($1) }
        return "{\"width\":\(width),\"height\":\(height),\"sigma\":\(sigma),\"threads\":\(threads),"
            + "\"passes\":\(passes),\"runs\":\(runs),\"median_ms\":\(rounded(median)),\"min_ms\":\(rounded(times[0])),"
            + "\"max_ms\":\(rounded(times[times.count - 1])),\"checksum\":\(checksum)}"
    }

    private static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
