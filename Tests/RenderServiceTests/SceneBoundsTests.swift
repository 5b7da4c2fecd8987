import BusSchema
import BusTestSupport
import Foundation
import RenderService
import Testing

/// Scenes and states out of bounds are refused where they enter the render worker: before any
/// allocation or `Int` conversion, a `--scene` before `ready`, a `ui/` message counted and skipped.
@Suite struct SceneBoundsTests {
    static func scene(width: Double = 400, height: Double = 300, views: Int = 1, viewWidth: Double = 100) -> Value {
        let view: Value = .map([
            "id": .string("v"),
            "frame": .map(["x": .int(0), "y": .int(0), "width": .double(viewWidth), "height": .int(50)]),
        ])
        return .map([
            "name": .string("s"), "width": .double(width), "height": .double(height),
            "views": .array(Array(repeating: view, count: views)),
        ])
    }

    @Test(arguments: [
        (1e308, 300.0, 1, 100.0), (400.0, .infinity, 1, 100.0), (400.0, 300.0, 1, 1e308),
        (400.0, 300.0, SceneBounds.maxViews + 1, 100.0), (SceneBounds.maxSide + 1, 300.0, 1, 100.0),
    ])
    func aSceneOutOfBounds_isRefusedNamingTheValue(
        _ width: Double, _ height: Double, _ views: Int, _ viewWidth: Double
    ) throws {
        let scene = Self.scene(width: width, height: height, views: views, viewWidth: viewWidth)
        #expect(throws: SceneBounds.Violation.self) { try SceneBounds.check(scene) }
        var render = RenderScene(scene: try Scene(value: Self.scene()))
        #expect(throws: RenderScene.StateError.self) { try render.applyScene(scene) }
        #expect(throws: (any Error).self) { _ = RenderScene(scene: try Scene(value: scene)) }
        // The scene in place is kept and still draws.
        #expect(try render.layers(atMs: 0)?.size.width == 400)
    }

    @Test func aSceneWithinBounds_passes() throws {
        try SceneBounds.check(Self.scene(width: SceneBounds.maxSide, views: SceneBounds.maxViews))
    }

    @Test func aStateWithANonFiniteNumber_isRefusedAndTheSceneStillDraws() throws {
        var render = RenderScene(scene: try Scene(value: Self.scene()))
        let stroke: Value = .map([
            "id": .int(1), "points": .array([.array([.double(.nan), .int(3)])]), "width": .int(4),
            "color": .string("#000000"),
        ])
        let state: Value = .map(["instance": .string("c1"), "t_ms": .int(0), "strokes": .array([stroke])])
        #expect(throws: RenderScene.StateError.self) { _ = try render.applyState(state, atMs: 0) }
        #expect(try render.layers(atMs: 0) != nil)
    }

    @Test(arguments: ["width-1e308", "views-beyond-limit"])
    func renderWorkerWithASceneOutOfBounds_exitsWithTheDataErrorStatusBeforeReady(_ name: String) throws {
        let directory = NSTemporaryDirectory() + "uibus-scene-bounds-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scene =
            name == "width-1e308" ? Self.scene(width: 1e308) : Self.scene(views: SceneBounds.maxViews + 1)
        try scene.json.write(toFile: directory + "/scene.json", atomically: true, encoding: .utf8)
        let bus = directory + "/bus.json"
        try #"{"publish": "ipc://run/in", "subscribe": "ipc://run/out"}"#.write(
            toFile: bus, atomically: true, encoding: .utf8)
        let (status, stdout, stderr) = try ChildProcess.run(
            "render-worker", ["--scene", directory + "/scene.json", "--snapshot-dir", directory], bus: bus)
        #expect(status == 65, "\(stderr)")
        #expect(!stdout.contains("ready"))
        #expect(stderr.contains(name == "width-1e308" ? "width" : "views"))
    }
}
