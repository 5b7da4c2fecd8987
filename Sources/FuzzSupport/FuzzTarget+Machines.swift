import BusSchema
import ComponentCore
import GestureCore
import InputCore

/// State machines fed decoded messages, as the services feed them: an input is one MessagePack
/// array of payloads; each element is decoded as the service's subscriber decodes it (a refused
/// one is skipped, as the service counts and skips it) and the rest drive the machine. What is
/// checked is that nothing traps or hangs and that everything the machine publishes decodes
/// again: finite numbers within the schema's ranges.
extension FuzzTarget {
    /// The most payloads one input may hold.
    static let machineMessages = 256

    /// The component machines, each with the demo scene's view whose gestures reach it.
    static let componentViews: [(kind: String, view: String)] = [
        ("scrollView", "sidebar"), ("drawer", "sidebar"), ("slideTable", "table"), ("pullToRefresh", "table"),
        ("pager", "pager"), ("memoBoard", "memos"), ("zoomView", "photo"), ("canvas", "sketch"),
        ("numberPad", "keypad"),
    ]

    /// One target per component machine: `gesture.event` payloads through a ``ComponentHost`` on
    /// the demo scene, every event sent to the machine's view.
    static let components: [FuzzTarget] = componentViews.map { kind, view in
        FuzzTarget(
            "machine.\(kind)", dictionary: messagePackTokens + ["t_ms", "translation", "velocity", "scale", "began"],
            maximumLength: 1 << 13
        ) { data in
            let scene = ComponentScene(
                try Scene(
                    json: String(decoding: try data.bytes("deploy/scenes/demo.json"), as: UTF8.self),
                    file: "demo.json"))
            guard let frame = scene.gesture.views.first(where: { $0.id == view })?.frame else {
                throw FuzzError("demo.json has no view '\(view)'")
            }
            let seeds = [Self.gestureSeed(view: view, x: frame.x + frame.width / 2, y: frame.y + frame.height / 2)]
            // Built once; each input starts from a copy (a value: its machines are copied on write).
            let initial = ComponentHost(scene: scene)
            let decode: @Sendable ([UInt8]) -> String? = { input in
                var host = initial
                var firstError: String?
                let payloads = Self.payloads(input, firstError: &firstError)
                for payload in payloads {
                    do {
                        var event = try GestureEvent(messagePack: payload)
                        event.view = view
                        event.name = nil
                        Self.check(host.handle(event))
                    } catch {
                        firstError = firstError ?? code(error)
                    }
                }
                let end = host.now + ComponentReplay.settle
                while let next = host.nextTimer, next <= end { Self.check(host.advance(to: next)) }
                return firstError
            }
            return (seeds, decode)
        }
    }

    /// `touch.frame` payloads through a ``GestureEngine`` on the demo scene; every event it
    /// publishes must decode.
    static let gestures = FuzzTarget(
        "machine.gestures", dictionary: messagePackTokens + ["contacts", "phase", "began", "moved", "ended", "t_ns"],
        maximumLength: 1 << 13
    ) { data in
        let seeds = try Self.scriptFrames(data).map { Value.array($0.map(\.value)).messagePack }
        let initial = GestureEngine(scene: try Self.demoGestureScene(data))
        let decode: @Sendable ([UInt8]) -> String? = { input in
            var engine = initial
            var firstError: String?
            for payload in Self.payloads(input, firstError: &firstError) {
                do {
                    Self.check(engine.handle(.frameArrived(try TouchFrame(messagePack: payload))))
                } catch {
                    firstError = firstError ?? code(error)
                }
            }
            while let deadline = engine.nextDeadline { Self.check(engine.handle(.timeElapsed(deadline))) }
            return firstError
        }
        return (seeds, decode)
    }

    /// `touch.frame` payloads through ``DeviceLanes`` on the demo scene, as the recognizer service
    /// feeds them: one arrives every 8 ms of monotonic time whatever its `t_ns` says (which may go
    /// back, jump or repeat), and each wake-up asked for runs when due, up to 10 s after the last
    /// frame. Every event published must decode, and no device's events may go back in time.
    static let lanes = FuzzTarget(
        "machine.lanes", dictionary: messagePackTokens + ["contacts", "phase", "began", "moved", "ended", "t_ns"],
        maximumLength: 1 << 13
    ) { data in
        // Each script twice back to back, as a recording replayed again: its clock starts over.
        let seeds = try Self.scriptFrames(data).map { frames in
            Value.array((frames + frames).prefix(Self.machineMessages).map(\.value)).messagePack
        }
        let initial = DeviceLanes(scene: try Self.demoGestureScene(data))
        let decode: @Sendable ([UInt8]) -> String? = { input in
            var lanes = initial
            var wakes: [String: MonotonicInstant] = [:]
            var latest: [String: Double] = [:]
            func apply(_ effects: [DeviceLanes.Effect]) {
                for effect in effects {
                    switch effect {
                    case .publish(let event):
                        Self.check(event)
                        precondition(event.tMs >= latest[event.device, default: 0], "time went back: \(event)")
                        latest[event.device] = event.tMs
                    case .wake(let device, let due): wakes[device] = due
                    case .cancelWake(let device): wakes[device] = nil
                    case .configurationRejected, .sourceClockJumped: break
                    }
                }
            }
            func runWakes(through mono: MonotonicInstant) {
                // The earliest first, ties by device: the order must not depend on hashing.
                while let next = wakes.min(by: { ($0.value, $0.key) < ($1.value, $1.key) }), next.value <= mono {
                    wakes[next.key] = nil
                    apply(lanes.handle(.wakeDue(device: next.key, at: next.value)))
                }
            }
            var firstError: String?
            var mono = MonotonicInstant(nanoseconds: 0)
            for payload in Self.payloads(input, firstError: &firstError) {
                mono = mono + .milliseconds(8)
                runWakes(through: mono)
                do {
                    apply(lanes.handle(.frameArrived(try TouchFrame(messagePack: payload), at: mono)))
                } catch {
                    firstError = firstError ?? code(error)
                }
            }
            runWakes(through: mono + .seconds(10))
            return firstError
        }
        return (seeds, decode)
    }

    /// The demo scene's recognizers.
    private static func demoGestureScene(_ data: RepositoryData) throws -> GestureScene {
        GestureScene(
            try Scene(
                json: String(decoding: try data.bytes("deploy/scenes/demo.json"), as: UTF8.self), file: "demo.json"))
    }

    /// `Tests/data/scripts` framed, each cut to the most payloads one input may hold.
    private static func scriptFrames(_ data: RepositoryData) throws -> [[TouchFrame]] {
        try data.files(in: "Tests/data/scripts", suffix: ".jsonl").map { path in
            let script = String(decoding: try data.bytes(path), as: UTF8.self)
            return Array(OfflineConversion.frames(script: script).frames.prefix(Self.machineMessages))
        }
    }

    /// The elements of an input's top-level array, each re-encoded as one payload: those before
    /// the first malformed element, so a mutation late in the input still drives the machine.
    private static func payloads(_ input: [UInt8], firstError: inout String?) -> [[UInt8]] {
        input.withUnsafeBytes { raw in
            var reader = MessagePackReader(raw)
            var payloads: [[UInt8]] = []
            do {
                let count = try reader.readArrayHeader()
                guard count <= Self.machineMessages else {
                    firstError = "too_many_messages"
                    return []
                }
                for _ in 0..<count { payloads.append(try reader.readValue().messagePack) }
                try reader.expectEnd()
            } catch {
                firstError = code(error)
            }
            return payloads
        }
    }

    /// Everything a component published must carry finite numbers and decode again.
    private static func check(_ outputs: [HostOutput]) {
        for case .state(let state) in outputs {
            do {
                try state.payload.checkNumbers(maxMagnitude: 1e19)
            } catch {
                preconditionFailure("\(state.payload["instance"]?.stringValue ?? "?") published \(error)")
            }
        }
    }

    /// Every gesture event the engine published must decode.
    private static func check(_ effects: [GestureEngine.Effect]) {
        for case .publish(let event) in effects { Self.check(event) }
    }

    /// A gesture event the recognizers published must decode.
    private static func check(_ event: GestureEvent) {
        if case .failure(let error) = Result(catching: { try GestureEvent(messagePack: event.messagePack) }) {
            preconditionFailure("the recognizers published an event that does not decode: \(error): \(event)")
        }
    }

    /// A session of every recognizer kind at (`x`, `y`) on `view`: drags, flings, pinches,
    /// rotations, taps, presses, swipes, as a recognizer would publish them.
    private static func gestureSeed(view: String, x: Double, y: Double) -> [UInt8] {
        var events: [GestureEvent] = []
        var t = 0.0
        func add(_ kind: GestureEvent.Kind, _ state: GestureEvent.State, dx: Double = 0, dy: Double = 0) {
            t += 16
            var event = GestureEvent {
                $0.tMs = t
                $0.device = "d0"
                $0.view = view
                $0.recognizer = kind
                $0.state = state
                $0.x = x + dx
                $0.y = y + dy
                $0.touches = 1
            }
            switch kind {
            case .pan, .edgePan:
                event.translation = GestureEvent.Vector(x: dx, y: dy)
                event.velocity = GestureEvent.Vector(x: dx * 10, y: dy * 10)
            case .pinch:
                event.scale = 1 + dx / 1000
                event.scaleVelocity = 1
            case .rotation:
                event.rotation = dx / 100
                event.rotationVelocity = 1
            case .swipe:
                event.direction = dx < 0 ? .left : .right
                event.velocity = GestureEvent.Vector(x: dx * 10, y: 0)
            case .tap, .doubleTap, .longPress, .touchDown:
                break
            }
            events.append(event)
        }
        for kind in [GestureEvent.Kind.pan, .pinch, .rotation, .touchDown, .longPress] {
            add(kind, .began)
            for step in 1...4 { add(kind, .changed, dx: Double(step) * -30, dy: Double(step) * 20) }
            add(kind, .ended, dx: -120, dy: 80)
        }
        add(.tap, .recognized)
        add(.doubleTap, .recognized)
        add(.swipe, .recognized, dx: -200)
        add(.swipe, .recognized, dx: 200)
        return Value.array(events.map(\.value)).messagePack
    }
}
