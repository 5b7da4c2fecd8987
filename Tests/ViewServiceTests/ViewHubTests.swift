import BusSchema
import Glibc
import MessageFixtures
import Testing

@testable import ViewService

struct ViewHubTests {
    private func pointer(_ phase: TouchContact.Phase, x: Double, tMs: Double) -> PageMessage {
        .pointer(
            tMs: tMs,
            contacts: [
                .contact(1, phase, x: x, y: 5) { $0.tool = .finger }
            ])
    }

    @Test func aPagesTouchesGoOutOnItsOwnDeviceInThePagesTime() throws {
        let hub = ViewHub()
        hub.sessionOpened("abc")
        try hub.received(self.pointer(.began, x: 10, tMs: 2.5), from: "abc")
        let frames = hub.drain(nowNs: 10_000_000).frames
        #expect(frames.map(\.device) == ["web-abc"])
        #expect(frames.first?.frame == 1)
        #expect(frames.first?.tNs == 2_500_000)
    }

    @Test func aPageClockThatGoesBackIsHeldAtItsLatestTime() throws {
        let hub = ViewHub()
        hub.sessionOpened("abc")
        try hub.received(self.pointer(.began, x: 10, tMs: 9), from: "abc")
        _ = hub.drain(nowNs: 20_000_000)
        try hub.received(self.pointer(.moved, x: 11, tMs: 3), from: "abc")
        #expect(hub.drain(nowNs: 30_000_000).frames.first?.tNs == 9_000_000)
    }

    @Test func aClosedPageCancelsItsOpenTouchAndIsForgotten() throws {
        let hub = ViewHub()
        hub.sessionOpened("abc")
        try hub.received(self.pointer(.began, x: 10, tMs: 1), from: "abc")
        _ = hub.drain(nowNs: 40_000_000)
        hub.sessionClosed("abc", tNs: nil)
        #expect(hub.drain(nowNs: 50_000_000).frames.first?.contacts.map(\.phase) == [.cancelled])
        #expect(hub.inbound.withLock { $0.sessions.isEmpty })
    }

    @Test func aHiddenPageCancelsItsTouchAndSaysSo() throws {
        let hub = ViewHub()
        hub.sessionOpened("abc")
        try hub.received(self.pointer(.began, x: 10, tMs: 1), from: "abc")
        _ = hub.drain(nowNs: 60_000_000)
        try hub.received(.visibility(visible: false), from: "abc")
        let drained = hub.drain(nowNs: 70_000_000)
        #expect(drained.active == false)
        #expect(drained.frames.first?.contacts.map(\.phase) == [.cancelled])
        try hub.received(.visibility(visible: true), from: "abc")
        #expect(hub.drain(nowNs: 80_000_000).active == true)
    }

    @Test func theAppResignsOnlyWhenNoPageIsShownAndBecomesActiveWhenOneIs() throws {
        let hub = ViewHub()
        hub.sessionOpened("a")
        hub.sessionOpened("b")
        #expect(hub.drain(nowNs: 90_000_000).active == nil)
        hub.sessionClosed("a", tNs: nil)
        #expect(hub.drain(nowNs: 100_000_000).active == nil)
        try hub.received(.visibility(visible: false), from: "b")
        #expect(hub.drain(nowNs: 110_000_000).active == false)
        hub.sessionOpened("c")
        #expect(hub.drain(nowNs: 120_000_000).active == true)
    }

    @Test func aSlowPageGetsTheNewestFrameInOnePacket() throws {
        let hub = ViewHub()
        #expect(hub.publishTiles(TileChainTests.key(frame: 1)))
        for frame in 2...5 { #expect(hub.publishTiles(TileChainTests.patch(frame: frame, x: 0))) }
        var cursor = ViewHub.Cursor(batch: hub.lastBatch)
        guard case .frame(let packet, let skipped) = try #require(hub.next(&cursor)) else {
            Issue.record("a frame first")
            return
        }
        #expect(cursor.changes == 5 && cursor.tileNumber == 5 && skipped == 0, "up to the newest tile, a new page")
        // The header lists the key frame and the one tile the later ones (all at x 0) left.
        let header = try Self.header(packet)
        #expect(header["tiles"]?.arrayValue?.count == 2 && header["key"] == .bool(true))
        #expect(hub.next(&cursor) == nil)
        for frame in 6...8 { #expect(hub.publishTiles(TileChainTests.patch(frame: frame, x: 0))) }
        guard case .frame(let behind, let later) = try #require(hub.next(&cursor)) else { return }
        #expect(later == 2, "frames 6 and 7 skipped")
        #expect(try Self.header(behind)["skipped"] == .int(2), "the page counts them")
        // A frame without tiles changes no pixel: a page that gets the change before it in the
        // same packet skips nothing.
        var unchanged = TileChainTests.patch(frame: 10, x: 0)
        unchanged.tiles = []
        #expect(hub.publishTiles(TileChainTests.patch(frame: 9, x: 0)) && hub.publishTiles(unchanged))
        guard case .frame(_, let none) = try #require(hub.next(&cursor)) else { return }
        #expect(none == 0, "frame 9 shows, frame 10 changed nothing")
    }

    /// The JSON header of a frame packet.
    static func header(_ packet: [UInt8]) throws -> Value {
        let length = packet.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        return try JSONReader.parse(String(decoding: packet[4..<(4 + length)], as: UTF8.self))
    }

    @Test func aFrameDueGoesToAPageBeforeTheInspectorBatchesDue() throws {
        let hub = ViewHub()
        var cursor = ViewHub.Cursor(batch: hub.lastBatch)
        hub.publishBatch(Array("first".utf8))
        hub.publishBatch(Array("second".utf8))
        #expect(hub.publishTiles(TileChainTests.key(frame: 1)))
        var sent: [String] = []
        while let outgoing = hub.next(&cursor) {
            switch outgoing {
            case .frame: sent.append("frame")
            case .batch(let bytes, let skipped): sent.append(String(decoding: bytes, as: UTF8.self) + "+\(skipped)")
            }
        }
        #expect(sent == ["frame", "first+0", "second+0"])
        #expect(hub.publishTiles(TileChainTests.patch(frame: 2, x: 0)))
        hub.publishBatch(Array("third".utf8))
        #expect(hub.next(&cursor).map { if case .frame = $0 { true } else { false } } == true, "the new frame first")
    }

    @Test func aPagesTouchRingsTheDoorbellAndGoesOutAtOnce() throws {
        let doorbell = try Doorbell()
        let hub = ViewHub(doorbell: doorbell)
        hub.sessionOpened("abc")
        doorbell.answer()
        #expect(!Self.readable(doorbell))
        try hub.received(self.pointer(.began, x: 10, tMs: 1), from: "abc")
        #expect(Self.readable(doorbell), "the bus side's loop wakes for the touch")
        doorbell.answer()
        #expect(!Self.readable(doorbell))
        let drained = hub.drain(nowNs: 1_000_000_000)
        #expect(drained.frames.map(\.frame) == [1] && drained.nextDueNs == nil, "sent when drained, no tick waited for")
    }

    @Test func aTouchFrameFollowingAnotherWithin4msWaitsUntilItIsDue() throws {
        let hub = ViewHub()
        hub.sessionOpened("abc")
        try hub.received(self.pointer(.began, x: 10, tMs: 1), from: "abc")
        #expect(hub.drain(nowNs: 100_000_000).frames.count == 1)
        try hub.received(self.pointer(.moved, x: 11, tMs: 2), from: "abc")
        let early = hub.drain(nowNs: 101_000_000)
        #expect(early.frames.isEmpty && early.nextDueNs == 104_000_000)
        try hub.received(self.pointer(.moved, x: 12, tMs: 3), from: "abc")
        let due = hub.drain(nowNs: 104_000_000)
        #expect(due.frames.map { $0.contacts.map(\.x) } == [[12]], "the two moves merged into one frame")
        #expect(due.nextDueNs == nil)
    }

    private static func readable(_ doorbell: Doorbell) -> Bool {
        var entry = pollfd(fd: doorbell.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1
    }

    @Test func pagesStandingAtTheSameTileShareOneFramePacket() throws {
        let hub = ViewHub()
        #expect(hub.publishTiles(TileChainTests.key(frame: 1)))
        var pages = (0..<10).map { _ in ViewHub.Cursor(batch: hub.lastBatch) }
        var packets: [[UInt8]] = []
        for index in pages.indices {
            guard case .frame(let packet, _) = try #require(hub.next(&pages[index])) else { return }
            packets.append(packet)
        }
        #expect(hub.outbound.withLock { $0.packetsMade } == 1 && Set(packets).count == 1)
        #expect(hub.publishTiles(TileChainTests.patch(frame: 2, x: 0)))
        for index in pages.indices { _ = hub.next(&pages[index]) }
        #expect(hub.outbound.withLock { $0.packetsMade } == 2, "one more for the new frame")
        var late = ViewHub.Cursor(batch: hub.lastBatch)
        guard case .frame(let whole, _) = try #require(hub.next(&late)) else { return }
        #expect(whole != packets[0] && hub.outbound.withLock { $0.packetsMade } == 3, "a new page needs its own")
    }
}
