import Bus
import BusSchema
import Foundation
import InputCore
import InputService
import ServiceSupport

/// `input-source`: reads touch input and publishes (or prints) touch frames.
///
/// Service: `input-source [--bus FILE] [--cpus LIST] run SOURCE [--scene FILE | --width W --height H]
/// [--pace recorded|max] [--loop] [--stuck-timeout-ms MS] [--name D] [--subscriber-wait-ms MS]`
/// (default 2000: how long to wait for a subscriber of `touch/<device>/` before sending), where SOURCE is one of
/// `--script FILE.jsonl`, `--evemu FILE.events [--desc FILE.desc]`, `--device /dev/input/eventN
/// [--desc FILE.desc]`, `--scenario NAME`, `--flood --devices N --rate R`; see ``InputService``.
///
/// Offline modes (no bus):
/// - `input-source convert FILE.events|FILE.jsonl|FILE.raw [--desc FILE.desc] [--width W --height H] [--name D]`
///   prints the touch frames as JSON lines; a `.desc` next to the `.events` is found by itself.
///   A `FILE.raw` is a binary capture of `struct input_event` records (`cat /dev/input/eventN`);
///   its axes come from `--desc`.
/// - `input-source flood --devices N --rate R --count N` prints N frames of the flood generator.
/// - `input-source scenario NAME [--name D]` prints a synthetic touch script.
/// Problems in the input go to stderr with their line numbers and are skipped.
@main
struct InputSource {
    static let usage = """
        usage: input-source [--bus FILE] [--cpus LIST] run (--script FILE.jsonl | --evemu FILE.events [--desc FILE.desc]
                   | --device /dev/input/eventN [--desc FILE.desc] | --scenario NAME | --flood --devices N --rate R)
                   [--scene FILE | --width W --height H] [--pace recorded|max] [--loop] [--stuck-timeout-ms MS]
                   [--name D] [--subscriber-wait-ms MS]
               input-source convert FILE.events|FILE.jsonl|FILE.raw [--desc FILE.desc] [--width W --height H] [--name D]
               input-source scenario NAME [--name D]
               input-source flood --devices N --rate R --count N
        scenarios: \(ScenarioCatalog.names.joined(separator: " "))
        """
    static let desc = OptionSpec.value("desc", "FILE.desc", "the device description (default: found next to it)")
    static let width = OptionSpec.value("width", "W", "the scene's width in points (with --height)")
    static let height = OptionSpec.value("height", "H", "the scene's height in points (with --width)")
    static let name = OptionSpec.value("name", "D", "the device name in the frames (default d0)")
    static let devices = OptionSpec.value("devices", "N", "how many devices to flood from")
    static let rate = OptionSpec.value("rate", "R", "frames per second over all devices")
    static let commandLine = CommandLineSpec(verbs: [
        "run": [
            .bus, .cpus, .value("script", "FILE.jsonl", "play a touch script"),
            .value("evemu", "FILE.events", "play an evemu recording"), Self.desc,
            .value("device", "PATH", "read a live evdev device (/dev/input/eventN)"),
            .value("scenario", "NAME", "play a built-in scenario"), .flag("flood", "flood with --devices and --rate"),
            Self.devices, Self.rate, .value("scene", "FILE", "map and bound points to this scene's size"),
            Self.width, Self.height, .value("pace", "recorded|max", "as recorded (default) or as fast as possible"),
            .flag("loop", "start again at the end"),
            .value("stuck-timeout-ms", "MS", "cancel a contact silent this long (default 10000)"),
            .value("name", "D", "the device name to publish as (renames a script's one device)"),
            .value("subscriber-wait-ms", "MS", "how long to wait for a subscriber first (default 2000)"),
        ],
        "convert": [Self.desc, Self.width, Self.height, Self.name],
        "scenario": [Self.name],
        "flood": [Self.devices, Self.rate, .value("count", "N", "how many frames to print (default 1000)")],
    ])

    static func main() {
        let signals = SignalWatcher()
        Tool.main("input-source", usage: Self.usage) {
            var options = try Self.commandLine.parse(Array(CommandLine.arguments.dropFirst()))
            switch options.verb {
            case "run": try Self.run(&options, signals: signals)
            case "convert": try Self.convert(&options)
            case "scenario": try Self.scenario(&options)
            default: try Self.flood(&options)
            }
        }
    }

    static func run(_ options: inout Options, signals: SignalWatcher) throws {
        let config = try Tool.serviceBusConfig(&options, tool: "input-source")
        let size = try Self.sceneSize(&options)
        let pace = try options.string("pace").map { text in
            guard let pace = FramePacer.Pace(rawValue: text) else {
                throw UsageError("--pace is recorded or max, not '\(text)'")
            }
            return pace
        }
        let loop = options.flag("loop")
        let stuckTimeoutMs = try options.int("stuck-timeout-ms") ?? 10_000
        guard stuckTimeoutMs > 0 else { throw UsageError("--stuck-timeout-ms must be above 0") }
        let subscriberWaitMs = try options.int("subscriber-wait-ms") ?? 2000
        let givenName = options.string("name")
        let name = givenName ?? "d0"
        let descPath = options.string("desc")
        let source: InputService.Source
        if let path = options.string("script") {
            if let givenName { _ = try Topic.touch(givenName) }
            // Read a line at a time as it plays.
            source = .file(try FileFrames(path: path, kind: .script(bounds: size), rename: givenName), loop: loop)
        } else if let path = options.string("evemu") {
            let desc = try (descPath ?? Self.descPath(nextTo: path)).map { descPath in
                let parsed = EvemuRecording.parse(try TextFile.read(descPath))
                Self.report(parsed.problems, descPath)
                return parsed.description
            }
            let kind = FileFrames.Kind.evemu(
                device: name, desc: desc, sceneWidth: size?.width, sceneHeight: size?.height)
            source = .file(try FileFrames(path: path, kind: kind), loop: loop)
        } else if let scenario = options.string("scenario") {
            guard let lines = ScenarioCatalog.lines(named: scenario, device: name) else {
                throw UsageError("unknown scenario '\(scenario)'")
            }
            source = .frames(TouchScriptFramer.frames(for: TouchScript(lines: lines)).frames, loop: loop)
        } else if options.flag("flood") {
            guard let devices = try options.int("devices"), devices > 0,
                let rate = try options.double("rate"), rate > 0
            else { throw UsageError("--flood needs --devices N and --rate R above 0") }
            // --rate is frames per second over all devices, as in bus-flood.
            source = .flood(devices: devices, rate: rate / Double(devices))
        } else if let path = options.string("device") {
            let device: EvdevDevice
            do {
                device = try EvdevDevice(path: path)
            } catch {
                throw ConfigurationError("\(error)")
            }
            var description = device.description
            if let problem = device.axesProblem {
                if let descPath {
                    description = EvemuRecording.parse(try TextFile.read(descPath)).description
                    Log.error("input-source", "\(path): \(problem): not an input device; axes from \(descPath)")
                } else {
                    Log.error(
                        "input-source",
                        "\(path): \(problem): not an input device and no --desc; device units are taken as "
                            + (size.map { "a \($0.width)×\($0.height) scene" } ?? "points"))
                }
            }
            let mapper = CoordinateMapper(description: description, sceneWidth: size?.width, sceneHeight: size?.height)
            source = .device(device, name: name, mapper: mapper, description: description)
        } else {
            throw UsageError("run needs one of --script, --evemu, --device, --scenario, --flood")
        }
        try options.finish(maximumPositionals: 1)
        let runner = try ServiceRunner(name: "input-source", config: config, signals: signals)
        let service = InputService(
            runner: runner, source: source, pace: pace ?? .recorded, stuckTimeoutMs: stuckTimeoutMs,
            subscriberWaitMs: subscriberWaitMs)
        try service.run()
    }

    static func sceneSize(_ options: inout Options) throws -> (width: Double, height: Double)? {
        let width = try options.double("width")
        let height = try options.double("height")
        if let path = options.string("scene") {
            let scene = try SceneFile.load(path)
            return (scene.width, scene.height)
        }
        guard let width, let height else { return nil }
        guard width > 0, height > 0, width <= SceneBounds.maxSide, height <= SceneBounds.maxSide else {
            throw UsageError("--width and --height must be in (0, \(Int(SceneBounds.maxSide))]")
        }
        return (width, height)
    }

    static func convert(_ options: inout Options) throws {
        guard options.positionals.count == 2 else { throw UsageError("convert needs FILE") }
        let path = options.positionals[1]
        let device = options.string("name") ?? "d0"
        let size = try Self.sceneSize(&options)
        let descPath = options.string("desc")
        try options.finish(maximumPositionals: 2)
        let converted: (frames: [TouchFrame], problems: [InputProblem])
        if path.hasSuffix(".jsonl") {
            try Self.stream(script: path, bounds: size)
            return
        } else if path.hasSuffix(".raw") {
            let desc = try descPath.map { EvemuRecording.parse(try TextFile.read($0)) }
            let bytes = try TextFile.bytes(path)
            let events = bytes.withUnsafeBytes { InputEvent.decode($0).events }
            let frames = OfflineConversion.frames(
                events: events, description: desc?.description ?? DeviceDescription(), device: device,
                sceneWidth: size?.width, sceneHeight: size?.height)
            converted = (frames, desc?.problems ?? [])
        } else {
            let desc = descPath ?? Self.descPath(nextTo: path)
            converted = OfflineConversion.frames(
                evemu: try TextFile.read(path), desc: try desc.map { try TextFile.read($0) }, device: device,
                sceneWidth: size?.width, sceneHeight: size?.height)
        }
        Self.report(converted.problems, path)
        try Self.print(converted.frames.map { $0.value.json })
    }

    /// Converts a touch script a line at a time, printing each frame as it is complete: memory
    /// stays bounded whatever the file's size (one line at most ``LineReader/defaultMaxLineBytes``),
    /// and a reader that stops early (`| head -1`) ends the conversion quietly.
    static func stream(script path: String, bounds: (width: Double, height: Double)?) throws {
        let output = LineWriter()
        var stream = TouchScriptStream(bounds: bounds)
        try LineReader.forEachLine(of: path, tool: "input-source") { text, number in
            let added = stream.add(text, lineNumber: number)
            if let problem = added.problem { Self.report([problem], path) }
            for frame in added.frames { try output.write(line: frame.value.json) }
        }
        for frame in stream.finish() { try output.write(line: frame.value.json) }
        try output.flush()
    }

    static func flood(_ options: inout Options) throws {
        let devices = try options.int("devices") ?? 1
        let rate = try options.double("rate") ?? 1000
        let count = try options.int("count") ?? 1000
        try options.finish(maximumPositionals: 1)
        guard devices > 0, rate > 0 else { throw UsageError("--devices and --rate must be above 0") }
        try Self.print(
            FloodGenerator(devices: devices, ratePerDevice: rate / Double(devices)).prefix(count).map { $0.value.json })
    }

    static func scenario(_ options: inout Options) throws {
        guard options.positionals.count == 2 else { throw UsageError("scenario needs NAME") }
        let name = options.positionals[1]
        let device = options.string("name") ?? "d0"
        try options.finish(maximumPositionals: 2)
        guard let lines = ScenarioCatalog.lines(named: name, device: device) else {
            throw UsageError("unknown scenario '\(name)'")
        }
        try Self.print(lines.map { $0.value.json })
    }

    static func descPath(nextTo path: String) -> String? {
        OfflineConversion.descCandidates(for: path).first { FileManager.default.fileExists(atPath: $0) }
    }

    static func report(_ problems: [InputProblem], _ path: String) {
        for problem in problems { Log.error("input-source", "\(path): \(problem)") }
    }

    static func print(_ lines: [String]) throws {
        let output = LineWriter()
        for line in lines { try output.write(line: line) }
        try output.flush()
    }
}
