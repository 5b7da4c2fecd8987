import Bus
import BusSchema
import DemoReport

/// What `bus-flood touch` is asked to do.
public struct TouchFloodPlan: FloodPlan, Sendable {
    public var devices: Int
    /// Frames per second over all devices.
    public var rate: Double
    public var seconds: Double
    /// The payload size of each frame, or nil for the frames' own size.
    public var payloadBytes: Int?
    /// How long to wait after the last frame for the services to account for everything.
    public var settleSeconds = 5.0

    public init(devices: Int, rate: Double, seconds: Double, payloadBytes: Int?) {
        self.devices = devices
        self.rate = rate
        self.seconds = seconds
        self.payloadBytes = payloadBytes
    }
}

/// `bus-flood touch`: synthetic touch frames into the live pipeline (`gesture-recognizer` →
/// `component-host`, through the proxy), measured at the far end.
///
/// The flood publishes on `touch/flood-<pid>/` (devices of its own, so a running input source
/// cannot mix in) as an input source would, and one subscriber of its own reads its devices'
/// `touch/` and `gesture/` topics, `ui/` and the two services' `sys/health/`. Per hop it counts what
/// was sent, delivered and lost (sequence gaps): hops that end at the flood are counted by its
/// subscriber, hops that end at a service by that service's health counters (the difference
/// between its first report and its last). Another publisher's touch frames would be in those
/// counters too, so a flood that sees any while it waits for the services' first reports is
/// refused, naming the publisher and its topic.
/// The main latency is exact end to end: each frame carries its send time as `t_ns`, and the
/// recognizer copies it into the `t_ms` of the gesture events the frame causes. Component states
/// carry no such link back to a frame, so the `ui/` hop has its one-way latency only.
public enum TouchFlood {
    public static let recognizer = "gesture-recognizer"
    public static let host = "component-host"

    /// Floods once at `plan.rate`.
    ///
    /// - Throws: ``FloodError`` if a service never reports health, another publisher sends touch
    ///   frames, or no one subscribes to the frames.
    static func run(_ plan: TouchFloodPlan, in environment: FloodEnvironment) throws -> FloodResult {
        let devices = TouchFloodFrames.device(0)
        let subscriber = try Subscriber(
            context: environment.context, endpoint: environment.config.subscribe, prefixes: ["touch/\(devices)"])
        try subscriber.addRoute(["gesture/\(devices)"], filter: nil)
        try subscriber.addRoute(["ui/"], filter: nil)
        try subscriber.addRoute(["sys/health/\(Self.recognizer)/", "sys/health/\(Self.host)/"], filter: nil)
        defer { subscriber.socket.close() }
        let others = try Subscriber(
            context: environment.context, endpoint: environment.config.subscribe, prefixes: ["touch/"])
        defer { others.socket.close() }
        var trial = Trial(epoch: EnvelopeStamper.newEpoch(), expected: plan.count)
        try environment.awaitFirstReports(
            of: [Self.recognizer, Self.host], into: &trial, subscriber: subscriber,
            hint: "the pipeline (bus-proxy, gesture-recognizer, component-host on one scene)"
        ) {
            // Nothing of the flood's own is sent yet: any touch frame is someone else's.
            if let other = try others.receive(timeoutMs: 0) {
                throw FloodError(
                    "touch frames from \(other.envelope.publisher) on \(other.topic): the recognizer's and the "
                        + "host's counts would mix them with the flood's; stop that publisher, or flood a quiet pipeline"
                )
            }
        }
        let frames = try TouchFloodFrames(devices: plan.devices, rate: plan.rate, payloadBytes: plan.payloadBytes)
        let (sent, seconds) = try environment.measure(
            &trial, subscriber: subscriber, plan: plan, messages: frames, epoch: trial.epoch)
        var result = trial.result(sent: sent, seconds: seconds)
        result.targetRate = plan.rate
        result.details = [
            "devices": Value(UInt64(plan.devices)), "payload_bytes": .double((result.hops[0].meanBytes ?? 0).rounded()),
            "gestures": Value(result.hops[2].delivered), "component_updates": Value(result.hops[4].delivered),
        ]
        return result
    }

    /// The subscriber's routes, in the order ``run(_:in:)`` adds them; health reports come last.
    private enum Route {
        static let touch = 0
        static let gesture = 1
        static let ui = 2
    }

    /// The counts of one flood as they come in.
    private struct Trial: FloodTrial {
        let epoch: UInt64
        var touch: HopTally
        var gesture: HopTally
        var ui: HopTally
        /// One per gesture event that carries its frame's send time: the end-to-end latency.
        var frames: [FrameTiming] = []
        var reports = ServiceReports()

        /// - Parameter expected: the frames the flood will send: room for their latencies is made
        ///   before it starts (a growing array is copied while it measures).
        init(epoch: UInt64, expected: Int) {
            self.epoch = epoch
            // Gestures and states run a little above one per frame in the demo scene; past a million
            // (8 MB an array) the arrays grow as they go.
            let frames = min(expected, 1 << 20)
            self.touch = HopTally(expectedLatencies: frames)
            self.gesture = HopTally(expectedLatencies: frames + frames / 4)
            self.ui = HopTally(expectedLatencies: frames + frames / 4)
            self.frames.reserveCapacity(frames + frames / 4)
        }

        /// Counts one delivery; latencies only for messages stamped after the flood started at `startNs`.
        mutating func handle(_ delivery: Delivery, subscriber: Subscriber, startNs: UInt64) {
            let now = Clock.monotonicNs()
            let size = delivery.payload.count
            let envelope = delivery.envelope
            let latency = startNs != 0 && envelope.mono >= startNs ? Int64(now) - Int64(envelope.mono) : nil
            switch delivery.route {
            case Route.touch:
                guard envelope.publisher == FloodEnvironment.publisherName, envelope.epoch == self.epoch else { return }
                self.touch.record(delivery.sequence, size: size, latencyNs: latency)
            case Route.gesture:
                self.gesture.record(delivery.sequence, size: size, latencyNs: latency)
                guard latency != nil else { return }
                // Only the frame's time is needed: a full decode per event was a tenth of the flood's CPU.
                guard let sentMs = try? GestureEvent.tMs(inMessagePack: delivery.payload) else {
                    _ = subscriber.decode(delivery, as: GestureEvent.self)  // counts and reports why
                    return
                }
                if let timing = FrameTiming(
                    sentMs: sentMs, publishedNs: envelope.mono, receivedNs: now, startNs: startNs)
                {
                    self.frames.append(timing)
                }
            case Route.ui:
                self.ui.record(delivery.sequence, size: size, latencyNs: latency)
            default:
                guard let health = subscriber.decode(delivery, as: Health.self) else { return }
                let seen = health.service == TouchFlood.recognizer ? self.gesture : self.ui
                self.reports.record(
                    .init(health: health, receivedNs: now, seenReceived: seen.received, seenLost: seen.lost))
            }
        }

        func progress(sent: Int, of count: Int) -> String {
            "touch: sent \(sent)/\(count)  gestures \(self.gesture.received)  ui \(self.ui.received)  "
                + "lost \(self.touch.lost + self.gesture.lost + self.ui.lost)"
        }

        /// Whether both services reported since the flood ended at `endNs` and every hop balances,
        /// or neither service's counts moved between its last two reports (what is missing by now
        /// stays missing).
        func isSettled(sent: UInt64, since endNs: UInt64) -> Bool {
            let services = [TouchFlood.recognizer, TouchFlood.host]
            guard services.allSatisfy({ self.reports.reported($0, after: endNs) }) else { return false }
            if self.hops(sent: sent).allSatisfy({ $0.unaccounted == 0 }) { return true }
            return self.reports.isStill(TouchFlood.recognizer, since: endNs) {
                $0.extra("frames_handled") + $0.health.counters.gaps
            } && self.reports.isStill(TouchFlood.host, since: endNs) { $0.extra("gestures") + $0.health.counters.gaps }
        }

        func hops(sent: UInt64) -> [HopResult] {
            let reports = self.reports
            let recognizer = TouchFlood.recognizer
            let host = TouchFlood.host
            var touch = HopResult(
                hop: "bus-flood → bus-flood (touch/, through the proxy)", countedBy: "bus-flood", sent: sent,
                delivered: self.touch.received, lost: self.touch.lost)
            touch.meanBytes = self.touch.meanBytes
            let handled = HopResult(
                hop: "bus-flood → gesture-recognizer (touch/)", countedBy: "health of gesture-recognizer",
                sent: sent, delivered: reports.growth(recognizer) { $0.extra("frames_handled") },
                lost: reports.growth(recognizer) { $0.health.counters.gaps })
            let events = reports.growth(recognizer) { $0.extra("events_published") }
            var gestures = HopResult(
                hop: "gesture-recognizer → bus-flood (gesture/)", countedBy: "bus-flood", sent: events,
                delivered: reports.growth(recognizer) { $0.seenReceived },
                lost: reports.growth(recognizer) { $0.seenLost })
            gestures.meanBytes = self.gesture.meanBytes
            let routed = HopResult(
                hop: "gesture-recognizer → component-host (gesture/)", countedBy: "health of component-host",
                sent: events, delivered: reports.growth(host) { $0.extra("gestures") + $0.extra("malformed_gestures") },
                lost: reports.growth(host) { $0.health.counters.gaps })
            var states = HopResult(
                hop: "component-host → bus-flood (ui/)", countedBy: "bus-flood",
                sent: reports.growth(host) { $0.extra("states") }, delivered: reports.growth(host) { $0.seenReceived },
                lost: reports.growth(host) { $0.seenLost })
            states.meanBytes = self.ui.meanBytes
            return [touch, handled, gestures, routed, states]
        }

        func result(sent: UInt64, seconds: Double) -> FloodResult {
            var hops = self.hops(sent: sent)
            hops[0].latency = LatencyHistogram(latenciesUs: self.touch.latenciesUs)
            hops[2].latency = LatencyHistogram(latenciesUs: self.gesture.latenciesUs)
            hops[4].latency = LatencyHistogram(latenciesUs: self.ui.latenciesUs)
            var result = FloodResult(
                mode: "touch", main: hops[1], latency: LatencyHistogram(latenciesUs: self.frames.map(\.endToEndUs)),
                latencyPath: "touch frame sent → its gesture event received (proxy, gesture-recognizer, proxy)",
                hops: hops, seconds: seconds, targetRate: 0)
            result.frames = self.frames
            return result
        }
    }
}
