import BusSchema
import ComponentCore
import Foundation

/// `component-host`: runs the component state machines of a scene.
///
/// Offline mode (no bus): `component-host replay --scene S --gestures FILE` prints every
/// component state as a JSON line; time comes from the file. Unusable lines go to stderr with
/// their numbers and are skipped.
@main
struct ComponentHostTool {
    static let usage = "usage: component-host replay --scene SCENE.json --gestures FILE.jsonl"

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.first == "replay" else { Self.fail(Self.usage) }
        var named: [String: String] = [:]
        var index = 1
        while index + 1 < arguments.count, arguments[index].hasPrefix("--") {
            named[arguments[index]] = arguments[index + 1]
            index += 2
        }
        guard index == arguments.count, let scenePath = named["--scene"], let gestures = named["--gestures"] else {
            Self.fail(Self.usage)
        }
        do {
            let scene = try ComponentScene.load(json: try Self.read(scenePath), file: scenePath)
            let replay = try ComponentReplay(scene: scene, lines: try Self.read(gestures))
            for problem in replay.problems {
                FileHandle.standardError.write(Data("\(gestures): \(problem)\n".utf8))
            }
            FileHandle.standardOutput.write(Data(replay.jsonLines.utf8))
        } catch {
            Self.fail("component-host: \(error)")
        }
    }

    static func read(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw ReadError(path: path) }
        return String(decoding: data, as: UTF8.self)
    }

    struct ReadError: Error, CustomStringConvertible {
        var path: String
        var description: String { "cannot read \(self.path)" }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
}
