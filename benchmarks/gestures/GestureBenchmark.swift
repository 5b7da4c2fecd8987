import BusSchema
import GestureCore
import InputCore
import ServiceSupport

/// `gesture-bench [--frames N] [--devices D] [--lanes 1]`: recognizer throughput offline, one core,
/// the full standard recognizer set attached (the no-scene default). Prints one JSON object.
///
/// The workload is every synthetic scenario (taps, double tap, long press, four swipes, pan,
/// pull-down, pinch in/out, rotation, stroke) played back to back on each of D devices, repeated
/// until N frames have gone through one ``GestureEngine`` or, with `--lanes 1`, through
/// ``DeviceLanes`` as the service runs it (an engine per device and its wake-up bookkeeping).
@main
struct GestureBenchmark {
    static let usage = "usage: gesture-bench [--frames N] [--devices N] [--lanes 1]"
    static let commandLine = CommandLineSpec(verbs: [
        "": [
            .value("frames", "N", "frames to push through (default 2000000)"),
            .value("devices", "N", "devices the workload plays on (default 1)"),
            .value("lanes", "0|1", "1: through DeviceLanes, as the service runs (default 0: one engine)"),
        ]
    ])

    static func main() {
        Tool.main("gesture-bench", usage: Self.usage) {
            var options = try Self.commandLine.parse(Array(CommandLine.arguments.dropFirst()))
            let target = try options.int("frames", in: 1...Int.max, default: 2_000_000)
            let devices = try options.int("devices", in: 1...1024, default: 1)
            let lanes = try options.int("lanes", in: 0...1, default: 0)
            try options.finish(maximumPositionals: 0)
            Self.run(target: target, devices: devices, throughLanes: lanes == 1)
        }
    }

    static func run(target: Int, devices: Int, throughLanes: Bool) {
        let frames = Self.workload(devices: devices)
        let periodNs = (frames.last?.tNs ?? 0) + 1_000_000_000

        var engine = GestureEngine(scene: .standard())
        var lanes = DeviceLanes(scene: .standard())
        var processed = 0
        var published = 0
        var round: Int64 = 0
        let clock = ContinuousClock()
        let start = clock.now
        while processed < target {
            for var frame in frames {
                frame.tNs += round * periodNs
                if throughLanes {
                    for case .publish in lanes.handle(
                        .frameArrived(frame, at: MonotonicInstant(nanoseconds: frame.tNs)))
                    {
                        published += 1
                    }
                } else {
                    for case .publish in engine.handle(.frameArrived(frame)) { published += 1 }
                }
            }
            processed += frames.count
            round += 1
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let result: Value = .map([
            "benchmark": .string("gesture-recognizer"), "recognizers": .int(Int64(GestureEvent.Kind.allCases.count)),
            "devices": .int(Int64(devices)), "path": .string(throughLanes ? "lanes" : "engine"),
            "frames": .int(Int64(processed)),
            "events": .int(Int64(published)), "seconds": .double(seconds),
            "frames_per_s": .double((Double(processed) / seconds).rounded()),
        ])
        print(result.json)
    }

    /// Every scenario once per device, devices interleaved by time.
    static func workload(devices: Int) -> [TouchFrame] {
        var lines: [TouchScriptLine] = []
        for device in 0..<devices {
            let g = ScenarioGenerator(device: "d\(device)")
            var t = 0.0
            func add(_ scenario: [TouchScriptLine]) {
                lines += scenario
                t = (scenario.last?.tMs ?? t) + 400
            }
            add(g.tap(x: 200, y: 200, t0: t))
            add(g.doubleTap(x: 200, y: 200, t0: t))
            add(g.longPress(x: 200, y: 200, t0: t))
            for direction in ScenarioGenerator.Direction.allCases { add(g.swipe(direction, x: 300, y: 300, t0: t)) }
            add(g.pan(fromX: 100, fromY: 300, toX: 250, toY: 200, t0: t))
            add(g.pullDown(x: 200, y: 100, t0: t))
            add(g.pinch(x: 200, y: 200, fromSpan: 200, toSpan: 80, t0: t))
            add(g.pinch(x: 200, y: 200, fromSpan: 80, toSpan: 200, t0: t))
            add(g.rotate(x: 200, y: 200, radians: 1.5, t0: t))
            add(g.stroke([(50, 50), (150, 80), (200, 200), (100, 250)], t0: t))
        }
        lines.sort { $0.tMs < $1.tMs }
        return TouchScriptFramer.frames(for: TouchScript(lines: lines)).frames
    }
}
