import BusSchema
import RenderCore
import ServiceSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The render worker: the live service on the bus (no verb), or an offline mode.
@main
enum RenderWorker {
    static let usage = """
        usage: render-worker [--bus FILE] [--cpus LIST] [--scene FILE] [--fps N] [--snapshot-every N] [--snapshot-dir DIR]
                             [--scale K] [--threads T] [--image-encoding jpeg|png] [--image-quality Q]
               render-worker blur IN.png OUT.png (--sigma S | --level weak|default|strong) [--threads T]
               render-worker bench-blur --width W --height H --sigma S --runs N [--threads T] [--passes P]
               render-worker bench-encode [--scene FILE] [--runs N]
               render-worker bench-damage [--scene FILE] [--drag pager|pull] [--runs N]
               render-worker render --scene S [--state STATE.json] OUT.png [--scale K]
               render-worker demo OUT.png [--scene FILE [--memos N]] [--scale S] [--runs N] [--threads T]
        """
    static let scene = OptionSpec.value("scene", "FILE", "the scene")
    static let scale = OptionSpec.value("scale", "K", "pixels per point (0.25…8)")
    static let threads = OptionSpec.value("threads", "T", "threads to blur with (1…64, default 2)")
    static let runs = OptionSpec.value("runs", "N", "how many times to run (the median is reported)")
    static let sigma = OptionSpec.value("sigma", "S", "the Gaussian's standard deviation in pixels")
    static let passes = OptionSpec.value("passes", "P", "box passes per axis (3…6, default 3)")
    static let commandLine = CommandLineSpec(verbs: [
        "": [
            .bus, .cpus, .value("scene", "FILE", "the scene (default deploy/scenes/demo.json)"),
            .value("fps", "N", "frames per second at most (default 60)"),
            .value("snapshot-every", "N", "write every Nth frame as a PNG"),
            .value("snapshot-dir", "DIR", "where the PNG snapshots go"), Self.scale, Self.threads,
            .value("image-encoding", "jpeg|png", "how frames for viewers are encoded (default jpeg)"),
            .value("image-quality", "Q", "JPEG quality 1…100 (default 85)"),
            .value("stop-wait", "S", "seconds a stop waits for the frame being drawn (default 10)"),
        ],
        "blur": [
            Self.sigma, .value("level", "weak|default|strong", "a blur level instead of --sigma"), Self.threads,
            Self.passes,
        ],
        "bench-blur": [
            .value("width", "W", "image width (default 1920)"), .value("height", "H", "image height (default 1080)"),
            Self.sigma, Self.runs, Self.threads, .value("warmup", "N", "runs before timing (default 3)"), Self.passes,
        ],
        "bench-encode": [Self.scene, Self.runs],
        "bench-damage": [
            Self.scene, .value("drag", "pager|pull", "a pager swipe or a pull-to-refresh (default pager)"), Self.runs,
        ],
        "render": [Self.scene, .value("state", "STATE.json", "a component state to draw"), Self.scale],
        "demo": [
            Self.scene, .value("memos", "N", "memos on the board (with --scene)"), Self.scale, Self.runs, Self.threads,
        ],
    ])

    static func main() {
        let missing = CPUCheck.missing()
        if !missing.isEmpty {
            fail(
                "render-worker: this release build needs a CPU with \(CPUCheck.required.joined(separator: ", "))"
                    + " (x86-64-v3); missing \(missing.joined(separator: ", ")). Build with `swift build` (debug)"
                    + " or drop -target-cpu from RenderCore in Package.swift.", status: 1)
        }
        Tool.main("render-worker", usage: usage) {
            var options = try Self.commandLine.parse(Array(CommandLine.arguments.dropFirst()))
            switch options.verb {
            // Signals are blocked for the service only, before any thread starts.
            case "": try LiveCommand.run(&options, signals: SignalWatcher())
            case "blur": try BlurCommand.run(&options)
            case "bench-blur": Log.out(try BenchBlur.run(&options))
            case "bench-encode": Log.out(try BenchEncode.run(&options))
            case "bench-damage": Log.out(try BenchDamage.run(&options))
            case "demo": Log.out(try DemoCommand.run(&options))
            default: try RenderCommand.run(&options)
            }
        }
    }

    static func fail(_ message: String, status: Int32) -> Never {
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        exit(status)
    }
}
