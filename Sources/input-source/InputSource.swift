import BusSchema
import Foundation
import InputCore

/// `input-source`: reads touch input and prints or publishes touch frames.
///
/// Offline modes (no bus):
/// - `input-source convert FILE.events|FILE.jsonl [--desc FILE.desc] [--width W --height H] [--device D]`
///   prints the touch frames as JSON lines; a `.desc` next to the `.events` is found by itself.
/// - A `FILE.raw` is a binary capture of `struct input_event` records (`cat /dev/input/eventN`);
///   its axes come from `--desc`.
/// - `input-source flood --devices N --rate R --frames M` prints M frames of the flood generator.
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
            case "flood": try Self.flood(options)
            default: Self.fail(usage)
            }
        } catch {
            Self.fail("input-source: \(error)")
        }
    }

    static let usage = """
        usage: input-source convert FILE.events|FILE.jsonl [--desc FILE.desc] [--width W --height H] [--device D]
               input-source scenario NAME [--device D]
               input-source flood --devices N --rate R --frames M
        """

    static func convert(_ options: inout Options) throws {
        let path = try options.positional("FILE")
        let device = options.value("--device") ?? "d0"
        let width = try options.double("--width")
        let height = try options.double("--height")
        let converted: (frames: [TouchFrame], problems: [InputProblem])
        if path.hasSuffix(".jsonl") {
            converted = OfflineConversion.frames(
                script: try Self.read(path), bounds: width.flatMap { w in height.map { (w, $0) } })
        } else if path.hasSuffix(".raw") {
            let desc = try options.value("--desc").map { EvemuRecording.parse(try Self.read($0)) }
            let bytes = Array(FileManager.default.contents(atPath: path) ?? Data())
            let events = bytes.withUnsafeBytes { InputEvent.decode($0).events }
            let frames = OfflineConversion.frames(
                events: events, description: desc?.description ?? DeviceDescription(), device: device,
                sceneWidth: width, sceneHeight: height)
            converted = (frames, desc?.problems ?? [])
        } else {
            let descPath = options.value("--desc") ?? Self.descPath(nextTo: path)
            converted = OfflineConversion.frames(
                evemu: try Self.read(path), desc: try descPath.map { try Self.read($0) }, device: device,
                sceneWidth: width, sceneHeight: height)
        }
        Self.report(converted.problems, path)
        var output = ""
        for frame in converted.frames { output += frame.value.json + "\n" }
        FileHandle.standardOutput.write(Data(output.utf8))
    }

    static func flood(_ options: Options) throws {
        let devices = Int(try options.double("--devices") ?? 1)
        let rate = try options.double("--rate") ?? 1000
        let count = Int(try options.double("--frames") ?? 1000)
        var output = ""
        for frame in FloodGenerator(devices: devices, ratePerDevice: rate).prefix(count) {
            output += frame.value.json + "\n"
        }
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

    static func descPath(nextTo path: String) -> String? {
        OfflineConversion.descCandidates(for: path).first { FileManager.default.fileExists(atPath: $0) }
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
