import BusSchema
import MessageFixtures
import Testing

@testable import ViewService

struct TouchCoalescerTests {
    private func contact(_ id: Int, _ phase: TouchContact.Phase, _ x: Double) -> TouchContact {
        .contact(id, phase, x: x, y: 10) { $0.tool = .finger }
    }

    @Test func movesBetweenFlushesMergeIntoOneFrameWithTheNewestPosition() throws {
        var coalescer = TouchCoalescer()
        try coalescer.receive(self.contact(1, .began, 0), tNs: 1)
        #expect(coalescer.flush()?.contacts == [self.contact(1, .began, 0)])
        for step in 1...100_000 { try coalescer.receive(self.contact(1, .moved, Double(step)), tNs: Int64(step)) }
        let frame = coalescer.flush()
        #expect(frame?.contacts == [self.contact(1, .moved, 100_000)])
        #expect(frame?.tNs == 100_000)
        #expect(coalescer.flush() == nil)
    }

    @Test func aTapWithinOneFlushStillSendsBeganThenEnded() throws {
        var coalescer = TouchCoalescer()
        try coalescer.receive(self.contact(1, .began, 5), tNs: 1)
        try coalescer.receive(self.contact(1, .moved, 6), tNs: 2)
        try coalescer.receive(self.contact(1, .ended, 7), tNs: 3)
        #expect(coalescer.flush()?.contacts == [self.contact(1, .began, 5)])
        #expect(coalescer.flush()?.contacts == [self.contact(1, .ended, 7)])
        #expect(coalescer.flush() == nil)
        #expect(coalescer.isIdle)
    }

    @Test func everyFrameListsTheOtherOpenContactsAsStationary() throws {
        var coalescer = TouchCoalescer()
        try coalescer.receive(self.contact(1, .began, 0), tNs: 1)
        try coalescer.receive(self.contact(2, .began, 50), tNs: 1)
        _ = coalescer.flush()
        try coalescer.receive(self.contact(2, .moved, 60), tNs: 2)
        #expect(coalescer.flush()?.contacts == [self.contact(1, .stationary, 0), self.contact(2, .moved, 60)])
    }

    @Test func cancelAllEndsEveryOpenContactAndDropsWhatWasNotSent() throws {
        var coalescer = TouchCoalescer()
        try coalescer.receive(self.contact(1, .began, 0), tNs: 1)
        _ = coalescer.flush()
        try coalescer.receive(self.contact(1, .moved, 9), tNs: 2)
        try coalescer.receive(self.contact(2, .began, 3), tNs: 2)
        coalescer.cancelAll(tNs: 3)
        let frame = coalescer.flush()
        #expect(frame?.contacts == [self.contact(1, .cancelled, 0)])
        #expect(frame?.tNs == 3)
        #expect(coalescer.isIdle)
        try coalescer.receive(self.contact(1, .moved, 4), tNs: 4)
        #expect(coalescer.flush() == nil)
    }

    @Test func aPageThatOnlyChangesPhasesIsRefusedOnceTooManyFramesWait() throws {
        var coalescer = TouchCoalescer()
        #expect(throws: TouchCoalescer.Refusal.self) {
            for step in 0..<1000 {
                try coalescer.receive(self.contact(1, .began, 0), tNs: Int64(step))
                try coalescer.receive(self.contact(1, .ended, 0), tNs: Int64(step))
            }
        }
    }

    @Test func aSecondBeganOfAnOpenContactAndAnEleventhContactAreRefused() throws {
        var coalescer = TouchCoalescer()
        try coalescer.receive(self.contact(1, .began, 0), tNs: 1)
        #expect(throws: TouchCoalescer.Refusal.self) { try coalescer.receive(self.contact(1, .began, 0), tNs: 1) }
        for id in 2...10 { try coalescer.receive(self.contact(id, .began, 0), tNs: 1) }
        #expect(throws: TouchCoalescer.Refusal.self) { try coalescer.receive(self.contact(11, .began, 0), tNs: 1) }
    }
}
