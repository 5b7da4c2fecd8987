import BusSchema
import Foundation
import GestureCore
import InputCore

/// `gesture-recognizer`: recognizes gestures in touch frames.
///
/// Offline mode (no bus): `gesture-recognizer replay --touches FILE [--scene S] [--desc D]`
/// prints gesture events as JSON lines. FILE is a touch script (`.jsonl`) or an evemu recording
/// (`.events`, mapped onto the scene's size; its `.desc` is found next to it). With no scene: one
/// full-screen view, every standard recognizer, all simultaneous. Time comes from the file.
/// Problems in the input go to stderr with their line numbers.
@main
struct GestureRecognizerTool {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.first == "replay" else { Self.fail(usage) }
        var named: [String: String] = [:]
        var index = 1
        while index + 1 < arguments.count, arguments[index].hasPrefix("--") {
            named[arguments[index]] = arguments[index + 1]
            index += 2
        }
        guard index == arguments.count, let touches = named["--touches"] else { Self.fail(usage) }
        do {
            try Self.replay(touches: touches, scenePath: named["--scene"], descPath: named["--desc"])
        } catch {
            Self.fail("gesture-recognizer: \(error)")
        }
    }

    static let usage = "usage: gesture-recognizer replay --touches FILE.jsonl|FILE.events [--scene S] [--desc D]"

    static func replay(touches path: String, scenePath: String?, descPath: String?) throws {
        let scene = try scenePath.map { try GestureScene.load(json: try Self.read($0)) }
        let converted: (frames: [TouchFrame], problems: [InputProblem])
        if path.hasSuffix(".events") {
            let desc =
                descPath
                ?? OfflineConversion.descCandidates(for: path).first {
                    FileManager.default.fileExists(atPath: $0)
                }
            converted = OfflineConversion.frames(
                evemu: try Self.read(path), desc: try desc.map { try Self.read($0) }, sceneWidth: scene?.width,
                sceneHeight: scene?.height)
        } else {
            converted = OfflineConversion.frames(
                script: try Self.read(path), bounds: scene.map { ($0.width, $0.height) })
        }
        for problem in converted.problems {
            FileHandle.standardError.write(Data("\(path): \(problem)\n".utf8))
        }
        var output = ""
        for event in GestureEngine.replay(converted.frames, scene: scene ?? GestureScene.standard()) {
            output += event.value.json + "\n"
        }
        FileHandle.standardOutput.write(Data(output.utf8))
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
