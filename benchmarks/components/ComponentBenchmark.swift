import BusSchema
import ComponentCore
import ServiceSupport

/// `component-bench`: gesture events handled per second by one `ComponentHost` with every
/// component of the demo scene loaded, each published state encoded to MessagePack as the live
/// service does. The workload cycles one gesture sequence per component (drawer swipes, sidebar
/// fling, table pull and refresh, slide-cell swipes, pager swipes and pans, number pad taps,
/// canvas strokes, photo pinches, memo board taps and drags), timers fired in time order, and
/// every memo command acknowledged at once as the memo store would. The canvas is cleared at the
/// start of each cycle so its state (every stroke) stays one drawing long.
@main
struct ComponentBenchmark {
    static let usage = "usage: component-bench [--events N] [--no-encode]   (from the repository root)"
    static let commandLine = CommandLineSpec(verbs: [
        "": [
            .value("events", "N", "gesture events to handle (default 1000000)"),
            .flag("no-encode", "do not encode the published states"),
        ]
    ])

    static func main() {
        Tool.main("component-bench", usage: Self.usage) {
            var options = try Self.commandLine.parse(Array(CommandLine.arguments.dropFirst()))
            let events = try options.int("events", in: 1...Int.max, default: 1_000_000)
            let encode = !options.flag("no-encode")
            try options.finish(maximumPositionals: 0)
            try Self.run(events: events, encode: encode)
        }
    }

    static func run(events: Int, encode: Bool) throws {
        let scene = ComponentScene(try SceneFile.load("deploy/scenes/demo.json"))
        var host = ComponentHost(scene: scene)
        var writer = MessagePackWriter(capacity: 4096)
        let cycle = Self.cycle()
        var states = 0
        var bytes = 0
        let clock = ContinuousClock()
        var handled = 0
        var offset = 0.0
        _ = host.start(at: SourceInstant(nanoseconds: 0), session: "bench")
        let start = clock.now
        while handled < events {
            for template in cycle where handled < events {
                var event = template
                event.tMs += offset
                var outputs = host.handle(event)
                while let output = outputs.popLast() {
                    switch output {
                    case .state(let state):
                        states += 1
                        if encode {
                            writer.reset()
                            state.encode(to: &writer)
                            bytes += writer.bytes.count
                        }
                    case .memoCommand(let request):
                        // The memo store acknowledges at once.
                        let ack = MemoAck {
                            $0.cmdId = request.cmdId
                            $0.status = .ok
                            $0.seq = 0
                        }
                        outputs += host.memoAckReceived(
                            ack, client: request.client, at: SourceInstant(milliseconds: event.tMs))
                    case .recognizerConfig: break
                    }
                }
                handled += 1
            }
            offset += Self.cycleMs
            // A fresh drawing each cycle: the canvas state carries every stroke.
            _ = host.handle(
                ComponentCommand {
                    $0.instance = "canvas1"
                    $0.command = "clear"
                }, at: SourceInstant(milliseconds: offset))
        }
        let seconds =
            Double((clock.now - start).components.attoseconds) / 1e18
            + Double((clock.now - start).components.seconds)
        let report: Value = .map([
            "events": .int(Int64(handled)), "seconds": .double(seconds),
            "events_per_s": .double((Double(handled) / seconds).rounded()),
            "states_per_s": .double((Double(states) / seconds).rounded()),
            "states_per_event": .double(Double(states) / Double(handled)),
            "mean_state_bytes": .double(Double(bytes) / Double(max(states, 1))),
            "components": .int(Int64(host.instanceIDs.count)),
        ])
        print(report.json)
    }

    /// Length of one cycle in ms; every cycle starts this much later.
    static let cycleMs = 20_000.0

    static func event(
        _ t: Double, _ view: String, _ name: String, _ kind: GestureEvent.Kind, _ state: GestureEvent.State,
        _ x: Double, _ y: Double, touches: Int = 1, direction: GestureEvent.Direction? = nil,
        translation: GestureEvent.Vector? = nil, velocity: GestureEvent.Vector? = nil, scale: Double? = nil
    ) -> GestureEvent {
        GestureEvent {
            $0.tMs = t
            $0.device = "d0"
            $0.view = view
            $0.recognizer = kind
            $0.state = state
            $0.x = x
            $0.y = y
            $0.touches = touches
            $0.direction = direction
            $0.translation = translation
            $0.velocity = velocity
            $0.scale = scale
            $0.name = name
        }
    }

    /// One gesture sequence per component, 16 ms apart within a sequence.
    static func cycle() -> [GestureEvent] {
        typealias V = GestureEvent.Vector
        var events: [GestureEvent] = []
        var t = 0.0
        func pan(_ view: String, _ name: String, _ x: Double, _ y: Double, dx: Double, dy: Double, steps: Int) {
            events.append(Self.event(t, view, name, .pan, .began, x, y, translation: V(x: 0, y: 0)))
            for step in 1...steps {
                t += 16
                let f = Double(step) / Double(steps)
                events.append(
                    Self.event(
                        t, view, name, .pan, .changed, x + dx * f, y + dy * f, translation: V(x: dx * f, y: dy * f),
                        velocity: V(x: dx * 60 / Double(steps), y: dy * 60 / Double(steps))))
            }
            t += 16
            events.append(
                Self.event(
                    t, view, name, .pan, .ended, x + dx, y + dy, translation: V(x: dx, y: dy),
                    velocity: V(x: dx * 60 / Double(steps), y: dy * 60 / Double(steps))))
            t += 400
        }
        func discrete(
            _ view: String, _ name: String, _ kind: GestureEvent.Kind, _ x: Double, _ y: Double,
            _ direction: GestureEvent.Direction? = nil
        ) {
            events.append(Self.event(t, view, name, kind, .recognized, x, y, direction: direction))
            t += 400
        }
        func touch(_ view: String, _ name: String, _ points: [(Double, Double)]) {
            for (index, point) in points.enumerated() {
                let state: GestureEvent.State = index == 0 ? .began : index == points.count - 1 ? .ended : .changed
                events.append(Self.event(t, view, name, .touchDown, state, point.0, point.1))
                t += 16
            }
            t += 200
        }
        discrete("sidebar", "drawerSwipe", .swipe, 150, 500, .right)
        discrete("sidebar", "drawerSwipe", .swipe, 150, 500, .left)
        pan("sidebar", "sidebarPan", 100, 800, dx: 0, dy: -400, steps: 20)
        pan("table", "tablePan", 400, 100, dx: 0, dy: 400, steps: 20)
        discrete("table", "cellSwipe", .swipe, 400, 100, .right)
        discrete("table", "cellSwipe", .swipe, 400, 300, .right)
        discrete("table", "cellSwipe", .swipe, 400, 300, .left)
        discrete("pager", "pageSwipe", .swipe, 900, 250, .left)
        pan("pager", "pagePan", 900, 250, dx: 0, dy: -300, steps: 20)
        discrete("pager", "pageSwipe", .swipe, 900, 250, .right)
        for key: Double in [2, 4, 2, 7] {
            let x: Double = 680 + 92 * key + 46
            touch("keypad", "padDown", [(x, 950), (x, 950)])
        }
        let stroke: [(Double, Double)] = (0..<30).map { step in
            let d = Double(step)
            return (1200 + d * 5, 620 + d * 3)
        }
        touch("sketch", "ink", stroke)
        events.append(Self.event(t, "photo", "photoPinch", .pinch, .began, 900, 700, touches: 2, scale: 1))
        for step in 1...20 {
            t += 16
            events.append(
                Self.event(
                    t, "photo", "photoPinch", .pinch, .changed, 900, 700, touches: 2, scale: 1 + Double(step) / 20))
        }
        t += 16
        events.append(Self.event(t, "photo", "photoPinch", .pinch, .ended, 900, 700, touches: 2, scale: 2))
        t += 400
        discrete("photo", "photoDoubleTap", .doubleTap, 900, 700)
        discrete("memos", "memoTap", .tap, 1300, 100)
        pan("memos", "memoPan", 1300, 100, dx: 50, dy: 50, steps: 20)
        precondition(t < Self.cycleMs)
        return events
    }
}
