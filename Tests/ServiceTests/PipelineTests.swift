import Bus
import BusSchema
import BusTestSupport
import Foundation
import GestureCore
import InputCore
import Testing

/// Touch input through `input-source` → `gesture-recognizer` → `bus-tap echo`, all real processes.
@Suite struct PipelineTests {
    static let generator = ScenarioGenerator()

    /// A tap, a long press held with no frame between landing and lifting, a pan and a swipe,
    /// each well after the one before so every recognizer timer falls in a quiet gap.
    static let script: [TouchScriptLine] =
        Self.generator.tap(x: 200, y: 200)
        + Self.generator.longPress(x: 200, y: 200, t0: 1000, holdMs: 800).filter { $0.phase != .moved }
        + Self.generator.pan(fromX: 100, fromY: 300, toX: 250, toY: 200, t0: 2500)
        + Self.generator.swipe(.right, x: 100, y: 200, t0: 4000)

    @Test func aScriptThroughTheLivePipelineGivesTheOfflineGesturesWithALongPressFiringOnItsOwn() throws {
        let pipeline = try Pipeline()
        defer { try? pipeline.stop() }
        let expected = try Offline.payloads(Offline.events(Self.script))
        let gestures = try pipeline.echo("gesture/", count: expected.count)
        let touches = try pipeline.echo("touch/")
        let path = try pipeline.write(TouchScript(lines: Self.script).jsonLines, name: "gestures.jsonl")
        let source = try pipeline.runSource(["--script", path])
        #expect(source.status == 0, "\(source.stderr)")
        #expect(try gestures.wait() == 0)
        touches.signal(SIGTERM)
        try touches.wait()

        let lines = try EchoLine.parse(gestures)
        #expect(lines.map(\.payload) == expected)
        // Events of `recognizer` reaching `state` in the script's window for each gesture.
        func find(_ recognizer: String, _ state: String, from: Double = 0, to: Double = 10_000) -> [EchoLine] {
            lines.filter {
                $0.payload["recognizer"] == .string(recognizer) && $0.payload["state"] == .string(state)
                    && (from..<to).contains($0.payload["t_ms"]?.doubleValue ?? -1)
            }
        }
        #expect(find("tap", "recognized").count == 1)
        #expect(find("pan", "began", from: 2500, to: 3100).count == 1)
        #expect(find("pan", "changed", from: 2500, to: 3100).count > 10)
        #expect(find("pan", "ended", from: 2500, to: 3100).count == 1)
        #expect(find("swipe", "recognized", from: 4000).first?.payload["direction"] == .string("right"))
        #expect(lines.allSatisfy { $0.topic.hasPrefix("gesture/d0/screen/") })

        // The long press began 500 ms (source time) after its touch landed, while no frame came:
        // on the monotonic clock it is at least 500 ms after the landing frame and before the lift.
        let longPress = try #require(find("longPress", "began").first)
        #expect(longPress.payload["t_ms"]?.doubleValue == 1500)
        let frames = try EchoLine.parse(touches)
        let landing = try #require(frames.first { $0.payload["t_ns"] == .int(1_000_000_000) })
        let lift = try #require(frames.first { $0.payload["t_ns"] == .int(1_800_000_000) })
        #expect(longPress.mono >= landing.mono + 500_000_000)
        #expect(longPress.mono < lift.mono)
        // Each event names the touch frame that caused it; the long press, fired by a timer, the
        // newest frame of its device: the landing.
        #expect(
            longPress.input?["seq"] == landing.payload["frame"]
                && longPress.input?["source_time_ns"] == .int(1_000_000_000))
        let framesBySeq = Dictionary(frames.map { ($0.payload["frame"], $0.payload["t_ns"]) }, uniquingKeysWith: { $1 })
        #expect(lines.allSatisfy { $0.input?["device"] == .string("d0") })
        #expect(lines.allSatisfy { line in line.input.map { framesBySeq[$0["seq"]] == $0["source_time_ns"] } == true })
    }

    @Test func theFastTapsRecordingThroughTheLivePipelineGivesNineTaps() throws {
        let pipeline = try Pipeline()
        defer { try? pipeline.stop() }
        let recording =
            ChildProcess.repositoryRoot + "/Tests/data/evemu/Atmel_maXTouch_Touchscreen.1-finger-fast-taps.events"
        let gestures = try pipeline.echo("gesture/d0/screen/tap/")
        let source = try pipeline.runSource(["--evemu", recording])
        #expect(source.status == 0, "\(source.stderr)")
        try waitUntil("nine taps") {
            try EchoLine.parse(gestures).filter { $0.payload["state"] == .string("recognized") }.count >= 9
        }
        gestures.signal(SIGTERM)
        try gestures.wait()
        let taps = try EchoLine.parse(gestures).filter { $0.payload["state"] == .string("recognized") }
        #expect(taps.count == 9)
    }

    @Test func twoDevicesInterleavedGiveEachItsOwnGestures() throws {
        let pipeline = try Pipeline()
        defer { try? pipeline.stop() }
        // d0 taps twice while d1 pans: interleaved in time, independent in outcome.
        let d0 = ScenarioGenerator(device: "d0")
        let d1 = ScenarioGenerator(device: "d1")
        let lines =
            (d0.tap(x: 50, y: 50, t0: 100) + d0.tap(x: 300, y: 300, t0: 600)
            + d1.pan(fromX: 100, fromY: 300, toX: 250, toY: 200, t0: 0))
            .enumerated().sorted { ($0.element.tMs, $0.offset) < ($1.element.tMs, $1.offset) }.map(\.element)
        let expected = [
            "d0": try Offline.payloads(Offline.events(lines.filter { $0.device == "d0" })),
            "d1": try Offline.payloads(Offline.events(lines.filter { $0.device == "d1" })),
        ]
        let gestures = try pipeline.echo("gesture/", count: expected.values.map(\.count).reduce(0, +))
        let path = try pipeline.write(TouchScript(lines: lines).jsonLines, name: "two-devices.jsonl")
        let source = try pipeline.runSource(["--script", path])
        #expect(source.status == 0, "\(source.stderr)")
        #expect(try gestures.wait() == 0)
        let received = try EchoLine.parse(gestures)
        for device in ["d0", "d1"] {
            let mine = received.filter { $0.topic.hasPrefix("gesture/\(device)/") }
            #expect(mine.map(\.payload) == expected[device], "\(device)")
        }
        #expect(
            received.filter { $0.topic == "gesture/d0/screen/tap/" && $0.payload["state"] == .string("recognized") }
                .count == 2)
        #expect(received.contains { $0.topic == "gesture/d1/screen/pan/" && $0.payload["state"] == .string("ended") })
        #expect(
            !received.contains {
                $0.topic.hasPrefix("gesture/d1/") && $0.payload["recognizer"] == .string("tap")
                    && $0.payload["state"] == .string("recognized")
            })
    }

    @Test func aSwipeScriptRunTwiceIsTwoSwipesAndTheDevicesClockGoingBackIsCountedInHealth() throws {
        let pipeline = try Pipeline()
        defer { try? pipeline.stop() }
        let context = try ZMQContext()
        let health = try Subscriber.health(
            of: "gesture-recognizer", context: context, endpoint: pipeline.proxy.config.subscribe)
        defer { health.socket.close() }
        let swipes = try pipeline.echo("gesture/d0/screen/swipe/", count: 2)
        // The second run's clock starts over at 100 ms, 120 ms before where the first one ended.
        let path = try pipeline.write(
            TouchScript(lines: Self.generator.swipe(.right, x: 200, y: 300, t0: 100)).jsonLines, name: "swipe.jsonl")
        for _ in 0..<2 {
            let source = try pipeline.runSource(["--script", path])
            #expect(source.status == 0, "\(source.stderr)")
        }
        #expect(try swipes.wait() == 0)
        let events = try EchoLine.parse(swipes).map(\.payload)
        #expect(events.map { $0["state"] } == [.string("recognized"), .string("recognized")])
        #expect(events.allSatisfy { ($0["velocity"]?["x"]?.doubleValue ?? 0) > 1000 }, "\(events)")
        try waitUntil("a health report counting one clock jump", seconds: 20) {
            guard let delivery = try health.receive(timeoutMs: 100) else { return false }
            return try Value(messagePack: delivery.payload)["extra"]?["source_clock_jumps"] == .int(1)
        }
    }

    @Test func recognizersShardedByDevicePrefixEachTakeOnlyTheirDevices() throws {
        let pipeline = try Pipeline(recognizerArguments: ["--device-prefixes", "left"])
        defer { try? pipeline.stop() }
        _ = try pipeline.startRecognizer(["--device-prefixes", "right/"])
        let left = ScenarioGenerator(device: "left0")
        let right = ScenarioGenerator(device: "right")
        let lines =
            (left.pan(fromX: 100, fromY: 300, toX: 250, toY: 200, t0: 0)
            + right.pan(fromX: 300, fromY: 100, toX: 100, toY: 200, t0: 100)
            + left.tap(x: 50, y: 50, t0: 600))
            .enumerated().sorted { ($0.element.tMs, $0.offset) < ($1.element.tMs, $1.offset) }.map(\.element)
        let expected = [
            "left0": try Offline.payloads(Offline.events(lines.filter { $0.device == "left0" })),
            "right": try Offline.payloads(Offline.events(lines.filter { $0.device == "right" })),
        ]
        let gestures = try pipeline.echo("gesture/", count: expected.values.map(\.count).reduce(0, +))
        let path = try pipeline.write(TouchScript(lines: lines).jsonLines, name: "sharded.jsonl")
        let source = try pipeline.runSource(["--script", path])
        #expect(source.status == 0, "\(source.stderr)")
        #expect(try gestures.wait() == 0)
        let received = try EchoLine.parse(gestures)
        var epochs: [Set<UInt64>] = []
        for device in ["left0", "right"] {
            let mine = received.filter { $0.topic.hasPrefix("gesture/\(device)/") }
            // Exactly the offline gestures, once: a second recognizer on the device would double them.
            #expect(mine.map(\.payload) == expected[device], "\(device)")
            epochs.append(Set(mine.map(\.epoch)))
        }
        #expect(epochs[0].count == 1 && epochs[1].count == 1 && epochs[0] != epochs[1])
    }
}
