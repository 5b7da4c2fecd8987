import BusSchema
import GestureCore
import InputCore
import Testing

/// The touch scripts in `Tests/data/scripts` (made by `input-source scenario`, plus hand-written
/// ones), run the way `gesture-recognizer replay` runs them.
@Suite struct ScriptFixtureTests {
    static func replay(_ script: String, scene: GestureScene = .standard()) -> (
        events: [GestureEvent], problems: [InputProblem]
    ) {
        let converted = OfflineConversion.frames(
            script: Replay.text("scripts/\(script).jsonl"), bounds: (scene.width, scene.height))
        return (GestureEngine.replay(converted.frames, scene: scene), converted.problems)
    }

    @Test(arguments: [
        ("tap", "tap", GestureEvent.State.recognized), ("double-tap", "doubleTap", .recognized),
        ("long-press", "longPress", .began), ("swipe-left", "swipe", .recognized),
        ("swipe-right", "swipe", .recognized),
        ("swipe-up", "swipe", .recognized), ("swipe-down", "swipe", .recognized), ("pan", "pan", .began),
        ("pull-down", "pan", .began), ("pinch-in", "pinch", .began), ("pinch-out", "pinch", .began),
        ("rotate", "rotation", .began), ("stroke", "pan", .began),
    ])
    func everyScenarioScriptGivesItsGesture(script: String, recognizer: String, state: GestureEvent.State) {
        let (events, problems) = Self.replay(script)
        #expect(problems.isEmpty)
        #expect(events.named(recognizer).contains { $0.state == state })
    }

    @Test func badLinesAreReportedByNumberAndTheRestStillReplays() {
        let scene = GestureScene.standard(width: 800, height: 600)
        let (events, problems) = Self.replay("bad-input", scene: scene)
        #expect(problems.map(\.line) == [2, 3, 4, 5, 6, 7])
        #expect(
            problems.map(\.code) == [
                .malformed, .invalidValue, .unknownTouch, .outOfRange, .timeWentBackwards, .invalidValue,
            ])
        // The valid lines are a touch at (100, 100) that lifts 10 pt away after 50 ms: too far for
        // a tap, while the touch-down begins and ends.
        #expect(events.named("touchDown").states == [.began, .ended])
        #expect(events.named("tap").states == [.failed])
    }

    @Test func drawerSeedFromFiles() throws {
        // Seed behaviour with the scene and script files `gesture-recognizer replay` would read.
        let scene = GestureScene(try Scene(json: Replay.text("scenes/drawer.json")))
        let (events, problems) = Self.replay("drawer-outside-region", scene: scene)
        #expect(problems.isEmpty)
        #expect(events.named("drawerSwipe").isEmpty)
        #expect(events.named("scroll").first?.state == .began)
        #expect(events.named("scroll").last?.state == .ended)
    }
}
