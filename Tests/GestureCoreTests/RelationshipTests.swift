import BusSchema
import GestureCore
import InputCore
import MessageFixtures
import Testing

@Suite struct RelationshipTests {
    /// The drawer seed: a swipe that only receives touches in the left 40 pt, and a scroll pan
    /// that requires it to fail.
    static let drawer = Replay.scene([
        Replay.recognizer(
            "drawerSwipe", .swipe, receiveRegion: Rect(x: 0, y: 0, width: 40, height: 800),
            configure: { $0.directions = [.right] }),
        Replay.recognizer("scroll", .pan, requireToFail: ["drawerSwipe"]),
    ])

    @Test func drawerSwipeStartingOutsideItsRegionLetsTheScrollBegin() {
        // Seed behaviour; UIKit gestureRecognizer(_:shouldReceive:) + require(toFail:).
        let events = Replay.events(
            Replay.generator.swipe(.right, x: 100, y: 300, distance: 200, durationMs: 120), scene: Self.drawer)
        #expect(events.named("drawerSwipe").isEmpty)
        #expect(events.named("scroll").first?.state == .began)
        #expect(events.named("scroll").first?.tMs == 8)
        #expect(events.named("scroll").last?.state == .ended)
    }

    @Test func drawerSwipeInsideItsRegionWinsAndTheScrollFails() {
        let events = Replay.events(
            Replay.generator.swipe(.right, x: 20, y: 300, distance: 200, durationMs: 120), scene: Self.drawer)
        #expect(events.map { "\($0.name!) \($0.state)" } == ["drawerSwipe recognized", "scroll failed"])
    }

    @Test func scrollWaitsUntilTheSwipeFailsThenBeginsWithItsCurrentTranslation() {
        // A vertical drag from the drawer region: the swipe fails once the travel shows the wrong
        // axis, and the waiting scroll begins at that moment.
        let events = Replay.events(
            Replay.generator.pan(fromX: 20, fromY: 100, toX: 20, toY: 400, durationMs: 300), scene: Self.drawer)
        #expect(events.named("drawerSwipe").states == [.failed])
        let scroll = events.named("scroll")
        #expect(scroll.first?.state == .began)
        #expect(scroll.first?.tMs == events.named("drawerSwipe").first?.tMs)
        #expect((scroll.first?.translation?.y ?? 0) >= 30)
        #expect(scroll.last?.state == .ended)
    }

    @Test func withoutSimultaneityTheFirstToBeginWins() {
        // UIKit default: a pan in progress keeps a later pinch from beginning; the pinch fails.
        let scene = Replay.scene([Replay.recognizer("pan", .pan), Replay.recognizer("pinch", .pinch)])
        let events = Replay.events(
            [
                TouchScriptLine.line(0, 0, .began, 100, 100), TouchScriptLine.line(16, 0, .moved, 100, 130),
                TouchScriptLine.line(32, 1, .began, 300, 100), TouchScriptLine.line(48, 1, .moved, 400, 100),
                TouchScriptLine.line(64, 0, .ended, 100, 130), TouchScriptLine.line(64, 1, .ended, 400, 100),
            ], scene: scene)
        #expect(events.named("pan").first?.state == .began)
        #expect(events.named("pinch").states == [.failed])
    }

    @Test func simultaneousRecognizersRunTogether() {
        let scene = Replay.scene([
            Replay.recognizer("pinch", .pinch, simultaneousWith: ["rotate"]), Replay.recognizer("rotate", .rotation),
        ])
        let lines =
            Replay.generator.pinch(x: 200, y: 200, fromSpan: 100, toSpan: 200)
            + Replay.generator.rotate(x: 200, y: 200, radians: 1, t0: 1000, id: 2)
        let events = Replay.events(lines, scene: scene)
        #expect(events.named("pinch").first?.state == .began)
        #expect(events.named("rotate").contains { $0.state == .began })
    }

    @Test func recognizingCancelsTheViewsTouchDown() {
        // cancels_touches: the pan beginning cancels the view's touch-down (touchesCancelled).
        func scene(cancels: Bool) -> GestureScene {
            Replay.scene([
                Replay.recognizer("down", .touchDown, simultaneousWith: ["pan"]),
                Replay.recognizer("pan", .pan, cancelsTouches: cancels),
            ])
        }
        let lines = Replay.generator.pan(fromX: 100, fromY: 100, toX: 100, toY: 300, durationMs: 200)
        let cancelled = Replay.events(lines, scene: scene(cancels: true)).named("down").states
        #expect(cancelled.first == .began && cancelled.last == .cancelled && !cancelled.contains(.ended))
        #expect(Replay.events(lines, scene: scene(cancels: false)).named("down").states.last == .ended)
    }

    @Test func touchesReachTheHitViewAndItsAncestorsOnly() {
        // UIKit hit-testing: the topmost view under the finger and its superviews.
        let scene = GestureScene(
            width: 400, height: 400,
            views: [
                GestureScene.View(
                    id: "root", frame: Rect(x: 0, y: 0, width: 400, height: 400),
                    recognizers: [Replay.recognizer("rootTap", .tap)]),
                GestureScene.View(
                    id: "card", frame: Rect(x: 0, y: 0, width: 200, height: 200), parent: "root",
                    recognizers: [Replay.recognizer("cardTap", .tap, simultaneousWith: ["rootTap"])]),
                GestureScene.View(
                    id: "overlay", frame: Rect(x: 150, y: 150, width: 100, height: 100), z: 1,
                    recognizers: [Replay.recognizer("overlayTap", .tap)]),
            ])
        let onCard = Replay.events(Replay.generator.tap(x: 50, y: 50), scene: scene)
        #expect(Set(onCard.compactMap(\.name)) == ["rootTap", "cardTap"])
        #expect(onCard.allSatisfy { $0.state == .recognized })
        #expect(onCard.named("cardTap").first?.view == "card")
        let onOverlay = Replay.events(Replay.generator.tap(x: 160, y: 160), scene: scene)
        #expect(onOverlay.compactMap(\.name) == ["overlayTap"])
    }

    @Test func devicesAreIndependent() {
        // A long press held on d1 neither delays nor changes a tap on d0.
        let hold = ScenarioGenerator(device: "d1").longPress(x: 10, y: 10, holdMs: 900)
        let tap = ScenarioGenerator(device: "d0").tap(x: 10, y: 10, t0: 100, holdMs: 50)
        let events = Replay.events((hold + tap).sorted { $0.tMs < $1.tMs })
        let d0Tap = events.filter { $0.device == "d0" }.named("tap")
        #expect(d0Tap.states == [.recognized])
        #expect(d0Tap.first?.tMs == 150)
        #expect(events.filter { $0.device == "d1" }.named("longPress").states == [.began, .ended])
    }
}
