import RenderCore

/// `render-worker demo OUT.png [--scale S] [--runs N] [--threads T]`: renders the demo frame
/// (shadows, inner shadow, region blur, rotated Japanese memo), writes it and prints timings.
enum DemoCommand {
    static func run(_ options: Options) throws -> String {
        try options.check(allowed: ["scale", "runs", "threads"])
        guard options.positional.count == 1 else { throw Options.UsageError(description: "demo needs OUT.png") }
        let scale = try options.double("scale", in: 0.25...8) ?? 2
        let runs = try options.int("runs", in: 1...1000, default: 11)
        let renderer = LayerRenderer(
            blur: BlurKernel(threads: try options.int("threads", in: 1...64, default: 2)),
            font: try FontFace.systemJapanese())
        let width = Int(DemoScene.size.width * scale)
        let height = Int(DemoScene.size.height * scale)
        var image = try renderer.render(DemoScene.root(), width: width, height: height, scale: scale)
        var times: [Double] = []
        for _ in 0..<runs {
            let start = ContinuousClock.now
            image = try renderer.render(DemoScene.root(), width: width, height: height, scale: scale)
            let (seconds, attoseconds) = (ContinuousClock.now - start).components
            times.append(Double(seconds) * 1e3 + Double(attoseconds) * 1e-15)
        }
        try Files.writeAtomically(try PNGCodec.encode(image), to: options.positional[0])
        times.sort()
        return "{\"width\":\(width),\"height\":\(height),\"runs\":\(runs),\"median_ms\":\(times[runs / 2]),"
            + "\"min_ms\":\(times[0])}"
    }
}
