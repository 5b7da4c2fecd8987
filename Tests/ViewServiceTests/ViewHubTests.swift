import BusSchema
import Testing

@testable import ViewService

struct ViewHubTests {
    private func pointer(_ phase: TouchContact.Phase, x: Double, tMs: Double) -> PageMessage {
        .pointer(tMs: tMs, contacts: [TouchContact(id: 1, phase: phase, x: x, y: 5, tool: .finger)])
    }

    @Test func aPagesTouchesGoOutOnItsOwnDeviceInThePagesTime() throws {
        let hub = ViewHub()
        hub.sessionOpened("abc")
        try hub.received(self.pointer(.began, x: 10, tMs: 2.5), from: "abc")
        let frames = hub.drain().frames
        #expect(frames.map(\.device) == ["web-abc"])
        #expect(frames.first?.frame == 1)
        #expect(frames.first?.tNs == 2_500_000)
    }

    @Test func aPageClockThatGoesBackIsHeldAtItsLatestTime() throws {
        let hub = ViewHub()
        hub.sessionOpened("abc")
        try hub.received(self.pointer(.began, x: 10, tMs: 9), from: "abc")
        _ = hub.drain()
        try hub.received(self.pointer(.moved, x: 11, tMs: 3), from: "abc")
        #expect(hub.drain().frames.first?.tNs == 9_000_000)
    }

    @Test func aClosedPageCancelsItsOpenTouchAndIsForgotten() throws {
        let hub = ViewHub()
        hub.sessionOpened("abc")
        try hub.received(self.pointer(.began, x: 10, tMs: 1), from: "abc")
        _ = hub.drain()
        hub.sessionClosed("abc", tNs: nil)
        #expect(hub.drain().frames.first?.contacts.map(\.phase) == [.cancelled])
        #expect(hub.inbound.withLock { $0.sessions.isEmpty })
    }

    @Test func aHiddenPageCancelsItsTouchAndSaysSo() throws {
        let hub = ViewHub()
        hub.sessionOpened("abc")
        try hub.received(self.pointer(.began, x: 10, tMs: 1), from: "abc")
        _ = hub.drain()
        try hub.received(.visibility(visible: false), from: "abc")
        let drained = hub.drain()
        #expect(drained.active == false)
        #expect(drained.frames.first?.contacts.map(\.phase) == [.cancelled])
        try hub.received(.visibility(visible: true), from: "abc")
        #expect(hub.drain().active == true)
    }

    @Test func theAppResignsOnlyWhenNoPageIsShownAndBecomesActiveWhenOneIs() throws {
        let hub = ViewHub()
        hub.sessionOpened("a")
        hub.sessionOpened("b")
        #expect(hub.drain().active == nil)
        hub.sessionClosed("a", tNs: nil)
        #expect(hub.drain().active == nil)
        try hub.received(.visibility(visible: false), from: "b")
        #expect(hub.drain().active == false)
        hub.sessionOpened("c")
        #expect(hub.drain().active == true)
    }

    @Test func aSlowPageGetsTheNewestFrameInOnePacket() throws {
        let hub = ViewHub()
        #expect(hub.publishTiles(TileChainTests.key(frame: 1)))
        for frame in 2...5 { #expect(hub.publishTiles(TileChainTests.patch(frame: frame, x: 0))) }
        let due = try #require(hub.frame(after: 0))
        #expect(due.frame == 5 && due.number == 5, "up to the newest tile")
        // The header lists the key frame and the one tile the later ones (all at x 0) left.
        let length = due.packet.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        let header = try JSONReader.parse(String(decoding: due.packet[4..<(4 + length)], as: UTF8.self))
        #expect(header["tiles"]?.arrayValue?.count == 2 && header["key"] == .bool(true))
        #expect(hub.frame(after: due.number) == nil)
    }
}
