import BusSchema
import GestureCore
import Testing

/// Frames a broken source might send straight to the engine (not through the script checks).
@Suite struct RobustnessTests {
    private func frame(_ tMs: Int64, _ contacts: [TouchContact], device: String = "d0") -> TouchFrame {
        TouchFrame {
            $0.device = device
            $0.frame = 1
            $0.tNs = tMs * 1_000_000
            $0.contacts = contacts
        }
    }

    @Test func inconsistentFramesNeverCrashAndStayPerDevice() {
        var engine = GestureEngine(scene: .standard())
        let frames = [
            self.frame(
                100,
                [
                    TouchContact {
                        $0.id = 1
                        $0.phase = .began
                        $0.x = 10
                        $0.y = 10
                    }
                ]),
            // Time goes backwards, an unknown id moves, the same id begins twice.
            self.frame(
                50,
                [
                    TouchContact {
                        $0.id = 9
                        $0.phase = .moved
                        $0.x = 10
                        $0.y = 10
                    }
                ]),
            self.frame(
                60,
                [
                    TouchContact {
                        $0.id = 1
                        $0.phase = .began
                        $0.x = 300
                        $0.y = 10
                    }
                ]),
            self.frame(70, []),
            self.frame(
                80,
                [
                    TouchContact {
                        $0.id = 7
                        $0.phase = .ended
                        $0.x = 1
                        $0.y = 1
                    }
                ]),
            self.frame(
                90,
                [
                    TouchContact {
                        $0.id = 1
                        $0.phase = .cancelled
                        $0.x = 1
                        $0.y = 1
                    }
                ], device: "other"),
            self.frame(
                200,
                [
                    TouchContact {
                        $0.id = 1
                        $0.phase = .ended
                        $0.x = 300
                        $0.y = 10
                    }
                ]),
            // Afterwards every recognizer is free again: a clean tap is recognized.
            self.frame(
                2000,
                [
                    TouchContact {
                        $0.id = 2
                        $0.phase = .began
                        $0.x = 50
                        $0.y = 50
                    }
                ]),
            self.frame(
                2050,
                [
                    TouchContact {
                        $0.id = 2
                        $0.phase = .ended
                        $0.x = 50
                        $0.y = 50
                    }
                ]),
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
        let effects = engine.handle(
            .frameArrived(
                self.frame(
                    0,
                    [
                        TouchContact {
                            $0.id = 1
                            $0.phase = .began
                            $0.x = 5
                            $0.y = 5
                        }
                    ])))
        #expect(effects.contains(.wake(at: SourceInstant(nanoseconds: 500_000_000))))
        let fired = engine.handle(.timeElapsed(SourceInstant(nanoseconds: 500_000_000)))
        let states = fired.compactMap { effect -> String? in
            if case .publish(let event) = effect { "\(event.name!) \(event.state)" } else { nil }
        }
        #expect(states == ["tap failed", "doubleTap failed", "longPress began"])
    }
}
