import BusSchema
import RenderCore
import RenderService
import ServiceSupport

/// `render-worker bench-damage [--scene FILE] [--drag pager|pull] [--runs N]`: what one frame of
/// a drag costs the render worker, phase by phase. Draws the live worker's frame of the scene
/// (default `deploy/scenes/demo.json`), then N times a drag one way and back (60 states, as
/// `benchmarks/view/run`'s steady drag sends: a pager swipe, or a pull-to-refresh header pulled
/// past its threshold with the table under it) the way the live worker does: the damage between
/// the layer trees, the frame drawn within it over the one before (in place, finding the pixels
/// that changed), the frame's checksum brought up to date, and the changed pixels' tiles
/// encoded (PNG up to 128 × 128 pixels, JPEG q85 above).
/// Prints one JSON line: the median ms per frame of each phase and of all, the tiles' bytes.
enum BenchDamage {
    static func run(_ options: inout Options) throws -> String {
        let runs = try options.int("runs", in: 1...1000, default: 5)
        let path = options.string("scene") ?? "deploy/scenes/demo.json"
        let file = try SceneFile.load(path)
        var scene = RenderScene(scene: file)
        let drag = options.string("drag") ?? "pager"
        guard let kind = (["pager": .pager, "pull": .pullToRefresh] as [String: Scene.Component.Kind])[drag] else {
            throw UsageError("--drag takes pager or pull, not '\(drag)'")
        }
        guard let instance = file.views.first(where: { $0.component?.kind == kind })?.component?.id
        else { throw UsageError("\(path) has no \(kind) to drag") }
        let renderer = LayerRenderer(font: try FontFace.systemJapanese())
        let jpeg = try JPEGEncoder()
        /// The drag's state at `progress` (0…1): the pager `progress` pages along, or the header
        /// pulled `progress` × 100 points (past the threshold at 80, where its arrow turns).
        func layers(offset progress: Double) throws -> (width: Int, height: Int, root: Layer) {
            let pulled = progress * 100
            let state = try JSONReader.parse(
                kind == .pager
                    ? """
                    {"instance":"\(instance)","t_ms":0,"page":0,"page_count":5,"header_offset":0,"progress":0,
                     "loading":false,"page_offset":\(progress),"pull_offset":0,"scroll_offset":0,"label":""}
                    """
                    : """
                    {"instance":"\(instance)","t_ms":0,"phase":"\(pulled < 80 ? "pullingDown" : "overThreshold")",
                     "offset":\(pulled),"threshold":80,"label":"","arrow_angle":\(pulled < 80 ? 0 : Double.pi),
                     "header_height":60}
                    """)
            _ = try scene.applyState(state, atMs: 0)
            guard let (size, root) = try scene.layers(atMs: 0) else { throw UsageError("\(path) draws nothing") }
            return (Int(size.width.rounded()), Int(size.height.rounded()), root)
        }
        var last = try layers(offset: 0)
        var frame = try renderer.render(last.root, width: last.width, height: last.height)
        var digest = FrameDigest(of: frame)
        // One way in 30 steps, and back.
        let swipe = (1...30).map { Double($0) / 30 }
        var times: [String: [Double]] = [:]
        var bytes = 0
        var frames = 0
        for _ in 0..<runs {
            for offset in swipe + swipe.reversed().dropFirst() + [0] {
                let next = try layers(offset: offset)
                var total = 0.0
                func phase<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
                    let (value, ms) = try BenchEncode.timed(body)
                    times[name, default: []].append(ms)
                    total += ms
                    return value
                }
                let damage = try phase("diff") {
                    try LayerRenderer.damage(
                        from: last.root, to: next.root, width: next.width, height: next.height, scale: 1,
                        maximumCount: RenderTiles.maximumTiles) ?? { throw UsageError("unbounded damage") }()
                }
                let changed = try phase("draw") {
                    try renderer.render(
                        next.root, width: next.width, height: next.height, over: &frame, damage: damage)
                }
                _ = phase("checksum") {
                    digest.update(frame, within: changed)
                    return digest.checksum
                }
                bytes += try phase("encode") {
                    try PixelRect.merged(changed, maximumCount: RenderTiles.maximumTiles).reduce(0) { sum, rect in
                        let tile = try frame.cropped(to: rect)
                        let data =
                            rect.width * rect.height <= 128 * 128
                            ? try PNGCodec.encode(tile) : try jpeg.encode(tile, quality: 85)
                        return sum + data.count
                    }
                }
                times["frame", default: []].append(total)
                (last, frames) = (next, frames + 1)
            }
        }
        func median(_ name: String) -> Double {
            let sorted = times[name]!.sorted()
            return (sorted[sorted.count / 2] * 1000).rounded() / 1000
        }
        var fields = ["\"width\":\(frame.width)", "\"height\":\(frame.height)", "\"frames\":\(frames)"]
        for name in ["diff", "draw", "checksum", "encode", "frame"] {
            fields.append("\"\(name)_ms\":\(median(name))")
        }
        fields.append("\"tile_bytes_per_frame\":\(bytes / max(frames, 1))")
        return "{" + fields.joined(separator: ",") + "}"
    }
}
