import BusSchema
import InputCore
import Testing

@Suite struct MultitouchDecoderTests {
    @Test(arguments: Fixtures.recordings)
    func everyRecordingEndsEveryContactItBegins(name: String) {
        let frames = Fixtures.frames(name)
        #expect(!frames.isEmpty)
        var live: Set<Int> = []
        for frame in frames {
            for contact in frame.contacts {
                switch contact.phase {
                case .began: #expect(live.insert(contact.id).inserted)
                case .ended, .cancelled: #expect(live.remove(contact.id) != nil)
                case .moved, .stationary: #expect(live.contains(contact.id))
                }
            }
        }
        #expect(live.isEmpty)
        #expect(frames.map(\.frame) == Array(1...UInt64(frames.count)))
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.tNs <= $1.tNs })
    }

    @Test func atmelFastTapsAreNineShortTaps() {
        let frames = Fixtures.frames("Atmel_maXTouch_Touchscreen.1-finger-fast-taps")
        let began = frames.flatMap(\.contacts).filter { $0.phase == .began }
        #expect(began.count == 9)
        #expect(frames.count == 18)
        #expect(began.first.map { ($0.id, $0.x, $0.y) } ?? (0, 0, 0) == (3, 340, 242))
        // Tap 2 (id 4) lands at 233.856 ms and lifts at 316.645 ms.
        let tap2 = frames.filter { $0.contacts.contains { $0.id == 4 } }
        #expect(tap2.map(\.tNs) == [233_856_000, 316_645_000])
    }

    @Test func newContactKeepsTheSlotsUnchangedX() {
        // Tracking id 7 in the fast-taps file sends only ABS_MT_POSITION_Y: X comes from the slot.
        let frames = Fixtures.frames("Atmel_maXTouch_Touchscreen.1-finger-fast-taps")
        let before = frames.flatMap(\.contacts).last { $0.id == 6 }
        let began7 = frames.flatMap(\.contacts).first { $0.id == 7 && $0.phase == .began }
        #expect(before != nil && began7 != nil)
        #expect(began7?.x == before?.x)
    }

    @Test(arguments: [
        "Atmel_maXTouch_Touchscreen.2-fingers-touch-release", "EP0430M09.2-fingers-touch-release",
    ])
    func twoFingerRecordingsHoldTwoConcurrentContacts(name: String) {
        let frames = Fixtures.frames(name)
        #expect(frames.map(\.contacts.count).max() == 2)
        let ids = Set(frames.flatMap(\.contacts).map(\.id))
        #expect(ids.count == 2)
    }

    @Test func atmelTwoFingerLifetimesMatchTheRecording() {
        let frames = Fixtures.frames("Atmel_maXTouch_Touchscreen.2-fingers-touch-release")
        func time(_ id: Int, _ phase: TouchContact.Phase) -> Int64? {
            frames.first { $0.contacts.contains { $0.id == id && $0.phase == phase } }?.tNs
        }
        // Slot 0 id 7 lands at 0 ms, slot 1 id 8 at 54.6 ms; 8 lifts at ≈ 810 ms, 7 at ≈ 824 ms.
        #expect(time(7, .began)! < 1_000_000)
        #expect((54_000_000...55_000_000).contains(time(8, .began)!))
        #expect((800_000_000...815_000_000).contains(time(8, .ended)!))
        #expect((815_000_000...830_000_000).contains(time(7, .ended)!))
    }

    @Test func ep0430FingersLandInTheSameFrameAndLiftApart() {
        let frames = Fixtures.frames("EP0430M09.2-fingers-touch-release")
        #expect(frames.first!.contacts.map { "\($0.id) \($0.phase)" } == ["1 began", "2 began"])
        // Tracking id 1 lifts at 513.464 ms, id 2 at 527.810 ms (the recording's -1 lines).
        let ends = frames.flatMap { frame in frame.contacts.filter { $0.phase == .ended }.map { ($0.id, frame.tNs) } }
        #expect(ends.map { "\($0.0)@\($0.1)" } == ["1@513464000", "2@527810000"])
    }

    @Test func fourFingerDragHasFourContacts() {
        let frames = Fixtures.frames("EP0430M09.4-finger-drag-down")
        #expect(frames.map(\.contacts.count).max() == 4)
    }

    @Test func protocolADeviceBecomesOneContact() {
        let frames = Fixtures.frames("N-Trig_MultiTouch.1-finger-drag-NW-SE", width: 1280, height: 800)
        #expect(frames.count == 107)
        #expect(Set(frames.flatMap(\.contacts).map(\.id)) == [0])
        let first = frames.first!.contacts[0]
        let last = frames.last!.contacts[0]
        #expect(last.phase == .ended)
        // Dragged north-west to south-east across the scene.
        #expect(last.x > first.x + 1000 && last.y > first.y + 600)
    }

    @Test func deviceUnitsMapOntoTheScene() {
        let frames = Fixtures.frames("Atmel_maXTouch_Touchscreen.1-finger-fast-taps", width: 1600, height: 960)
        let first = frames[0].contacts[0]
        #expect(abs(first.x - 340 * 1600 / 799) < 1e-9)
        #expect(abs(first.y - 242 * 960 / 479) < 1e-9)
    }

    @Test func valuesNotResentAreKeptPerSlot() {
        let frames = Fixtures.decode([
            (0, evAbs, slot, 0), (0, evAbs, trackingID, 1), (0, evAbs, posX, 100), (0, evAbs, posY, 200),
            (0, evAbs, slot, 1), (0, evAbs, trackingID, 2), (0, evAbs, posX, 500), (0, evAbs, posY, 600),
            (0, evSyn, report, 0),
            // Only slot 1's Y changes; slot 0 is stationary and slot 1 keeps its X.
            (10, evAbs, posY, 650), (10, evSyn, report, 0),
        ])
        #expect(frames.count == 2)
        #expect(frames[1].contacts.map(\.phase) == [.stationary, .moved])
        #expect(frames[1].contacts[1].x == 500 && frames[1].contacts[1].y == 650)
        #expect(frames[1].contacts[0].x == 100 && frames[1].contacts[0].y == 200)
    }

    @Test func synDroppedDiscardsToTheNextReportAndCancelsEverything() {
        let frames = Fixtures.decode([
            (0, evAbs, trackingID, 1), (0, evAbs, posX, 100), (0, evAbs, posY, 100), (0, evSyn, report, 0),
            (10, evSyn, EventCode.synDropped, 0), (10, evAbs, posX, 900), (12, evSyn, report, 0),
            // The cancelled contact's later updates are ignored until the slot gets a new id.
            (20, evAbs, posX, 300), (20, evSyn, report, 0),
            (30, evAbs, trackingID, -1), (30, evSyn, report, 0),
            (40, evAbs, trackingID, 2), (40, evAbs, posX, 50), (40, evSyn, report, 0),
        ])
        #expect(frames.count == 3)
        #expect(frames[1].contacts.map(\.phase) == [.cancelled])
        #expect(frames[1].contacts[0].x == 100)
        #expect(frames[1].tNs == 12_000_000)
        #expect(frames[2].contacts.map { "\($0.id) \($0.phase)" } == ["2 began"])
    }

    @Test func palmToolCancelsTheContact() {
        let tool = EventCode.mtToolType
        let frames = Fixtures.decode([
            (0, evAbs, trackingID, 1), (0, evAbs, posX, 100), (0, evAbs, posY, 100), (0, evSyn, report, 0),
            (10, evAbs, tool, EventCode.toolPalm), (10, evSyn, report, 0),
            (20, evAbs, posX, 150), (20, evSyn, report, 0),
            (30, evAbs, trackingID, -1), (30, evSyn, report, 0),
        ])
        #expect(frames.map { $0.contacts.map(\.phase) } == [[.began], [.cancelled]])
    }

    @Test func deviceRemovalCancelsEveryContact() {
        var decoder = MultitouchDecoder(
            device: "d0", description: Fixtures.smallScreen, mapper: CoordinateMapper(description: Fixtures.smallScreen)
        )
        for (type, code, value) in [
            (evAbs, trackingID, 1), (evAbs, posX, 10), (evAbs, slot, 1), (evAbs, trackingID, 2),
        ] {
            _ = decoder.handle(
                .eventRead(InputEvent(time: SourceInstant(nanoseconds: 0), type: type, code: code, value: Int32(value)))
            )
        }
        _ = decoder.handle(
            .eventRead(InputEvent(time: SourceInstant(nanoseconds: 0), type: evSyn, code: report, value: 0)))
        let frame = decoder.handle(.deviceRemoved(at: SourceInstant(nanoseconds: 5)))
        #expect(frame?.contacts.map(\.phase) == [.cancelled, .cancelled])
        #expect(decoder.handle(.deviceRemoved(at: SourceInstant(nanoseconds: 6))) == nil)
    }

    @Test func liftAndNewContactInOneFrameGiveEndedAndBegan() {
        let frames = Fixtures.decode([
            (0, evAbs, trackingID, 1), (0, evAbs, posX, 100), (0, evSyn, report, 0),
            (10, evAbs, trackingID, -1), (10, evAbs, trackingID, 2), (10, evAbs, posX, 300), (10, evSyn, report, 0),
        ])
        #expect(frames[1].contacts.map { "\($0.id) \($0.phase)" } == ["1 ended", "2 began"])
        #expect(frames[1].contacts[0].x == 100)
    }

    @Test func rawCaptureDecodesLikeItsEvemuRecording() {
        // A binary capture of the same events (as read from /dev/input/eventN) gives the same frames.
        let recording = Fixtures.recording("Atmel_maXTouch_Touchscreen.2-fingers-touch-release")
        let raw = recording.events.flatMap(\.binary)
        let events = raw.withUnsafeBytes { InputEvent.decode($0).events }
        let frames = OfflineConversion.frames(events: events, description: recording.description)
        #expect(
            frames == OfflineConversion.guarded(Fixtures.frames("Atmel_maXTouch_Touchscreen.2-fingers-touch-release")))
    }

    @Test func binaryInputEventsRoundTrip() {
        let events = [
            InputEvent(
                time: SourceInstant(nanoseconds: 1_357_751_027_090_934_000), type: evAbs, code: trackingID, value: -1),
            InputEvent(time: SourceInstant(nanoseconds: 5_000), type: evSyn, code: report, value: 0),
        ]
        let bytes = events.flatMap(\.binary) + [1, 2, 3]
        #expect(bytes.count == 2 * 24 + 3)
        let decoded = bytes.withUnsafeBytes { InputEvent.decode($0) }
        #expect(decoded.events == events)
        #expect(decoded.leftover == 3)
    }
}
