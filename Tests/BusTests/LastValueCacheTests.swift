import Bus
import BusSchema
import BusTestSupport
import Foundation
import Testing

/// Late joiners: state published before a subscriber joined reaches it from the proxy's cache.
@Suite struct LastValueCacheTests {
    private static func payload(_ text: String) -> Value { .map(["text": .string(text)]) }
    private static let schema = SchemaID("test.state", major: 1, minor: 0)

    /// Waits until the proxy's health says it keeps `entries` state messages.
    private static func waitForCachedEntries(_ entries: UInt64, proxy: ProxyProcess, context: ZMQContext) throws {
        let health = try Subscriber(
            context: context, endpoint: proxy.config.subscribe, prefixes: ["sys/health/bus-proxy/"])
        try waitUntil("the proxy to keep \(entries) state messages") {
            guard let delivery = try health.receive(timeoutMs: 100),
                let report = health.decode(delivery, as: Health.self)
            else { return false }
            return report.extra?["lvc_entries"]?.uintValue == entries
        }
    }

    private static func firstDelivery(_ subscriber: Subscriber, on topic: String) throws -> Delivery {
        var found: Delivery?
        try waitUntil("\(topic) from the cache") {
            if let delivery = try subscriber.receive(timeoutMs: 100), delivery.topic == topic { found = delivery }
            return found != nil
        }
        return try #require(found)
    }

    @Test(arguments: ["ui/pager/p1/", "ui/memoBoard/board1/"])
    func stateWithNobodyListeningReachesASubscriberThatJoinsLater(topic: String) throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let context = try ZMQContext()
        let publisher = try Publisher(context: context, endpoint: proxy.config.publish, name: "late-test")
        try publisher.publish(Self.payload("current"), schema: Self.schema, on: try Topic(topic))
        // Nobody listens, so the publisher holds it for its grace period; then the proxy, which
        // subscribes to `ui` itself, takes it.
        try waitUntil("the publisher to send") {
            try publisher.drainSubscriptions()
            return !publisher.isJoining
        }
        try Self.waitForCachedEntries(1, proxy: proxy, context: context)

        let late = try Subscriber(context: context, endpoint: proxy.config.subscribe, prefixes: ["ui/"])
        let delivery = try Self.firstDelivery(late, on: topic)
        #expect(delivery.envelope.publisher == "late-test")
        #expect(delivery.envelope.epoch == publisher.epoch)
        #expect(delivery.envelope.seq == 1)
        #expect(delivery.sequence == .first)
        #expect(late.statistics.value(.gaps) == 0)
    }

    @Test func aFrameReachesALateViewerAndIsNotDeliveredTwiceToTheViewerThatHadIt() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let context = try ZMQContext()
        let topic = try Topic("render/image/main/")
        let first = try Subscriber(context: context, endpoint: proxy.config.subscribe, prefixes: ["render/image/"])
        let publisher = try Publisher(context: context, endpoint: proxy.config.publish, name: "render-test")
        #expect(try publisher.waitForSubscriber(matching: topic, timeoutMs: 10_000))
        try publisher.publish(Self.payload(String(repeating: "p", count: 100_000)), schema: Self.schema, on: topic)
        _ = try Self.firstDelivery(first, on: topic.rawValue)

        let late = try Subscriber(context: context, endpoint: proxy.config.subscribe, prefixes: ["render/image/"])
        let delivery = try Self.firstDelivery(late, on: topic.rawValue)
        #expect(delivery.envelope.seq == 1)
        #expect(delivery.payload.count > 100_000)
        // The replay reached the first viewer too, which already had that frame: skipped, not a duplicate.
        var redelivered = 0
        try waitUntil("the first viewer to skip the repeat") {
            if try first.receive(timeoutMs: 50) != nil { redelivered += 1 }
            return first.statistics.reasons.contains { $0 == ("state_repeated", 1) }
        }
        #expect(redelivered == 0)
        #expect(first.statistics.value(.duplicates) == 0)
    }

    @Test func touchesGesturesAndBoardDeltasAreNeverReplayed() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let context = try ZMQContext()
        let watcher = try Subscriber(
            context: context, endpoint: proxy.config.subscribe, prefixes: ["touch/", "gesture/", "ui/"])
        let publisher = try Publisher(context: context, endpoint: proxy.config.publish, name: "input-test")
        #expect(try publisher.waitForSubscriber(matching: try Topic("touch/d0/"), timeoutMs: 10_000))
        try publisher.publish(Self.payload("touch"), schema: Self.schema, on: try Topic("touch/d0/"))
        try publisher.publish(Self.payload("tap"), schema: Self.schema, on: try Topic("gesture/d0/v1/tap/"))
        try publisher.publish(Self.payload("delta"), schema: Self.schema, on: try Topic("ui/memoBoard/b1/delta/"))
        try publisher.publish(Self.payload("state"), schema: Self.schema, on: try Topic("ui/button/b1/"))
        #expect(
            try receive(watcher, count: 4).map(\.topic) == [
                "touch/d0/", "gesture/d0/v1/tap/", "ui/memoBoard/b1/delta/", "ui/button/b1/",
            ])

        // Subscriptions go out in this order, so a replayed touch, gesture or delta would come
        // before the state.
        let late = try Subscriber(
            context: context, endpoint: proxy.config.subscribe, prefixes: ["touch/", "gesture/", "ui/"])
        let first = try Self.firstDelivery(late, on: "ui/button/b1/")
        #expect(first.envelope.seq == 1)
        #expect(late.statistics.value(.received) == 1)
    }

    @Test func busTapEchoOnAnIdleStackPrintsTheCurrentState() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let context = try ZMQContext()
        let publisher = try Publisher(context: context, endpoint: proxy.config.publish, name: "idle-test")
        try publisher.publish(Self.payload("idle"), schema: Self.schema, on: try Topic("ui/numberPad/pad1/"))
        try waitUntil("the publisher to send") {
            try publisher.drainSubscriptions()
            return !publisher.isJoining
        }
        try Self.waitForCachedEntries(1, proxy: proxy, context: context)
        let (status, stdout, stderr) = try ChildProcess.run(
            "bus-tap", ["echo", "ui/", "--count", "1"], bus: proxy.busFile)
        #expect(status == 0, "\(stderr)")
        #expect(stdout.contains("ui/numberPad/pad1/"))
        #expect(stdout.contains("idle"))
    }

    @Test func theCacheKeepsItsEntryAndByteBoundsByDroppingTheOldest() {
        var cache = LastValueCache(limits: .init(entries: 2, bytes: 100), nowNs: 0)
        cache.keep(topic: Array("ui/a/".utf8), header: [1], payload: [UInt8](repeating: 0, count: 20))
        cache.keep(topic: Array("ui/b/".utf8), header: [1], payload: [UInt8](repeating: 0, count: 20))
        cache.keep(topic: Array("ui/c/".utf8), header: [1], payload: [UInt8](repeating: 0, count: 20))
        #expect(cache.count == 2)
        #expect(cache.counters.evictions == 1)
        cache.keep(topic: Array("ui/d/".utf8), header: [1], payload: [UInt8](repeating: 0, count: 80))
        #expect(cache.count == 1)
        #expect(cache.bytes <= 100)
        cache.keep(topic: Array("ui/e/".utf8), header: [1], payload: [UInt8](repeating: 0, count: 200))
        #expect(cache.counters.tooLarge == 1)
        #expect(cache.count == 1)
        var sent: [String] = []
        Array("ui/".utf8).withUnsafeBytes { cache.subscribed(prefix: $0) }
        _ = cache.replay(nowNs: 1) { sent.append(String(decoding: $0.topic, as: UTF8.self)) }
        #expect(sent == ["ui/d/"])
        #expect(cache.counters.hits == 1)
    }

    @Test func replaysBeyondTheByteRateWaitForTheBudgetInsteadOfFloodingEveryone() {
        var cache = LastValueCache(limits: .init(entries: 10, bytes: 1000, replayBytesPerSecond: 1000), nowNs: 0)
        for name in ["a", "b", "c"] {
            cache.keep(topic: Array("ui/\(name)/".utf8), header: [], payload: [UInt8](repeating: 0, count: 300))
        }
        var sent = 0
        for _ in 0..<10 { Array("".utf8).withUnsafeBytes { cache.subscribed(prefix: $0) } }
        let first = cache.replay(nowNs: 0) { _ in sent += 1 }
        #expect(sent == 3)
        #expect(first == nil)
        for _ in 0..<10 { Array("ui/".utf8).withUnsafeBytes { cache.subscribed(prefix: $0) } }
        // 85 bytes of budget were left: one more goes (the budget may go briefly negative), then it waits.
        let wait = cache.replay(nowNs: 1) { _ in sent += 1 }
        #expect(sent == 4)
        #expect(wait != nil)
        #expect(cache.replay(nowNs: 2_000_000_000) { _ in sent += 1 } == nil)
        #expect(sent == 6)
    }
}
