import Bus
import BusSchema
import BusTestSupport
import CZeroMQ
import MessageFixtures
import Testing

@Suite struct PublisherSubscriberTests {
    static func frame(_ index: Int) -> TouchFrame {
        TouchFrame.frame(
            "d0", UInt64(index), tNs: Int64(index) * 1000,
            contacts: [.contact(0, .moved, x: Double(index), y: 2)])
    }

    @Test func messagesArriveInOrderWithTheirEnvelope() throws {
        let bus = try LoopbackBus(.ipc)
        defer { try? bus.stop() }
        let subscriber = try bus.subscriber(["touch/"])
        let publisher = try bus.publisher("input-source")
        let topic = try Topic.touch("d0")
        #expect(try publisher.waitForSubscriber(matching: topic, timeoutMs: 5000))
        for index in 1...100 { try publisher.publish(Self.frame(index), on: topic) }
        let deliveries = try receive(subscriber, count: 100)
        #expect(deliveries.count == 100)
        #expect(deliveries.map(\.envelope.seq) == Array(1...100))
        let first = try #require(deliveries.first)
        #expect(first.topic == "touch/d0/")
        #expect(first.envelope.schema == "touch.frame" && first.envelope.major == 1)
        #expect(first.envelope.publisher == "input-source")
        #expect(first.envelope.epoch == publisher.epoch)
        #expect(first.envelope.mono > 0 && first.envelope.wall > first.envelope.mono)
        #expect(subscriber.decode(first, as: TouchFrame.self) == Self.frame(1))
        #expect(subscriber.statistics.counters.gaps == 0)
        #expect(publisher.statistics.value(.sent) == 100)
    }

    @Test func prefixesNeverMatchALongerSegment() throws {
        let bus = try LoopbackBus(.ipc)
        defer { try? bus.stop() }
        let subscriber = try bus.subscriber(["touch/d1/"])
        let publisher = try bus.publisher()
        #expect(try publisher.waitForSubscriber(matching: try Topic.touch("d1"), timeoutMs: 5000))
        try publisher.publish(Self.frame(1), on: try Topic.touch("d10"))
        try publisher.publish(Self.frame(2), on: try Topic.touch("d1"))
        let deliveries = try receive(subscriber, count: 1)
        #expect(deliveries.map(\.topic) == ["touch/d1/"])
        #expect(try subscriber.receive(timeoutMs: 100) == nil)
    }

    @Test func aMessageTakesTheRouteOfItsLongestMatchingPrefixAndOnlyThatRoutesSchemas() throws {
        let bus = try LoopbackBus(.ipc)
        defer { try? bus.stop() }
        let subscriber = try bus.subscriber(["touch/"], filter: SchemaFilter([TouchFrame.self]))
        let exact = try subscriber.addRoute(["touch/d1/"], filter: SchemaFilter([Lifecycle.self]))
        let publisher = try bus.publisher()
        #expect(try publisher.waitForSubscriber(matching: try Topic.touch("d1"), timeoutMs: 5000))
        let lifecycle = Lifecycle {
            $0.service = "test"
            $0.event = .ready
            $0.epoch = 1
            $0.pid = 1
            $0.reason = nil
        }
        try publisher.publish(Self.frame(1), on: try Topic.touch("d0"))
        try publisher.publish(Self.frame(2), on: try Topic.touch("d1"))
        try publisher.publish(lifecycle, on: try Topic.touch("d1"))
        try publisher.publish(lifecycle, on: try Topic.touch("d0"))
        try publisher.publish(Self.frame(3), on: try Topic.touch("d0"))
        let deliveries = try receive(subscriber, count: 3)
        #expect(deliveries.map(\.route) == [0, exact, 0])
        #expect(deliveries.map(\.envelope.schema) == [TouchFrame.schema.id, Lifecycle.schema.id, TouchFrame.schema.id])
        // A frame on the lifecycle route and a lifecycle message on the frame route: refused, counted.
        #expect(subscriber.statistics.reasons.contains { $0 == ("unknown_schema", 2) })
    }

    @Test func aRouteAddedLaterTakesTheTopicsItMatchesFromTheNextMessageOn() throws {
        let bus = try LoopbackBus(.ipc)
        defer { try? bus.stop() }
        let subscriber = try bus.subscriber(["touch/"])
        let publisher = try bus.publisher()
        let topic = try Topic.touch("d1")
        #expect(try publisher.waitForSubscriber(matching: topic, timeoutMs: 5000))
        try publisher.publish(Self.frame(1), on: topic)
        #expect(try receive(subscriber, count: 1).map(\.route) == [0])
        // The topic's route was remembered with its string: a new route must replace it.
        let exact = try subscriber.addRoute(["touch/d1/"], filter: nil)
        try publisher.publish(Self.frame(2), on: topic)
        #expect(try receive(subscriber, count: 1).map(\.route) == [exact])
    }

    @Test func moreTopicsInterleavedThanTheSubscriberKeepsEachArriveWithTheirOwnTopicRouteAndSequence() throws {
        let bus = try LoopbackBus(.ipc)
        defer { try? bus.stop() }
        let subscriber = try bus.subscriber(["touch/"])
        let odd = try subscriber.addRoute(
            ["touch/d1/", "touch/d3/", "touch/d5/", "touch/d7/", "touch/d9/"], filter: nil)
        let publisher = try bus.publisher()
        let devices = (0..<12).map { "d\($0)" }
        let topics = try devices.map { try Topic.touch($0) }
        #expect(try publisher.waitForSubscriber(matching: topics[11], timeoutMs: 5000))
        // Three rounds over twelve topics: every topic is forgotten and met again in between.
        for round in 1...3 {
            for (index, topic) in topics.enumerated() {
                try publisher.publish(Self.frame(round * 100 + index), on: topic)
            }
        }
        let deliveries = try receive(subscriber, count: 36)
        #expect(deliveries.map(\.topic) == Array(repeating: devices.map { "touch/\($0)/" }, count: 3).flatMap { $0 })
        let routes = devices.indices.map { $0 % 2 == 1 && $0 < 10 ? odd : 0 }
        #expect(deliveries.map(\.route) == Array(repeating: routes, count: 3).flatMap { $0 })
        #expect(deliveries.map(\.envelope.seq) == [1, 2, 3].flatMap { Array(repeating: UInt64($0), count: 12) })
        #expect(
            deliveries.map(\.sequence) == Array(repeating: .first, count: 12) + Array(repeating: .inOrder, count: 24))
        #expect(subscriber.statistics.counters.gaps == 0)
    }

    @Test func messagesQueuedBeyondOneTurnOfTheProxyAllArriveWithNoNewArrivalToWakeIt() throws {
        // One message per turn: whatever was queued behind it must be forwarded on later turns
        // without a new signal, since ZeroMQ signals only a queue that was found empty.
        let bus = try LoopbackBus(.ipc, messagesPerTurn: 1)
        defer { try? bus.stop() }
        let subscriber = try bus.subscriber(["touch/"])
        let publisher = try bus.publisher()
        let topic = try Topic.touch("d0")
        #expect(try publisher.waitForSubscriber(matching: topic, timeoutMs: 5000))
        for index in 1...2000 { try publisher.publish(Self.frame(index), on: topic) }
        let deliveries = try receive(subscriber, count: 2000)
        #expect(deliveries.count == 2000)
        #expect(deliveries.last?.envelope.seq == 2000)
        #expect(subscriber.statistics.counters.gaps == 0)
    }

    @Test func aFloodIntoASlowSubscriberIsCountedReceivedPlusLostEqualsSent() throws {
        let bus = try LoopbackBus(.ipc, highWaterMark: 50)
        defer { try? bus.stop() }
        let subscriber = try bus.subscriber(["touch/"], highWaterMark: 50)
        let publisher = try bus.publisher(highWaterMark: 50)
        let topic = try Topic.touch("d0")
        #expect(try publisher.waitForSubscriber(matching: topic, timeoutMs: 5000))
        // The subscriber reads nothing while 20 000 frames go out, so queues overflow and drop.
        let flood = 20_000
        for index in 1...flood { try publisher.publish(Self.frame(index), on: topic) }
        var received = 0
        while try subscriber.receive(timeoutMs: 300) != nil { received += 1 }
        // Once drained, one last frame shows how many were skipped before it.
        try publisher.publish(Self.frame(flood + 1), on: topic)
        let last = try receive(subscriber, count: 1)
        #expect(last.first?.envelope.seq == UInt64(flood + 1))
        received += last.count
        let lost = Int(subscriber.statistics.counters.gaps)
        #expect(lost > 0, "the flood should have overflowed the tiny queues")
        #expect(received + lost == flood + 1)
        #expect(Int(subscriber.statistics.counters.received) == received)
    }

    @Test func aNewPublisherEpochIsReportedAndCounted() throws {
        let bus = try LoopbackBus(.ipc)
        defer { try? bus.stop() }
        let subscriber = try bus.subscriber(["touch/"])
        let topic = try Topic.touch("d0")
        let first = try bus.publisher("input-source")
        #expect(try first.waitForSubscriber(matching: topic, timeoutMs: 5000))
        try first.publish(Self.frame(1), on: topic)
        first.socket.close()
        let second = try bus.publisher("input-source")
        #expect(try second.waitForSubscriber(matching: topic, timeoutMs: 5000))
        try second.publish(Self.frame(2), on: topic)
        let deliveries = try receive(subscriber, count: 2)
        #expect(deliveries.map(\.sequence) == [.first, .newEpoch(missing: 0)])
        #expect(deliveries[0].envelope.epoch != deliveries[1].envelope.epoch)
    }

    @Test func aRestartedPublishersMessagesFromBeforeItsWaitReachTheSubscribersThatWereThere() throws {
        let bus = try LoopbackBus(.ipc)
        defer { try? bus.stop() }
        let subscriber = try bus.subscriber(["touch/"])
        let topics = [try Topic.touch("d0"), try Topic.touch("d1"), try Topic.touch("d2")]
        let first = try bus.publisher("input-source")
        #expect(try first.waitForSubscriber(matching: topics[0], timeoutMs: 5000))
        for topic in topics { try first.publish(Self.frame(0), on: topic) }
        #expect(try receive(subscriber, count: 3).count == 3)
        first.socket.close()
        // The restarted process publishes the moment it exists, before the proxy's
        // subscriptions can have reached its XPUB (a bare XPUB drops all of it), and only then
        // waits, as a service's initial states come before ServiceRunner's wait.
        let second = try bus.publisher("input-source")
        #expect(second.isJoining)
        for index in 1...20 {
            for topic in topics { try second.publish(Self.frame(index), on: topic) }
        }
        #expect(try second.waitForSubscriber(timeoutMs: 5000))
        #expect(!second.isJoining)
        let deliveries = try receive(subscriber, count: 60)
        #expect(deliveries.count == 60)
        #expect(deliveries.allSatisfy { $0.envelope.epoch == second.epoch })
        for topic in topics {
            let stream = deliveries.filter { $0.topic == topic.rawValue }
            #expect(stream.map(\.envelope.seq) == Array(1...20))
            #expect(stream.first?.sequence == .newEpoch(missing: 0))
        }
        #expect(subscriber.statistics.counters.gaps == 0)
        #expect(second.statistics.value(.sent) == 60)
    }

    @Test func aPublisherNobodySubscribesToStopsHoldingAfterItsGracePeriod() throws {
        let bus = try LoopbackBus(.ipc)
        defer { try? bus.stop() }
        let publisher = try Publisher(
            context: bus.context, endpoint: bus.config.publish, name: "lonely", joinGraceMs: 200)
        try publisher.publish(Self.frame(1), on: try Topic.touch("d0"))
        #expect(publisher.isJoining)
        #expect(publisher.statistics.value(.sent) == 0)
        try waitUntil("the grace period to end", seconds: 10) {
            try publisher.drainSubscriptions()
            return !publisher.isJoining
        }
        #expect(publisher.statistics.value(.sent) == 1)
        try publisher.publish(Self.frame(2), on: try Topic.touch("d0"))
        #expect(publisher.statistics.value(.sent) == 2)
    }

    @Test func waitingForASubscriberTimesOutWhenNobodyListens() throws {
        let bus = try LoopbackBus(.ipc)
        defer { try? bus.stop() }
        let publisher = try bus.publisher()
        #expect(try !publisher.waitForSubscriber(matching: try Topic.touch("nobody"), timeoutMs: 200))
    }

    @Test func theProxyPublishesItsHealthWithForwardingCounts() throws {
        let bus = try LoopbackBus(.ipc)
        defer { try? bus.stop() }
        let subscriber = try bus.subscriber(["sys/health/bus-proxy/"])
        var reports: [Health] = []
        try waitUntil("two proxy health reports") {
            if let delivery = try subscriber.receive(timeoutMs: 100),
                let health = subscriber.decode(delivery, as: Health.self)
            {
                reports.append(health)
            }
            return reports.count >= 2
        }
        #expect(reports[0].service == "bus-proxy")
        #expect(reports[1].seq == reports[0].seq + 1)
        let forwarded = try #require(reports[1].extra?["messages_forwarded"]?.uintValue)
        #expect(forwarded >= 0)
        #expect(reports[1].extra?["bytes_forwarded"] != nil)
    }

    @Test func closingASocketTwiceIsHarmless() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context, .pub)
        socket.close()
        socket.close()
        #expect(!socket.isOpen)
        #expect(throws: BusError.self) { try socket.connect("ipc:///tmp/nowhere") }
    }

    @Test func errorsNameTheCallAndErrno() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context, .pub)
        let error = #expect(throws: BusError.self) { try socket.bind("nonsense://x") }
        #expect(error?.call == "zmq_bind")
        #expect(error?.errno != 0)
        #expect(error?.description.contains("nonsense://x") == true)
    }
}
