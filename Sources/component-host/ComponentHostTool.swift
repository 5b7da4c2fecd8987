import BusSchema
import ComponentCore
import ComponentService
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
    static let commandLine = CommandLineSpec(verbs: [
        "": [.bus, .cpus, .value("scene", "FILE", "the scene (default deploy/scenes/demo.json)")],
        "replay": [
            .value("scene", "FILE", "the scene"), .value("gestures", "FILE", "gesture events as JSON lines"),
        ],
    ])

    static func main() {
        let signals = SignalWatcher()
        Tool.main("component-host", usage: Self.usage) {
            var options = try Self.commandLine.parse(Array(CommandLine.arguments.dropFirst()))
            if options.verb == "replay" {
                guard let scenePath = options.string("scene"), let gestures = options.string("gestures") else {
                    throw UsageError("replay needs --scene and --gestures")
                }
                try options.finish(maximumPositionals: 1)
                try Self.replay(scenePath: scenePath, gestures: gestures)
                return
            }
            let config = try Tool.serviceBusConfig(&options, tool: "component-host")
            let scenePath = options.string("scene") ?? "deploy/scenes/demo.json"
            try options.finish(maximumPositionals: 0)
            let scene = ComponentScene(try SceneFile.load(scenePath))
            let runner = try ServiceRunner(name: "component-host", config: config, signals: signals)
            try ComponentHostService(runner: runner, scene: scene).run()
        }
    }

    /// Streams `gestures` through a host line by line, printing each state as it is published:
    /// memory stays bounded whatever the file's size.
    static func replay(scenePath: String, gestures: String) throws {
        var replay = ComponentReplay(scene: ComponentScene(try SceneFile.load(scenePath)))
        let output = LineWriter()
        func print(_ outputs: [HostOutput]) throws {
            for case .state(let state) in outputs { try output.write(line: state.payload.json) }
        }
        try LineReader.forEachLine(of: gestures, tool: "component-host") { text, number in
            let added = replay.add(text, lineNumber: number)
            if let problem = added.problem { Log.error("component-host", "\(gestures): \(problem)") }
            try print(added.outputs)
        }
        try print(replay.finish())
        try output.flush()
    }

}
