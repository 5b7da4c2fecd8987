import BusSchema
import GestureCore
import InputCore
import Testing

/// A recognizer reconfigured at run time (schema `recognizer.config`), as the edge drawer does
/// after each toggle: its swipe accepts only the direction the menu listens for and receives
/// touches only on the menu's panel, so the opposite swipe fails and the scroll view's pan, which
/// requires the swipe to fail, gets the touches.
@Suite struct RecognizerConfigurationTests {
    /// A sidebar whose swipe takes both directions anywhere, and a pan that requires it to fail.
    static let scene = Replay.scene(
        [
            Replay.recognizer("drawerSwipe", .swipe) { $0.directions = [.left, .right] },
            Replay.recognizer("sidebarPan", .pan, requireToFail: ["drawerSwipe"]),
        ], width: 280, height: 1000)

    static func configuration(
        _ directions: [GestureEvent.Direction]?, region: Double? = nil, recognizer: String = "drawerSwipe"
    ) -> RecognizerConfig {
        RecognizerConfig {
            $0.recognizer = recognizer
            $0.tMs = 0
            $0.directions = directions
            $0.receiveRegion = region.map { Scene.Frame(x: 0, y: 0, width: $0, height: 1000) }
        }
    }

    /// The events of a script fed to a fresh lane set, after `configurations`.
    static func events(_ lines: [TouchScriptLine], after configurations: [RecognizerConfig]) -> [GestureEvent] {
        var lanes = DeviceLanes(scene: Self.scene)
        for configuration in configurations { #expect(lanes.handle(.recognizerConfigured(configuration)).isEmpty) }
        return Self.feed(lines, to: &lanes)
    }

    static func feed(_ lines: [TouchScriptLine], to lanes: inout DeviceLanes) -> [GestureEvent] {
        Self.feed(TouchScriptFramer.frames(for: TouchScript(lines: lines)).frames, to: &lanes)
    }

    static func feed(_ frames: [TouchFrame], to lanes: inout DeviceLanes) -> [GestureEvent] {
        var events: [GestureEvent] = []
        for frame in frames {
            for case .publish(let event) in lanes.handle(
                .frameArrived(frame, at: MonotonicInstant(nanoseconds: frame.tNs)))
            {
                events.append(event)
            }
        }
        return events
    }

    static func swipe(_ direction: ScenarioGenerator.Direction, x: Double) -> [TouchScriptLine] {
        Replay.generator.swipe(direction, x: x, y: 500, distance: 120)
    }

    @Test func unconfigured_aRightSwipeIsTheSwipesAndThePanFails() {
        let events = Self.events(Self.swipe(.right, x: 60), after: [])
        #expect(events.named("drawerSwipe").states == [.recognized])
        #expect(events.named("sidebarPan").states == [.failed])
    }

    @Test func listeningLeft_aRightSwipeFailsAndThePanThatRequiresItToFailPans() {
        let events = Self.events(Self.swipe(.right, x: 60), after: [Self.configuration([.left])])
        #expect(events.named("drawerSwipe").states == [.failed])
        let pan = events.named("sidebarPan").states
        #expect(pan.first == .began && pan.last == .ended && pan.contains(.changed), "\(pan)")
        let left = Self.events(Self.swipe(.left, x: 200), after: [Self.configuration([.left])])
        #expect(left.named("drawerSwipe").first?.direction == .left)
    }

    @Test func aReceiveRegion_leavesTouchesBeginningOutsideItToThePan() {
        let tab = Self.configuration([.right], region: 44)
        let outside = Self.events(Self.swipe(.right, x: 100), after: [tab])
        #expect(outside.named("drawerSwipe").isEmpty, "never received")
        #expect(outside.named("sidebarPan").states.first == .began)
        let inside = Self.events(Self.swipe(.right, x: 20), after: [tab])
        #expect(inside.named("drawerSwipe").states == [.recognized])
    }

    @Test func aNewerConfigurationReplacesTheOlderAndAnOmittedFieldKeepsTheScenes() {
        let events = Self.events(
            Self.swipe(.right, x: 100),
            after: [Self.configuration([.left], region: 44), Self.configuration([.right])])
        #expect(events.named("drawerSwipe").states == [.recognized], "region back to the scene's (none)")
    }

    @Test func aConfigurationAppliesToTouchesInFlightAndToDevicesSeenLater() {
        var lanes = DeviceLanes(scene: Self.scene)
        let lines = Self.swipe(.right, x: 60)
        let frames = TouchScriptFramer.frames(for: TouchScript(lines: lines)).frames
        // The finger is down (and has moved less than the swipe's minimum) when the menu flips.
        var events = Self.feed(Array(frames.prefix(2)), to: &lanes)
        #expect(events.isEmpty)
        _ = lanes.handle(.recognizerConfigured(Self.configuration([.left])))
        events += Self.feed(Array(frames.dropFirst(2)), to: &lanes)
        #expect(events.named("drawerSwipe").states == [.failed])
        let other = Self.feed(
            lines.map {
                var line = $0
                line.device = "d1"
                return line
            }, to: &lanes)
        #expect(other.named("drawerSwipe").states == [.failed], "a device's first frame after the flip")
    }

    @Test func aConfigurationThatDoesNotFitTheSceneIsRejectedAndChangesNothing() {
        var lanes = DeviceLanes(scene: Self.scene)
        let unknown = lanes.handle(.recognizerConfigured(Self.configuration([.left], recognizer: "nowhere")))
        guard case .configurationRejected(let error)? = unknown.first else {
            Issue.record("expected a rejection, got \(unknown)")
            return
        }
        #expect(error.rule == .reference && error.path == "$.recognizer")
        let notASwipe = lanes.handle(.recognizerConfigured(Self.configuration([.left], recognizer: "sidebarPan")))
        #expect(notASwipe.count == 1)
        #expect(Self.feed(Self.swipe(.right, x: 60), to: &lanes).named("drawerSwipe").states == [.recognized])
    }

    @Test func aConfigurationOutlivesASceneReloadThatStillHasItsRecognizer() {
        var lanes = DeviceLanes(scene: Self.scene)
        _ = lanes.handle(.recognizerConfigured(Self.configuration([.left])))
        _ = lanes.handle(.sceneChanged(Self.scene))
        #expect(Self.feed(Self.swipe(.right, x: 60), to: &lanes).named("drawerSwipe").states == [.failed])
    }
}
