import Bus
import BusSchema
import BusTestSupport
import Foundation
import MessageFixtures
import Testing

/// The edge drawer's direction flip across real processes: `bus-proxy`, `gesture-recognizer` and
/// `component-host` on the demo scene, the test sending touch frames and watching the bus.
///
/// The source (SwipeMenu) flips its swipe recognizer's direction after each toggle, so the
/// opposite swipe fails and the scroll view's pan, which requires the swipe to fail, gets it. The
/// host publishes the drawer's swipe configuration (`recognizer.config`) with each drawer state;
/// the recognizer applies it.
@Suite(.serialized) struct DrawerDirectionLiveTests {
    static let scene = ChildProcess.repositoryRoot + "/deploy/scenes/demo.json"

    /// What the test saw on the bus, by kind.
    final class Watch {
        let subscriber: Subscriber
        var gestures: [GestureEvent] = []
        var configs: [RecognizerConfig] = []
        var drawers: [DrawerState] = []
        var scrolls: [Value] = []

        init(_ context: ZMQContext, _ endpoint: String) throws {
            self.subscriber = try Subscriber(
                context: context, endpoint: endpoint,
                prefixes: ["gesture/d0/sidebar/", "ui/recognizer/drawerSwipe/", "ui/drawer/", "ui/scrollView/"])
        }

        /// Reads the bus until `condition` holds (a deadline, no sleep).
        func until(_ what: String, _ condition: (Watch) -> Bool) throws {
            try waitUntil(what, seconds: 20) {
                while let delivery = try self.subscriber.receive(timeoutMs: 20) {
                    switch delivery.envelope.schema {
                    case GestureEvent.schema.id:
                        if let event = self.subscriber.decode(delivery, as: GestureEvent.self) {
                            self.gestures.append(event)
                        }
                    case RecognizerConfig.schema.id:
                        if let config = self.subscriber.decode(delivery, as: RecognizerConfig.self) {
                            self.configs.append(config)
                        }
                    case DrawerState.schema.id:
                        if let state = self.subscriber.decode(delivery, as: DrawerState.self) {
                            self.drawers.append(state)
                        }
                    default:
                        self.scrolls.append(try Value(messagePack: delivery.payload))
                    }
                }
                return condition(self)
            }
        }

        /// The gesture events of one recognizer since `mark` events.
        func events(_ name: String, since mark: Int) -> [GestureEvent] {
            self.gestures.dropFirst(mark).filter { $0.name == name }
        }
    }

    /// A one-finger horizontal drag on the sidebar at y 500: 15 frames 8 ms apart (a fast swipe).
    static func swipe(fromX: Double, toX: Double, startMs: Int64, frame: inout UInt64) -> [TouchFrame] {
        (0...15).map { step in
            let phase: TouchContact.Phase = step == 0 ? .began : step == 15 ? .ended : .moved
            let x = fromX + (toX - fromX) * Double(min(step, 14)) / 14
            frame += 1
            return TouchFrame.frame(
                "d0", frame, tNs: (startMs + Int64(step) * 8) * 1_000_000,
                contacts: [.contact(0, phase, x: x, y: 500)])
        }
    }

    /// Starts `name` on `proxy`'s bus on the demo scene and waits until it is ready (a child that
    /// never is stops as it goes away).
    static func start(_ name: String, on proxy: ProxyProcess) throws -> ChildProcess {
        let child = try ChildProcess(name, ["--scene", Self.scene], bus: proxy.busFile)
        try child.waitForLine("ready")
        return child
    }

    @Test func afterOpeningARightSwipeFailsAndTheSidebarPans_afterClosingTheReverse() throws {
        let proxy = try ProxyProcess()
        let recognizer = try Self.start("gesture-recognizer", on: proxy)
        defer { if recognizer.isRunning { recognizer.signal(SIGKILL) } }
        let host = try Self.start("component-host", on: proxy)
        defer {
            if host.isRunning { host.signal(SIGKILL) }
            try? proxy.stop()
        }
        let context = try ZMQContext()
        let watch = try Watch(context, proxy.config.subscribe)
        let touches = try Publisher(context: context, endpoint: proxy.config.publish, name: "touch-test")
        defer {
            watch.subscriber.socket.close()
            touches.socket.close()
        }
        let touchTopic = try Topic("touch/d0/")
        #expect(try touches.waitForSubscriber(matching: touchTopic, timeoutMs: 30_000))
        var frame: UInt64 = 0
        var clockMs: Int64 = 1000
        func send(fromX: Double, toX: Double) throws -> Int {
            let mark = watch.gestures.count
            for touch in Self.swipe(fromX: fromX, toX: toX, startMs: clockMs, frame: &frame) {
                try touches.publish(touch, on: touchTopic)
            }
            clockMs += 2000
            return mark
        }
        // The recognizer processes what reaches it in the order the proxy forwarded it, on one
        // subscription: once the test has the configuration from the proxy, the recognizer has it
        // queued ahead of every touch frame sent afterwards.
        func configured(_ direction: GestureEvent.Direction, width: Double) throws {
            try watch.until("drawerSwipe configured to \(direction) over \(width) pt") {
                guard let last = $0.configs.last else { return false }
                return last.directions == [direction] && last.receiveRegion?.width == width
            }
        }

        try configured(.right, width: 44)  // the host's first state: closed, its tab showing
        // Open: a right swipe on the tab.
        var mark = try send(fromX: 10, toX: 130)
        try watch.until("the drawer opened") { $0.drawers.last?.open == true }
        #expect(watch.events("drawerSwipe", since: mark).map(\.state) == [.recognized])
        try configured(.left, width: 240)

        // A right swipe in the open menu fails; the sidebar's pan (requiring it to fail) scrolls.
        mark = try send(fromX: 60, toX: 180)
        try watch.until("the sidebar's pan ended") { $0.events("sidebarPan", since: mark).last?.state == .ended }
        #expect(watch.events("drawerSwipe", since: mark).map(\.state) == [.failed])
        #expect(watch.events("sidebarPan", since: mark).first?.state == .began)
        try watch.until("the sidebar scroll view dragging") { $0.scrolls.contains { $0["dragging"] == .bool(true) } }
        #expect(watch.drawers.last?.open == true, "the menu stays open")

        // Close with a left swipe; then the reverse holds.
        mark = try send(fromX: 200, toX: 80)
        try watch.until("the drawer closed") { $0.drawers.last?.open == false }
        #expect(watch.events("drawerSwipe", since: mark).map(\.state) == [.recognized])
        try configured(.right, width: 44)
        mark = try send(fromX: 40, toX: 0)
        try watch.until("the sidebar's pan ended") { $0.events("sidebarPan", since: mark).last?.state == .ended }
        #expect(watch.events("drawerSwipe", since: mark).map(\.state) == [.failed], "a left swipe on the tab fails")
        mark = try send(fromX: 100, toX: 220)
        try watch.until("the sidebar's pan ended") { $0.events("sidebarPan", since: mark).last?.state == .ended }
        #expect(watch.events("drawerSwipe", since: mark).isEmpty, "a touch beside the closed menu is not received")
        #expect(watch.drawers.last?.open == false)

        host.signal(SIGTERM)
        recognizer.signal(SIGTERM)
        #expect(try host.wait() == 0)
        #expect(try recognizer.wait() == 0)
    }

    @Test func aConfigurationTheSceneCannotTakeIsCountedAndTheRecognizerKeepsWorking() throws {
        let proxy = try ProxyProcess()
        let recognizer = try Self.start("gesture-recognizer", on: proxy)
        defer {
            if recognizer.isRunning { recognizer.signal(SIGKILL) }
            try? proxy.stop()
        }
        let context = try ZMQContext()
        let health = try Subscriber.health(
            of: "gesture-recognizer", context: context, endpoint: proxy.config.subscribe)
        let publisher = try Publisher(context: context, endpoint: proxy.config.publish, name: "component-test")
        defer {
            health.socket.close()
            publisher.socket.close()
        }
        let nowhere = try Topic("ui/recognizer/nowhere/")
        #expect(try publisher.waitForSubscriber(matching: nowhere, timeoutMs: 30_000))
        func swipeLeft(_ recognizer: String, on topic: Topic) throws {
            try publisher.publish(
                RecognizerConfig {
                    $0.recognizer = recognizer
                    $0.tMs = 0
                    $0.directions = [.left]
                }, on: topic)
        }
        try swipeLeft("nowhere", on: nowhere)
        try publisher.publish(
            .map(["recognizer": .string("drawerSwipe")]), schema: RecognizerConfig.schema, on: nowhere)
        try swipeLeft("drawerSwipe", on: try Topic("ui/recognizer/drawerSwipe/"))
        var report: Value?
        try waitUntil("a health report after the three configurations", seconds: 20) {
            guard let delivery = try health.receive(timeoutMs: 100) else { return false }
            report = try Value(messagePack: delivery.payload)
            return report?["extra"]?["configurations_applied"] == .int(1)
        }
        #expect(report?["reasons"]?["bad_recognizer_config"] == .int(1), "the unknown recognizer, counted")
        #expect(report?["reasons"]?["bad_payload"] == .int(1), "the one without t_ms, counted")
        #expect(recognizer.stderr.contains("no recognizer in the scene is named 'nowhere'"), "\(recognizer.stderr)")
        recognizer.signal(SIGTERM)
        #expect(try recognizer.wait() == 0)
    }
}
