import BusSchema
import GestureCore
import MessageFixtures
import Testing

/// Frames a broken source might send straight to the engine (not through the script checks).
@Suite struct RobustnessTests {
    private func frame(_ tMs: Int64, _ contacts: [TouchContact], device: String = "d0") -> TouchFrame {
        .frame(device, 1, tNs: tMs * 1_000_000, contacts: contacts)
    }

    @Test func inconsistentFramesNeverCrashAndStayPerDevice() {
        var engine = GestureEngine(scene: .standard())
        let frames = [
            self.frame(100, [.contact(1, .began, x: 10, y: 10)]),
            // Time goes backwards, an unknown id moves, the same id begins twice.
            self.frame(50, [.contact(9, .moved, x: 10, y: 10)]),
            self.frame(60, [.contact(1, .began, x: 300, y: 10)]),
            self.frame(70, []),
            self.frame(80, [.contact(7, .ended, x: 1, y: 1)]),
            self.frame(90, [.contact(1, .cancelled, x: 1, y: 1)], device: "other"),
            self.frame(200, [.contact(1, .ended, x: 300, y: 10)]),
            // Afterwards every recognizer is free again: a clean tap is recognized.
            self.frame(2000, [.contact(2, .began, x: 50, y: 50)]),
            self.frame(2050, [.contact(2, .ended, x: 50, y: 50)]),
        ]
        var events: [GestureEvent] = []
        for frame in frames {
            for case .publish(let event) in engine.handle(.frameArrived(frame)) { events.append(event) }
        }
        while let deadline = engine.nextDeadline {
            for case .publish(let event) in engine.handle(.timeElapsed(deadline)) { events.append(event) }
        }
        #expect(events.allSatisfy { $0.device == "d0" })
        #expect(events.named("touchDown").first?.state == .began)
        #expect(engine.nextDeadline == nil)
        #expect(events.named("tap").last.map { "\($0.tMs) \($0.state)" } == "2050.0 recognized")
        #expect(events.named("touchDown").suffix(2).map(\.state) == [.began, .ended])
    }

    @Test func timersFireWithoutFrames() {
        // A long press begins from the timer alone, at its own time.
        var engine = GestureEngine(scene: .standard())
        let effects = engine.handle(.frameArrived(self.frame(0, [.contact(1, .began, x: 5, y: 5)])))
        #expect(effects.contains(.wake(at: SourceInstant(nanoseconds: 500_000_000))))
        let fired = engine.handle(.timeElapsed(SourceInstant(nanoseconds: 500_000_000)))
        let states = fired.compactMap { effect -> String? in
            if case .publish(let event) = effect { "\(event.name!) \(event.state)" } else { nil }
        }
        #expect(states == ["tap failed", "doubleTap failed", "longPress began"])
    }
}
