import BusSchema
import MessageFixtures
import Testing

@testable import ComponentCore

/// No value a gesture can carry makes a machine trap, and nothing a machine publishes holds a
/// NaN or an infinity: the host clamps what enters, machines clamp what their arithmetic makes.
@Suite struct HostileValueTests {
    static let hostile: [Double] = [.nan, .infinity, -.infinity, 1e308, -1e308, 1e-308]

    /// Every state among `outputs` carries only finite numbers.
    static func expectFinite(_ outputs: [HostOutput], _ context: String) {
        for case .state(let state) in outputs {
            #expect(throws: Never.self, "\(context)") { try state.payload.checkNumbers(maxMagnitude: 1e19) }
        }
    }

    @Test(arguments: hostile)
    func everyMachineOfTheDemoScene_survivesHostileGesturesAndStillWorks(_ value: Double) throws {
        let scene = ComponentScene(try Scene(json: try Repository.read("deploy/scenes/demo.json"), file: "demo.json"))
        var host = ComponentHost(scene: scene)
        Self.expectFinite(host.start(at: ms(0), session: "test"), "start")
        var t = 0.0
        for view in scene.gesture.views {
            for recognizer in view.recognizers {
                for state in [GestureEvent.State.began, .changed, .changed, .ended, .recognized] {
                    t += 16
                    let event = GestureEvent.gesture(
                        recognizer.kind, state, view: view.id, x: value, y: value, tMs: t
                    ) {
                        $0.direction = .left
                        $0.translation = GestureEvent.Vector(x: value, y: value)
                        $0.velocity = GestureEvent.Vector(x: value, y: -value)
                        $0.scale = value
                        $0.rotation = value
                        $0.name = recognizer.name
                        $0.scaleVelocity = value
                        $0.rotationVelocity = value
                    }
                    Self.expectFinite(host.handle(event), "\(view.id) \(recognizer.name) \(state) \(value)")
                }
                // A normal drag after the hostile one is still handled.
                for (state, dx) in [(GestureEvent.State.began, 0.0), (.changed, -40), (.ended, -80)] {
                    t += 16
                    let event = GestureEvent.gesture(
                        recognizer.kind, state, view: view.id, x: view.frame.x + 10, y: view.frame.y + 10, tMs: t
                    ) {
                        $0.translation = GestureEvent.Vector(x: dx, y: dx)
                        $0.velocity = GestureEvent.Vector(x: dx, y: dx)
                        $0.scale = 1
                        $0.rotation = 0
                        $0.name = recognizer.name
                    }
                    Self.expectFinite(host.handle(event), "\(view.id) normal \(state)")
                }
            }
        }
        while let next = host.nextTimer, next <= ms(t + 20_000) { Self.expectFinite(host.advance(to: next), "timers") }
    }

    @Test(arguments: hostile)
    func aScrollViewDraggedOrFlungWithAHostileValue_staysFiniteAndDragsAgain(_ value: Double) {
        var machine = ScrollViewMachine(
            instance: "s",
            config: .init(viewportWidth: 300, viewportHeight: 400, contentWidth: 300, contentHeight: 4000))
        var effects = machine.handle(.panBegan(at: ms(0)))
        effects += machine.handle(.panChanged(translation: vector(value, value), at: ms(16)))
        effects += machine.handle(.panEnded(velocity: vector(value, value), at: ms(32)))
        var t = 32.0
        while let next = Effects.timer(effects), t < 60_000 {
            t = next
            effects = machine.handle(.timeElapsed(ms(next)))
        }
        #expect(machine.offset.x.isFinite && machine.offset.y.isFinite)
        _ = machine.handle(.panBegan(at: ms(t + 100)))
        _ = machine.handle(.panChanged(translation: vector(0, -50), at: ms(t + 116)))
        #expect(machine.offset.y.isFinite)
    }

    @Test(arguments: hostile)
    func aCanvasDropsAPointItCannotDraw(_ value: Double) {
        var machine = CanvasMachine(instance: "c", config: .init())
        _ = machine.handle(.touchBegan(x: 10, y: 10, at: ms(0)))
        _ = machine.handle(.touchMoved(x: value, y: 20, at: ms(16)))
        _ = machine.handle(.touchMoved(x: 30, y: 30, at: ms(32)))
        _ = machine.handle(.touchLifted(x: value, y: value, at: ms(48)))
        let points = machine.snapshot(at: ms(48)).strokes.flatMap(\.points)
        #expect(points.allSatisfy { $0.x.isFinite && $0.y.isFinite && abs($0.x) <= 1e6 })
        #expect(points.count == (NumberRange.coordinate.contains(value) ? 4 : 2))
        // A stroke that starts on a point it cannot draw is no stroke.
        _ = machine.handle(.touchBegan(x: .nan, y: 0, at: ms(64)))
        #expect(machine.snapshot(at: ms(64)).strokes.count == 1)
    }

    @Test func aGestureStampedFarAhead_firesOnlyTheCatchUpWindowOfTimers() throws {
        let scene = ComponentScene(try Scene(json: try Repository.read("deploy/scenes/demo.json"), file: "demo.json"))
        var host = ComponentHost(scene: scene)
        _ = host.start(at: ms(0), session: "test")
        // A fling leaves the sidebar decelerating, asking for a frame every 16 ms.
        for (state, dy) in [(GestureEvent.State.began, 0.0), (.changed, -200), (.ended, -400)] {
            _ = host.handle(
                .gesture(
                    .pan, state, view: "sidebar", x: 100, y: 500, tMs: 16 + (state == .began ? 0 : dy.magnitude / 10)
                ) {
                    $0.translation = vector(0, dy)
                    $0.velocity = vector(0, -5000)
                    $0.name = "sidebarPan"
                })
        }
        let far = GestureEvent.gesture(.touchDown, .began, view: "keypad", x: 0, y: 0, tMs: NumberRange.timeMs.upper)
        let outputs = host.handle(far)
        // At most one frame per 16 ms of the window per instance, not 10^13 ms of them.
        #expect(outputs.count < Int(ComponentHost.maxCatchUp.milliseconds / 16 + 1) * host.instanceIDs.count)
        #expect(host.now == ms(NumberRange.timeMs.upper))
    }
}
