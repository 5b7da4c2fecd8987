import BusSchema
import RenderCore
import RenderService
import ServiceSupport

/// `render-worker demo OUT.png [--scene FILE] [--memos N] [--scale S] [--runs N] [--threads T]`:
/// renders a demo frame, writes it and prints timings and the renderer's counts. Without
/// `--scene` it is the small golden scene (shadows, inner shadow, region blur, rotated Japanese
/// memo); with it, the frame the live worker draws for that scene before any state arrives,
/// its memo board holding `--memos` memos scattered over and beyond it.
enum DemoCommand {
    static func run(_ options: inout Options) throws -> String {
        guard options.positionals.count == 2 else { throw UsageError("demo needs OUT.png") }
        let runs = try options.int("runs", in: 1...1000, default: 11)
        let renderer = LayerRenderer(
            blur: BlurKernel(threads: try options.int("threads", in: 1...64, default: 2)),
            font: try FontFace.systemJapanese())
        let (size, root): (Size, Layer)
        if let path = options.string("scene") {
            (size, root) = try liveScene(path, memos: try options.int("memos", in: 0...100_000, default: 0))
        } else {
            guard options.string("memos") == nil else {
                throw UsageError("--memos needs --scene (the board it fills)")
            }
            (size, root) = (DemoScene.size, DemoScene.root())
        }
        let scale = try options.double("scale", in: 0.25...8) ?? (options.string("scene") == nil ? 2 : 1)
        let width = Int((size.width * scale).rounded())
        let height = Int((size.height * scale).rounded())
        func timed(_ draw: () throws -> Image) rethrows -> (Image, Double) {
            let start = ContinuousClock.now
            let image = try draw()
            let (seconds, attoseconds) = (ContinuousClock.now - start).components
            return (image, Double(seconds) * 1e3 + Double(attoseconds) * 1e-15)
        }
        // The first frame fills the renderer's caches (glyphs, text, shadows, kept groups).
        var (image, firstMs) = try timed { try renderer.render(root, width: width, height: height, scale: scale) }
        let first = renderer.lastStatistics
        var times: [Double] = []
        for _ in 0..<runs {
            let (next, ms) = try timed { try renderer.render(root, width: width, height: height, scale: scale) }
            image = next
            times.append(ms)
        }
        try Files.writeAtomically(try PNGCodec.encode(image), to: options.positionals[1])
        times.sort()
        let warm = renderer.lastStatistics
        return "{\"width\":\(width),\"height\":\(height),\"runs\":\(runs),\"median_ms\":\(times[runs / 2]),"
            + "\"min_ms\":\(times[0]),\"first_ms\":\(firstMs),\"layers_drawn\":\(warm.layersDrawn),\"layers_culled\":\(warm.layersCulled),"
            + "\"offscreen_groups\":\(warm.offscreenGroups),\"largest_offscreen_px\":\(warm.largestOffscreenPixels),"
            + "\"first_offscreen_allocations\":\(first.offscreenAllocations),"
            + "\"warm_offscreen_allocations\":\(warm.offscreenAllocations),\"warm_text_hits\":\(warm.textCacheHits),"
            + "\"warm_text_misses\":\(warm.textCacheMisses),\"warm_shadow_hits\":\(warm.shadowCacheHits),"
            + "\"warm_shadow_misses\":\(warm.shadowCacheMisses),\"warm_group_hits\":\(warm.groupCacheHits)}"
    }

    /// The live worker's layers for the scene file, with `memos` store memos on its board.
    static func liveScene(_ path: String, memos: Int) throws -> (Size, Layer) {
        var scene = RenderScene(scene: try SceneFile.load(path))
        for change in BoardFixture.changes(count: memos) { try scene.applyMemoChange(change) }
        guard let layers = try scene.layers(atMs: 0) else {
            throw UsageError("\(path) has no scene to draw")
        }
        return layers
    }
}
