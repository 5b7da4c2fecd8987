import BusSchema
import GestureCore
import InputCore
import MessageFixtures
import Testing

/// The recognizer service's pure core: one engine per device and the monotonic → source time mapping.
@Suite struct DeviceLanesTests {
    static let ms: Int64 = 1_000_000

    static func mono(_ nanoseconds: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: nanoseconds) }

    static func frame(_ device: String, _ tMs: Int64, _ phase: TouchContact.Phase, x: Double = 200) -> TouchFrame {
        .frame(device, 1, tNs: tMs * Self.ms, contacts: [.contact(0, phase, x: x, y: 200)])
    }

    static func scene(_ kind: GestureEvent.Kind) -> GestureScene {
        GestureScene(
            width: 800, height: 800,
            views: [
                GestureScene.View(
                    id: "v", frame: Rect(x: 0, y: 0, width: 800, height: 800),
                    recognizers: [
                        GestureScene.Recognizer(name: "r", kind: kind, settings: RecognizerSettings.defaults(for: kind))
                    ])
            ])
    }

    static func published(_ effects: [DeviceLanes.Effect]) -> [GestureEvent] {
        effects.compactMap { if case .publish(let event) = $0 { return event } else { return nil } }
    }

    @Test func aLongPressWakeIsDue500msOfMonotonicTimeAfterTheLandingArrivedWhateverTheSourceClock() throws {
        var lanes = DeviceLanes(scene: Self.scene(.longPress))
        // The device's clock reads 7 s when the monotonic one reads 1 s.
        let effects = lanes.handle(.frameArrived(Self.frame("d0", 7000, .began), at: Self.mono(1_000_000_000)))
        #expect(effects == [.wake(device: "d0", at: Self.mono(1_500_000_000))])
        let fired = Self.published(lanes.handle(.wakeDue(device: "d0", at: Self.mono(1_500_400_000))))
        #expect(fired.map(\.state) == [.began])
        #expect(fired.first?.tMs == 7500)
    }

    @Test func aFrameStampedBeforeTheTimeATimerReachedIsFedAtThatTimeSoTimeNeverGoesBack() throws {
        var lanes = DeviceLanes(scene: Self.scene(.longPress))
        _ = lanes.handle(.frameArrived(Self.frame("d0", 0, .began), at: Self.mono(0)))
        _ = lanes.handle(.wakeDue(device: "d0", at: Self.mono(520 * Self.ms)))
        // Lifted at 510 ms, arriving after the timer had taken the lane to 520 ms.
        let ended = Self.published(
            lanes.handle(.frameArrived(Self.frame("d0", 510, .ended), at: Self.mono(530_000_000))))
        #expect(ended.map(\.state) == [.ended])
        #expect(ended.first?.tMs == 520)
    }

    /// A right swipe (the default direction) of 200 pt in 120 ms, its source time from `t0Ms`,
    /// arriving `arrivalMs` later than stamped (paced as recorded): the lane's effects.
    static func swipeRight(_ lanes: inout DeviceLanes, t0Ms: Double, arrivalMs: Int64) -> [DeviceLanes.Effect] {
        let lines = ScenarioGenerator().swipe(.right, x: 300, y: 400, t0: t0Ms)
        return TouchScriptFramer.frames(for: TouchScript(lines: lines)).frames.flatMap { frame in
            lanes.handle(.frameArrived(frame, at: Self.mono(frame.tNs + arrivalMs * Self.ms)))
        }
    }

    @Test func aRecordingReplayedBackToBackFromItsStartIsRecognizedWithItsOwnVelocityEachTime() throws {
        var lanes = DeviceLanes(scene: Self.scene(.swipe))
        let first = Self.published(Self.swipeRight(&lanes, t0Ms: 1000, arrivalMs: 0))
        // The same recording again, sent 200 ms after the first pass ended: its clock reads 1000 ms
        // again, 120 ms before where the lane stands.
        let again = Self.published(Self.swipeRight(&lanes, t0Ms: 1000, arrivalMs: 320))
        for swipe in [first, again] {
            #expect(swipe.map(\.state) == [.recognized])
            #expect(swipe.first?.direction == .right)
            #expect((swipe.first?.velocity?.x ?? 0) > 1000, "about 1 700 pt/s, as recorded")
        }
        // The second pass runs on the lane's clock: it lands 200 ms after the first one lifted.
        #expect(again.first.map(\.tMs) == first.first.map { $0.tMs + 320 })
    }

    @Test func aFrameAFewMillisecondsLateIsFedAtTheLanesTimeAndTheFramesAfterItKeepTheirOwn() throws {
        var lanes = DeviceLanes(scene: Self.scene(.pan))
        _ = lanes.handle(.frameArrived(Self.frame("d0", 0, .began), at: Self.mono(0)))
        let ahead = lanes.handle(.frameArrived(Self.frame("d0", 100, .moved, x: 260), at: Self.mono(100 * Self.ms)))
        #expect(Self.published(ahead).first?.tMs == 100)
        // Stamped 40 ms before the lane's time (within the tolerance): late, not a jump.
        let late = lanes.handle(.frameArrived(Self.frame("d0", 60, .moved, x: 270), at: Self.mono(110 * Self.ms)))
        #expect(!late.contains { if case .sourceClockJumped = $0 { true } else { false } })
        #expect(Self.published(late).first?.tMs == 100)
        // Nothing was shifted: the next frame is fed at its own time.
        let next = lanes.handle(.frameArrived(Self.frame("d0", 116, .moved, x: 280), at: Self.mono(120 * Self.ms)))
        #expect(Self.published(next).first?.tMs == 116)
    }

    @Test func aClockJumpingBackIsReportedOnceWithHowFarAndTheFramesAfterItKeepTheirSpacing() throws {
        var lanes = DeviceLanes(scene: Self.scene(.pan))
        _ = lanes.handle(.frameArrived(Self.frame("d0", 5000, .began), at: Self.mono(0)))
        _ = lanes.handle(.frameArrived(Self.frame("d0", 5100, .moved, x: 260), at: Self.mono(100 * Self.ms)))
        // The source restarts at 0 s, 30 ms of monotonic time later.
        let jumped = lanes.handle(.frameArrived(Self.frame("d0", 0, .moved, x: 270), at: Self.mono(130 * Self.ms)))
        #expect(jumped.first == .sourceClockJumped(device: "d0", back: .milliseconds(5100)))
        #expect(Self.published(jumped).first?.tMs == 5130)
        let after = lanes.handle(.frameArrived(Self.frame("d0", 16, .moved, x: 280), at: Self.mono(146 * Self.ms)))
        #expect(!after.contains { if case .sourceClockJumped = $0 { true } else { false } })
        #expect(Self.published(after).first?.tMs == 5146)
    }

    @Test func eachDeviceHasItsOwnEngineClockAndWake() throws {
        var lanes = DeviceLanes(scene: Self.scene(.longPress))
        _ = lanes.handle(.frameArrived(Self.frame("d0", 0, .began), at: Self.mono(0)))
        // d1 runs on another clock and lands later; its wake is its own.
        let d1 = lanes.handle(.frameArrived(Self.frame("d1", 90_000, .began), at: Self.mono(200_000_000)))
        #expect(d1 == [.wake(device: "d1", at: Self.mono(700_000_000))])
        // d0's timer fires without touching d1.
        #expect(
            Self.published(lanes.handle(.wakeDue(device: "d0", at: Self.mono(500_000_000)))).map(\.device) == ["d0"])
        // d0 lifting does not end d1's press.
        let lift = Self.published(
            lanes.handle(.frameArrived(Self.frame("d0", 600, .ended), at: Self.mono(600_000_000))))
        #expect(lift.map(\.device) == ["d0"])
        #expect(
            Self.published(lanes.handle(.wakeDue(device: "d1", at: Self.mono(700_000_000)))).map(\.device) == ["d1"])
        #expect(lanes.devices == ["d0", "d1"])
    }

    @Test func aWakeThatIsNoLongerNeededIsCancelled() throws {
        var lanes = DeviceLanes(scene: Self.scene(.longPress))
        _ = lanes.handle(.frameArrived(Self.frame("d0", 0, .began), at: Self.mono(0)))
        // Moving 50 pt fails the long press: no timer is left.
        let moved = lanes.handle(.frameArrived(Self.frame("d0", 100, .moved, x: 250), at: Self.mono(100_000_000)))
        #expect(moved.contains(.cancelWake(device: "d0")))
    }

    @Test func aNewSceneStartsEveryDeviceAfreshAndCancelsItsWakes() throws {
        var lanes = DeviceLanes(scene: Self.scene(.longPress))
        _ = lanes.handle(.frameArrived(Self.frame("d0", 0, .began), at: Self.mono(0)))
        #expect(lanes.handle(.sceneChanged(Self.scene(.tap))) == [.cancelWake(device: "d0")])
        #expect(lanes.devices.isEmpty)
        #expect(lanes.handle(.wakeDue(device: "d0", at: Self.mono(500_000_000))).isEmpty)
    }
}
