import BusSchema
import InputCore
import Testing

@Suite struct ScenarioGeneratorTests {
    static let generator = ScenarioGenerator()
    static let scenarios: [(String, [TouchScriptLine])] = [
        ("tap", generator.tap(x: 10, y: 10)),
        ("doubleTap", generator.doubleTap(x: 10, y: 10)),
        ("longPress", generator.longPress(x: 10, y: 10)),
        ("swipeLeft", generator.swipe(.left, x: 300, y: 10)),
        ("swipeUp", generator.swipe(.up, x: 10, y: 300)),
        ("pan", generator.pan(fromX: 0, fromY: 0, toX: 100, toY: 50)),
        ("pullDown", generator.pullDown(x: 100, y: 0)),
        ("pinch", generator.pinch(x: 200, y: 200, fromSpan: 200, toSpan: 50)),
        ("rotate", generator.rotate(x: 200, y: 200, radians: 1)),
        ("stroke", generator.stroke([(0, 0), (10, 50), (90, 20)])),
    ]

    @Test(arguments: Self.scenarios.map(\.0))
    func everyScenarioFramesCleanlyAndLiftsEveryFinger(name: String) {
        let lines = Self.scenarios.first { $0.0 == name }!.1
        let (frames, problems) = TouchScriptFramer.frames(for: TouchScript(lines: lines))
        #expect(problems.isEmpty)
        #expect(frames.last!.contacts.allSatisfy { $0.phase == .ended })
        #expect(zip(lines, lines.dropFirst()).allSatisfy { $0.tMs <= $1.tMs })
    }

    @Test func swipeTravelsItsDistanceInItsDirection() {
        let lines = Self.generator.swipe(.down, x: 100, y: 100, distance: 200, durationMs: 120)
        #expect(lines.first!.y == 100 && lines.last!.y == 300 && lines.last!.x == 100)
        #expect(lines.last!.tMs == 120)
    }

    @Test func rotationTurnsPlusXTowardPlusY() {
        let lines = Self.generator.rotate(x: 0, y: 0, radius: 10, radians: Double.pi / 2)
        let last = lines.filter { $0.id == 1 }.last!
        #expect(Swift.abs(last.x) < 1e-9 && Swift.abs(last.y - 10) < 1e-9)
    }

    @Test func floodInterleavesDevicesInTimeOrder() {
        let frames = Array(FloodGenerator(devices: 3, ratePerDevice: 100).prefix(300))
        #expect(frames.prefix(3).map(\.device) == ["d0", "d1", "d2"])
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.tNs <= $1.tNs })
        let d1 = frames.filter { $0.device == "d1" }
        #expect(d1.map(\.frame) == Array(1...100))
        #expect(d1.first!.contacts[0].phase == .began && d1.last!.contacts[0].phase == .ended)
    }
}
