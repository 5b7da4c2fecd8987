import BusSchema
import GestureCore
import InputCore
import Testing

@Suite struct RecordingReplayTests {
    static func replay(_ name: String, scene: GestureScene = .standard()) -> [GestureEvent] {
        let device = String(name[..<name.firstIndex(of: ".")!])
        let converted = OfflineConversion.frames(
            evemu: Replay.text("evemu/\(name).events"), desc: Replay.text("evemu/\(device).desc"))
        return GestureEngine.replay(converted.frames, scene: scene)
    }

    @Test func atmelFastTapsGiveNineTapsAndFourDoubleTaps() {
        let events = Self.replay("Atmel_maXTouch_Touchscreen.1-finger-fast-taps")
        #expect(events.named("tap").states == Array(repeating: .recognized, count: 9))
        #expect(events.named("doubleTap").filter { $0.state == .recognized }.count == 4)
        #expect(events.named("touchDown").filter { $0.state == .began }.count == 9)
        #expect(events.named("pan").allSatisfy { $0.state == .failed })
        #expect(events.named("longPress").allSatisfy { $0.state == .failed })
    }

    @Test(arguments: [
        "Atmel_maXTouch_Touchscreen.1-finger-drag-up-down", "N-Trig_MultiTouch.1-finger-drag-NW-SE",
        "EP0430M09.2-finger-scroll-down", "EP0430M09.4-finger-drag-down",
    ])
    func dragsArePans(name: String) {
        let pan = Self.replay(name).named("pan")
        #expect(pan.first?.state == .began)
        #expect(pan.last?.state == .ended)
        #expect(pan.dropFirst().dropLast().allSatisfy { $0.state == .changed })
        #expect(pan.count > 10)
    }

    @Test func twoFingerScrollPansWithTwoTouches() {
        let pan = Self.replay("EP0430M09.2-finger-scroll-down").named("pan")
        #expect(pan.contains { $0.touches == 2 })
        // Scrolling the content down moves the fingers up the screen.
        #expect((pan.last?.translation?.y ?? 0) < -100)
    }

    @Test(arguments: ["Atmel_maXTouch_Touchscreen.2-fingers-touch-release", "EP0430M09.2-fingers-touch-release"])
    func twoFingerTouchIsNoTapAndNoLongPress(name: String) {
        let events = Self.replay(name)
        #expect(events.named("tap").states == [.failed])
        #expect(events.named("longPress").states == [.failed])
        #expect(events.named("touchDown").last?.state != .ended)
    }
}
