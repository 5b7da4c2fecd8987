import Bus
import BusSchema
import BusTestSupport
import CZeroMQ
import MessageFixtures
import Testing

/// Every kind of bad frame is counted under its reason and skipped; the next good one arrives.
@Suite struct BadFrameTests {
    /// A bus with a connected raw sender (the publisher's XPUB) and a subscriber that reads touch frames.
    struct Rig {
        let bus: LoopbackBus
        let publisher: Publisher
        let subscriber: Subscriber

        init(maximumMessageSize: Int = 1 << 20, proxyLimit: Int64 = 1 << 20) throws {
            self.bus = try LoopbackBus(.ipc, maximumMessageSize: proxyLimit)
            self.subscriber = try self.bus.subscriber(
                ["touch/"], filter: SchemaFilter([TouchFrame.self]), maximumMessageSize: maximumMessageSize)
            self.publisher = try self.bus.publisher()
            guard try self.publisher.waitForSubscriber(matching: try Topic.touch("d0"), timeoutMs: 5000) else {
                throw TimedOut(description: "no subscription")
            }
        }

        func sendRaw(_ frames: [[UInt8]]) throws {
            for (index, frame) in frames.enumerated() {
                try self.publisher.socket.send(frame, more: index < frames.count - 1)
            }
        }

        func header(schema: String = "touch.frame", major: Int = 1, version: Int = 1, seq: UInt64 = 1) -> [UInt8] {
            var writer = MessagePackWriter()
            Envelope(
                schema: SchemaID(schema, major: major), publisher: "raw", epoch: 9, seq: seq, mono: 1, wall: 2,
                version: version
            ).encode(to: &writer)
            return writer.bytes
        }

        /// Sends `bad`, then a good frame, and checks that only the good one is delivered.
        func expectSkipped(_ bad: [[UInt8]], reason: String, deadLettered: Bool = false) throws {
            defer { try? self.bus.stop() }
            try self.sendRaw(bad)
            try self.publisher.publish(PublisherSubscriberTests.frame(1), on: try Topic.touch("d0"))
            let deliveries = try receive(self.subscriber, count: 1)
            #expect(deliveries.map(\.envelope.publisher) == ["test-pub"])
            let counters = self.subscriber.statistics.counters
            #expect(counters.rejected == (deadLettered ? 0 : 1))
            #expect(counters.deadLettered == (deadLettered ? 1 : 0))
            #expect(self.subscriber.statistics.reasons.map(\.0) == [reason])
        }
    }

    static let topic = Array("touch/d0/".utf8)

    @Test func tooFewFramesAreRejected() throws {
        let rig = try Rig()
        try rig.expectSkipped([Self.topic, rig.header()], reason: "frame_count")
    }

    @Test func tooManyFramesAreRejected() throws {
        let rig = try Rig()
        try rig.expectSkipped([Self.topic, rig.header(), [0x80], [0x80]], reason: "frame_count")
    }

    @Test func garbageHeadersAreRejected() throws {
        let rig = try Rig()
        try rig.expectSkipped([Self.topic, [0xc1, 0xff, 0x00], [0x80]], reason: "bad_envelope")
    }

    @Test func truncatedHeadersAreRejected() throws {
        let rig = try Rig()
        try rig.expectSkipped([Self.topic, Array(rig.header().prefix(20)), [0x80]], reason: "bad_envelope")
    }

    @Test func headersMissingAFieldAreRejected() throws {
        let rig = try Rig()
        try rig.expectSkipped([Self.topic, Value.map(["v": .int(1)]).messagePack, [0x80]], reason: "bad_envelope")
    }

    @Test func topicsWithoutTheTrailingSlashAreRejected() throws {
        let rig = try Rig()
        try rig.expectSkipped([Array("touch/d0".utf8), rig.header(), [0x80]], reason: "bad_topic")
    }

    @Test func unknownEnvelopeVersionsAreRejected() throws {
        let rig = try Rig()
        try rig.expectSkipped([Self.topic, rig.header(version: 2), [0x80]], reason: "unknown_envelope_version")
    }

    @Test func unknownSchemasAreRejected() throws {
        let rig = try Rig()
        try rig.expectSkipped([Self.topic, rig.header(schema: "mystery"), [0x80]], reason: "unknown_schema")
    }

    @Test func unknownMajorsAreDeadLettered() throws {
        let rig = try Rig()
        try rig.expectSkipped([Self.topic, rig.header(major: 2), [0x80]], reason: "unknown_major", deadLettered: true)
    }

    @Test func oversizedMessagesAreRejected() throws {
        let rig = try Rig(maximumMessageSize: 1024)
        let big = [UInt8](repeating: 0x41, count: 4096)
        try rig.expectSkipped([Self.topic, rig.header(), big], reason: "oversized")
    }

    @Test func garbagePayloadsAreRejectedWhenDecoded() throws {
        let rig = try Rig()
        defer { try? rig.bus.stop() }
        try rig.sendRaw([Self.topic, rig.header(), [0xc1]])
        let delivery = try #require(try receive(rig.subscriber, count: 1).first)
        #expect(rig.subscriber.decode(delivery, as: TouchFrame.self) == nil)
        #expect(rig.subscriber.statistics.reasons.map(\.0) == ["bad_payload"])
    }

    @Test func garbagePayloadsDecodedOverAKeptValueAreRejectedAndTheNextGoodOneDecodes() throws {
        let rig = try Rig()
        defer { try? rig.bus.stop() }
        let good = TouchFrame.frame("d0", 7, tNs: 1, contacts: [.contact(1, .began, x: 2, y: 3)])
        try rig.sendRaw([Self.topic, rig.header(), [0xc1]])
        try rig.sendRaw([Self.topic, rig.header(), good.messagePack])
        let deliveries = try receive(rig.subscriber, count: 2)
        try #require(deliveries.count == 2)
        var kept = TouchFrame.empty
        #expect(!rig.subscriber.decode(deliveries[0], into: &kept))
        #expect(rig.subscriber.statistics.reasons.map(\.0) == ["bad_payload"])
        #expect(rig.subscriber.decode(deliveries[1], into: &kept))
        #expect(kept == good)
    }

    @Test func aMessageAboveTheProxyLimitCostsItsPublisherAGapAndNothingElse() throws {
        // libzmq disconnects a publisher that sends the proxy more than ZMQ_MAXMSGSIZE; the
        // publisher reconnects by itself and subscribers see what was lost as a gap.
        let rig = try Rig(proxyLimit: 2048)
        defer { try? rig.bus.stop() }
        let topic = try Topic.touch("d0")
        try rig.publisher.publish(PublisherSubscriberTests.frame(1), on: topic)
        #expect(try receive(rig.subscriber, count: 1).count == 1)
        try rig.publisher.publish(
            Value.string(String(repeating: "x", count: 8192)), schema: TouchFrame.schema, on: topic)
        var delivered: [Delivery] = []
        try waitUntil("a frame after the reconnect") {
            try rig.publisher.publish(PublisherSubscriberTests.frame(3), on: topic)
            if let delivery = try rig.subscriber.receive(timeoutMs: 50) { delivered.append(delivery) }
            return !delivered.isEmpty
        }
        #expect(rig.subscriber.statistics.counters.gaps >= 1)
    }
}
