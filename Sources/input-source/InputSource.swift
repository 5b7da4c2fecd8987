import BusSchema
import Foundation
import InputCore

/// `input-source`: reads touch input and prints or publishes touch frames.
///
/// Offline modes (no bus):
/// - `input-source convert FILE.events|FILE.jsonl [--desc FILE.desc] [--width W --height H] [--device D]`
///   prints the touch frames as JSON lines; a `.desc` next to the `.events` is found by itself.
/// - `input-source scenario NAME [--device D]` prints a synthetic touch script (`tap`, `double-tap`,
///   `long-press`, `swipe-left|right|up|down`, `pan`, `pull-down`, `pinch-in`, `pinch-out`, `rotate`, `stroke`).
/// Problems in the input go to stderr with their line numbers; the exit status is 0 unless the
/// file could not be read.
@main
struct InputSource {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let verb = arguments.first else { Self.fail(usage) }
        arguments.removeFirst()
        do {
            var options = try Options(arguments)
            switch verb {
            case "convert": try Self.convert(&options)
            case "scenario": try Self.scenario(&options)
            default: Self.fail(usage)
            }
        } catch {
            Self.fail("input-source: \(error)")
        }
    }

    static let usage = """
        usage: input-source convert FILE.events|FILE.jsonl [--desc FILE.desc] [--width W --height H] [--device D]
               input-source scenario NAME [--device D]
        """

    static func convert(_ options: inout Options) throws {
        let path = try options.positional("FILE")
        let device = options.value("--device") ?? "d0"
        let width = try options.double("--width")
        let height = try options.double("--height")
        let frames: [TouchFrame]
        if path.hasSuffix(".jsonl") {
            let script = TouchScript.parse(try Self.read(path), bounds: width.flatMap { w in height.map { (w, $0) } })
            let framed = TouchScriptFramer.frames(for: script)
            Self.report(script.problems + framed.problems, path)
            frames = framed.frames
        } else {
            var recording = EvemuRecording.parse(try Self.read(path))
            let descPath = options.value("--desc") ?? Self.descPath(nextTo: path)
            if let descPath, FileManager.default.fileExists(atPath: descPath) {
                let desc = EvemuRecording.parse(try Self.read(descPath))
                Self.report(desc.problems, descPath)
                if !recording.hasDescription { recording.description = desc.description }
            }
            Self.report(recording.problems, path)
            var decoder = MultitouchDecoder(
                device: device, description: recording.description,
                mapper: CoordinateMapper(description: recording.description, sceneWidth: width, sceneHeight: height))
            var decoded: [TouchFrame] = []
            for event in recording.events {
                if let frame = decoder.handle(.eventRead(event)) { decoded.append(frame) }
            }
            frames = decoded
        }
        // The stuck-touch guard cancels contacts left down when the file ends.
        var guardian = StuckTouchGuard()
        var output = ""
        func publish(_ effects: [StuckTouchGuard.Effect]) {
            for case .publish(let frame) in effects { output += frame.value.json + "\n" }
        }
        for frame in frames { publish(guardian.handle(.frameArrived(frame))) }
        if let deadline = guardian.nextDeadline { publish(guardian.handle(.timeElapsed(tNs: deadline))) }
        FileHandle.standardOutput.write(Data(output.utf8))
    }

    static func scenario(_ options: inout Options) throws {
        let name = try options.positional("NAME")
        let generator = ScenarioGenerator(device: options.value("--device") ?? "d0")
        let lines: [TouchScriptLine]
        switch name {
        case "tap": lines = generator.tap(x: 200, y: 200)
        case "double-tap": lines = generator.doubleTap(x: 200, y: 200)
        case "long-press": lines = generator.longPress(x: 200, y: 200)
        case "swipe-left": lines = generator.swipe(.left, x: 300, y: 200)
        case "swipe-right": lines = generator.swipe(.right, x: 100, y: 200)
        case "swipe-up": lines = generator.swipe(.up, x: 200, y: 300)
        case "swipe-down": lines = generator.swipe(.down, x: 200, y: 100)
        case "pan": lines = generator.pan(fromX: 100, fromY: 300, toX: 250, toY: 200)
        case "pull-down": lines = generator.pullDown(x: 200, y: 100)
        case "pinch-in": lines = generator.pinch(x: 200, y: 200, fromSpan: 200, toSpan: 80)
        case "pinch-out": lines = generator.pinch(x: 200, y: 200, fromSpan: 80, toSpan: 200)
        case "rotate": lines = generator.rotate(x: 200, y: 200, radians: Double.pi / 2)
        case "stroke": lines = generator.stroke([(50, 50), (150, 80), (200, 200), (100, 250)])
        default: throw OptionError(message: "unknown scenario '\(name)'")
        }
        FileHandle.standardOutput.write(Data(TouchScript(lines: lines).jsonLines.utf8))
    }

    /// `X.events` → `X.desc`, and for `Device.gesture.events` also `Device.desc`.
    static func descPath(nextTo path: String) -> String? {
        guard path.hasSuffix(".events") else { return nil }
        var stem = String(path.dropLast(".events".count))
        while true {
            let candidate = stem + ".desc"
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            guard let dot = stem.lastIndex(of: "."), !stem[dot...].contains("/") else { return nil }
            stem = String(stem[..<dot])
        }
    }

    static func read(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw OptionError(message: "cannot read \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func report(_ problems: [InputProblem], _ path: String) {
        for problem in problems { FileHandle.standardError.write(Data("\(path): \(problem)\n".utf8)) }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
}
