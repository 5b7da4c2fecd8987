import BusSchema
import InputCore
import MessageFixtures
import Testing

@Suite struct StuckTouchGuardTests {
    private func frame(_ tMs: Int64, _ contacts: [TouchContact], device: String = "d0") -> TouchFrame {
        .frame(device, 0, tNs: tMs * 1_000_000, contacts: contacts)
    }

    private func published(_ effects: [StuckTouchGuard.Effect]) -> [TouchFrame] {
        effects.compactMap { if case .publish(let frame) = $0 { frame } else { nil } }
    }

    @Test func silentContactIsCancelledAfterTheTimeout() {
        var guardian = StuckTouchGuard(timeout: .seconds(10))
        let effects = guardian.handle(.frameArrived(self.frame(0, [.contact(1, .began, x: 5, y: 5)])))
        #expect(effects.last == .wake(at: SourceInstant(nanoseconds: 10_000_000_000)))
        #expect(self.published(guardian.handle(.timeElapsed(at: SourceInstant(nanoseconds: 9_999_999_999)))).isEmpty)
        let cancelled = self.published(guardian.handle(.timeElapsed(at: SourceInstant(nanoseconds: 10_000_000_000))))
        #expect(cancelled.map { $0.contacts.map(\.phase) } == [[.cancelled]])
        #expect(cancelled.first?.frame == 2)
        #expect(guardian.nextDeadline == nil)
    }

    @Test func movingContactStaysAndLaterReportsOfACancelledOneAreDropped() {
        var guardian = StuckTouchGuard(timeout: .seconds(1))
        _ = guardian.handle(.frameArrived(self.frame(0, [.contact(1, .began, x: 5, y: 5)])))
        _ = guardian.handle(
            .frameArrived(
                self.frame(
                    500,
                    [
                        .contact(1, .stationary, x: 5, y: 5),
                        .contact(2, .began, x: 9, y: 9),
                    ])))
        // At 1.2 s contact 1 has been silent for 1 s: it is cancelled before the frame is forwarded.
        let effects = guardian.handle(
            .frameArrived(
                self.frame(
                    1200,
                    [
                        .contact(1, .moved, x: 6, y: 5),
                        .contact(2, .moved, x: 9, y: 10),
                    ])))
        let frames = self.published(effects)
        #expect(frames.map { $0.contacts.map(\.phase) } == [[.cancelled, .stationary], [.moved]])
        #expect(frames.map(\.tNs) == [1_000_000_000, 1_200_000_000])
        #expect(frames.map(\.frame) == [3, 4])
    }

    @Test func devicesAreGuardedSeparately() {
        var guardian = StuckTouchGuard(timeout: .nanoseconds(1_000))
        _ = guardian.handle(.frameArrived(self.frame(0, [.contact(1, .began, x: 5, y: 5)], device: "a")))
        let effects = guardian.handle(
            .frameArrived(self.frame(1, [.contact(1, .began, x: 5, y: 5)], device: "b")))
        let frames = self.published(effects)
        #expect(frames.map(\.device) == ["a", "b"])
        #expect(frames[0].contacts[0].phase == .cancelled)
        #expect(frames[1].contacts[0].phase == .began)
    }

    @Test func resigningActiveCancelsEveryContactAndTouchesBegunWhileInactiveNeverArrive() {
        var guardian = StuckTouchGuard(timeout: .seconds(10))
        _ = guardian.handle(.frameArrived(self.frame(0, [.contact(1, .began, x: 5, y: 5)])))
        _ = guardian.handle(
            .frameArrived(self.frame(10, [.contact(7, .began, x: 1, y: 1)], device: "d1")))
        let cancelled = self.published(
            guardian.handle(.activeChanged(false, at: SourceInstant(nanoseconds: 20_000_000))))
        #expect(cancelled.map(\.device) == ["d0", "d1"])
        #expect(cancelled.map { $0.contacts.map(\.phase) } == [[.cancelled], [.cancelled]])
        #expect(cancelled.map(\.tNs) == [20_000_000, 20_000_000])
        #expect(guardian.nextDeadline == nil)
        // While inactive: the cancelled contact's reports and a new touch are all dropped.
        let inactive = guardian.handle(
            .frameArrived(
                self.frame(
                    30,
                    [.contact(1, .moved, x: 6, y: 6), .contact(2, .began, x: 3, y: 3)]
                )))
        #expect(self.published(inactive).isEmpty)
        #expect(
            self.published(guardian.handle(.activeChanged(true, at: SourceInstant(nanoseconds: 40_000_000)))).isEmpty)
        // Active again: touch 2 (begun while inactive) stays unseen until it ends; a new touch flows.
        let after = self.published(
            guardian.handle(
                .frameArrived(
                    self.frame(
                        50,
                        [
                            .contact(2, .moved, x: 4, y: 4),
                            .contact(1, .ended, x: 6, y: 6),
                            .contact(3, .began, x: 8, y: 8),
                        ]))))
        #expect(after.map { $0.contacts.map(\.id) } == [[3]])
        #expect(after.first?.frame == 3)
        _ = guardian.handle(.frameArrived(self.frame(60, [.contact(2, .ended, x: 4, y: 4)])))
        let restarted = self.published(
            guardian.handle(.frameArrived(self.frame(70, [.contact(2, .began, x: 4, y: 4)]))))
        #expect(restarted.map { $0.contacts.map(\.phase) } == [[.began]])
    }
}
