import BusSchema
import ComponentCore
import ComponentHost
import Foundation
import ServiceSupport

/// `component-host`: runs the component state machines of a scene.
///
/// - `component-host [--bus FILE] [--cpus LIST] [--scene FILE]` (default `deploy/scenes/demo.json`): the live
///   service; prints `ready` once it can work and stops cleanly on SIGTERM.
/// - `component-host replay --scene S --gestures FILE`: offline, prints every component state
///   as a JSON line; time comes from the file. Unusable lines go to stderr with their numbers.
@main
struct ComponentHostTool {
    static let usage = """
        usage: component-host [--bus FILE] [--cpus LIST] [--scene FILE]
               component-host replay --scene SCENE.json --gestures FILE.jsonl
        """

    static func main() {
        let signals = SignalWatcher()
        Tool.main("component-host", usage: Self.usage) {
            var options = try Options(Array(CommandLine.arguments.dropFirst()))
            if options.positionals.first == "replay" {
                guard let scenePath = options.string("scene"), let gestures = options.string("gestures") else {
                    throw UsageError("replay needs --scene and --gestures")
                }
                try options.finish(maximumPositionals: 1)
                try Self.replay(scenePath: scenePath, gestures: gestures)
                return
            }
            let config = try Tool.busConfig(&options)
            try Tool.placeOnCPUs(options.string("cpus"), tool: "component-host")
            let scenePath = options.string("scene") ?? "deploy/scenes/demo.json"
            try options.finish(maximumPositionals: 0)
            let scene = try Self.scene(scenePath)
            let runner = try ServiceRunner(name: "component-host", config: config, signals: signals)
            try ComponentHostService(runner: runner, scene: scene).run()
        }
    }

    static func replay(scenePath: String, gestures: String) throws {
        let replay = try ComponentReplay(scene: try Self.scene(scenePath), lines: try Self.read(gestures))
        for problem in replay.problems {
            FileHandle.standardError.write(Data("\(gestures): \(problem)\n".utf8))
        }
        FileHandle.standardOutput.write(Data(replay.jsonLines.utf8))
    }

    /// Loads a scene; a bad one is a configuration error (restarting will not help).
    static func scene(_ path: String) throws -> ComponentScene {
        do {
            return try ComponentScene.load(json: try Self.read(path), file: path)
        } catch let error as ComponentSceneError {
            throw ConfigurationError("\(error)")
        }
    }

    static func read(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("cannot read \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
