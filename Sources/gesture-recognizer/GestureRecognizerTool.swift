import Bus
import BusSchema
import Foundation
import GestureCore
import GestureService
import InputCore
import ServiceSupport

/// `gesture-recognizer`: recognizes gestures in touch frames.
///
/// Service: `gesture-recognizer [--bus FILE] [--cpus LIST] [--scene FILE] [--devices PREFIX,…]` subscribes
/// `touch/` (only `touch/<PREFIX>` for each prefix given, to shard devices between recognizers)
/// and `ui/scene/`, and publishes on `gesture/<device>/<view>/<recognizer>/`; see ``GestureService``.
///
/// Offline mode (no bus): `gesture-recognizer replay --touches FILE [--scene S] [--desc D]`
/// prints gesture events as JSON lines. FILE is a touch script (`.jsonl`) or an evemu recording
/// (`.events`, mapped onto the scene's size; its `.desc` is found next to it). With no scene: one
/// full-screen view, every standard recognizer, all simultaneous. Time comes from the file.
/// Problems in the input go to stderr with their line numbers.
@main
struct GestureRecognizerTool {
    static let usage = """
        usage: gesture-recognizer [--bus FILE] [--cpus LIST] [--scene FILE] [--device-prefixes PREFIX[,PREFIX…]]
               gesture-recognizer replay --touches FILE.jsonl|FILE.events [--scene S] [--desc D]
        """
    static let scene = OptionSpec.value("scene", "FILE", "the scene (default: one full-screen view, every recognizer)")
    static let commandLine = CommandLineSpec(verbs: [
        "": [
            .bus, .cpus, Self.scene,
            .value("device-prefixes", "PREFIX,…", "only these devices' touches (touch/<PREFIX>…; end with / for one)"),
        ],
        "replay": [
            .value("touches", "FILE", "a touch script (.jsonl) or an evemu recording (.events)"), Self.scene,
            .value("desc", "FILE", "the recording's device description (default: found next to it)"),
        ],
    ])

    static func main() {
        let signals = SignalWatcher()
        Tool.main("gesture-recognizer", usage: Self.usage) {
            var options = try Self.commandLine.parse(Array(CommandLine.arguments.dropFirst()))
            let scene = try options.string("scene").map { GestureScene(try SceneFile.load($0)) }
            switch options.verb {
            case "":
                let config = try Tool.serviceBusConfig(&options, tool: "gesture-recognizer")
                let devices = try Self.devicePrefixes(options.string("device-prefixes"))
                try options.finish(maximumPositionals: 0)
                let runner = try ServiceRunner(name: "gesture-recognizer", config: config, signals: signals)
                try GestureService(runner: runner, scene: scene ?? GestureScene.standard(), devicePrefixes: devices)
                    .run()
            case "replay":
                let touches = options.string("touches")
                let descPath = options.string("desc")
                try options.finish(maximumPositionals: 1)
                guard let touches else { throw UsageError("replay needs --touches FILE") }
                try Self.replay(touches: touches, scene: scene, descPath: descPath)
            default:
                throw UsageError("unknown verb '\(options.verb)'")
            }
        }
    }

    /// The prefixes of `--device-prefixes a,b`: every device if absent. (`--devices` is a count in every tool.)
    static func devicePrefixes(_ text: String?) throws -> [String] {
        guard let text else { return [""] }
        let prefixes = text.split(separator: ",").map(String.init)
        if prefixes.isEmpty || prefixes.contains(where: { $0.isEmpty || $0.hasPrefix("/") }) {
            throw UsageError("--device-prefixes takes device name prefixes separated by commas, not '\(text)'")
        }
        return prefixes
    }

    static func replay(touches path: String, scene: GestureScene?, descPath: String?) throws {
        var engine = GestureEngine(scene: scene ?? GestureScene.standard())
        let output = LineWriter()
        var frames = 0
        var problems = 0
        func publish(_ effects: [GestureEngine.Effect]) throws {
            for case .publish(let event) in effects { try output.write(line: event.value.json) }
        }
        func feed(_ frame: TouchFrame) throws {
            frames += 1
            try publish(engine.handle(.frameArrived(frame)))
        }
        // The first ten problems are shown; a file of nothing but problems is not a touch input.
        func report(_ problem: Any) {
            problems += 1
            if problems <= Self.problemsShown { Log.error("gesture-recognizer", "\(path): \(problem)") }
        }
        if path.hasSuffix(".events") {
            let desc =
                descPath
                ?? OfflineConversion.descCandidates(for: path).first {
                    FileManager.default.fileExists(atPath: $0)
                }
            let converted = OfflineConversion.frames(
                evemu: try TextFile.read(path), desc: try desc.map { try TextFile.read($0) },
                sceneWidth: scene?.width, sceneHeight: scene?.height)
            for problem in converted.problems { report(problem) }
            for frame in converted.frames { try feed(frame) }
        } else {
            // A touch script streams: a line in, its frames through the engine, their events out.
            var stream = TouchScriptStream(bounds: scene.map { ($0.width, $0.height) })
            try LineReader.forEachLine(of: path, tool: "gesture-recognizer") { text, number in
                let added = stream.add(text, lineNumber: number)
                if let problem = added.problem { report(problem) }
                for frame in added.frames { try feed(frame) }
            }
            for frame in stream.finish() { try feed(frame) }
        }
        if problems > Self.problemsShown {
            Log.error("gesture-recognizer", "\(path): … and \(problems - Self.problemsShown) more problems")
        }
        if frames == 0 && problems > 0 {
            throw ConfigurationError(
                "\(path): no touch frame in it (\(problems) problems); --touches takes a touch script "
                    + "(.jsonl) or an evemu recording (.events, its .desc next to it or given with --desc)")
        }
        while let deadline = engine.nextDeadline { try publish(engine.handle(.timeElapsed(deadline))) }
        try output.flush()
    }

    /// How many problems of an input file `replay` prints before it only counts them.
    static let problemsShown = 10

}
