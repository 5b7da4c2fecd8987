import Bus
import BusSchema
import BusTestSupport
import Foundation
import Testing

/// The live `component-host` fed drags with coordinates no finger makes (NaN, ±∞, 1e308) by a
/// client on a real bus: each is refused at the decoder, counted, and the host stays up.
@Suite(.serialized) struct HostileGestureTests {
    static let scene = #"""
        {"name": "list", "width": 400, "height": 400, "views": [
          {"id": "list", "frame": {"x": 0, "y": 0, "width": 400, "height": 400},
           "component": {"kind": "scrollView", "id": "list1", "config": {"content_width": 400, "content_height": 4000}},
           "recognizers": [{"name": "listPan", "kind": "pan"}]}]}
        """#

    /// A pan payload on `list`, with `x`, `y` and the translation's `dx` as given (any Double).
    static func pan(_ state: String, tMs: Double, dx: Double) -> Value {
        .map([
            "t_ms": .double(tMs), "device": .string("d0"), "view": .string("list"), "recognizer": .string("pan"),
            "state": .string(state), "x": .double(200 + dx), "y": .double(200), "touches": .int(1),
            "translation": .map(["x": .double(dx), "y": .double(dx)]),
            "velocity": .map(["x": .double(dx), "y": .double(dx)]), "name": .string("listPan"),
        ])
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e308])
    func aDragWithAnImpossibleCoordinate_isRefusedAndTheNextDragStillScrolls(_ hostile: Double) throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let scenePath = "\(proxy.directory)/scene.json"
        try Self.scene.write(toFile: scenePath, atomically: true, encoding: .utf8)
        let host = try ChildProcess("component-host", ["--scene", scenePath], bus: proxy.busFile)
        try host.waitForLine("ready")
        let context = try ZMQContext()
        let states = try Subscriber(
            context: context, endpoint: proxy.config.subscribe, prefixes: ["ui/scrollView/list1/"],
            filter: SchemaFilter([ScrollViewState.self]))
        let health = try Subscriber.health(of: "component-host", context: context, endpoint: proxy.config.subscribe)
        let client = try Publisher(context: context, endpoint: proxy.config.publish, name: "hostile")
        defer {
            states.socket.close()
            health.socket.close()
            client.socket.close()
        }
        let topic = try Topic("gesture/d0/list/listPan/")
        #expect(try client.waitForSubscriber(matching: topic, timeoutMs: 5000))
        // A drag whose every changed and ended event is hostile, then a normal drag.
        try client.publish(Self.pan("began", tMs: 0, dx: 0), schema: GestureEvent.schema, on: topic)
        try client.publish(Self.pan("changed", tMs: 16, dx: hostile), schema: GestureEvent.schema, on: topic)
        try client.publish(Self.pan("ended", tMs: 32, dx: hostile), schema: GestureEvent.schema, on: topic)
        for (index, state) in ["began", "changed", "changed", "ended"].enumerated() {
            let tMs = 20_000 + Double(index) * 16
            try client.publish(
                Self.pan(state, tMs: tMs, dx: state == "began" ? 0 : -100), schema: GestureEvent.schema, on: topic)
        }
        var offsets: [Double] = []
        try waitUntil("the normal drag scrolled the list", seconds: 10) {
            guard host.isRunning else { throw TimedOut(description: "component-host died: \(host.stderr)") }
            while let delivery = try states.receive(timeoutMs: 50) {
                let state = try ScrollViewState(messagePack: delivery.payload)
                offsets.append(state.offsetY)
            }
            return offsets.contains(100)
        }
        #expect(offsets.allSatisfy { $0.isFinite })
        try waitUntil("health counting both refused events", seconds: 10) {
            guard let delivery = try health.receive(timeoutMs: 100) else { return false }
            return try Value(messagePack: delivery.payload)["reasons"]?["bad_payload"] == .int(2)
        }
        host.signal(SIGTERM)
        #expect(try host.wait() == 0)
    }
}
