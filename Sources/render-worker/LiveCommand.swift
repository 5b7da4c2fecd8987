import BusSchema
import RenderService
import ServiceSupport

/// `render-worker [--bus FILE] [--cpus LIST] [--scene FILE] [--fps N] [--snapshot-every N] [--snapshot-dir DIR]
/// [--scale K] [--threads T] [--image-encoding jpeg|png] [--image-quality Q] [--stop-wait S]`: the live worker on the bus
/// (see ``RenderService``); frames for viewers on `render/image/main/` as JPEG at quality 85 by default.
enum LiveCommand {
    static func run(_ options: inout ServiceSupport.Options, signals: SignalWatcher) throws {
        let config = try Tool.serviceBusConfig(&options, tool: "render-worker")
        let scene = try options.string("scene").map(SceneFile.load)
        var configuration = RenderService.Configuration(scene: scene)
        if let fps = try options.double("fps") {
            guard fps > 0, fps <= 1000 else { throw UsageError("--fps must be in (0, 1000], not \(fps)") }
            configuration.framesPerSecond = fps
        }
        if let every = try options.int("snapshot-every") {
            guard every > 0 else { throw UsageError("--snapshot-every must be at least 1, not \(every)") }
            configuration.snapshotEvery = every
        }
        if let directory = options.string("snapshot-dir") { configuration.snapshotDirectory = directory }
        if let wait = try options.double("stop-wait") {
            guard wait >= 0, wait <= 3600 else { throw UsageError("--stop-wait must be in 0...3600 s, not \(wait)") }
            configuration.stopWaitSeconds = wait
        }
        if let scale = try options.double("scale") {
            guard scale >= 0.25, scale <= 8 else { throw UsageError("--scale must be in 0.25...8, not \(scale)") }
            configuration.scale = scale
        }
        if let threads = try options.int("threads") {
            guard (1...64).contains(threads) else { throw UsageError("--threads must be in 1...64, not \(threads)") }
            configuration.threads = threads
        }
        if let encoding = options.string("image-encoding") {
            guard let chosen = RenderImage.Encoding(rawValue: encoding) else {
                throw UsageError("--image-encoding must be jpeg or png, not \(encoding)")
            }
            configuration.imageEncoding = chosen
        }
        if let quality = try options.int("image-quality") {
            guard (1...100).contains(quality) else {
                throw UsageError("--image-quality must be in 1...100, not \(quality)")
            }
            configuration.imageQuality = quality
        }
        try options.finish(maximumPositionals: 0)
        let runner = try ServiceRunner(name: "render-worker", config: config, signals: signals)
        try RenderService(runner: runner, configuration: configuration).run()
    }
}
