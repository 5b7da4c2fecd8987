import BusSchema
import GestureCore
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
