import BusSchema
import GestureCore
import Testing

@Suite struct SceneLoadingTests {
    @Test func schemaExamplesLoad() throws {
        let demo = GestureScene(try Scene(json: Replay.text("scenes/demo-like.json")))
        #expect(demo.width == 1600 && demo.height == 1000)
        let sidebar = demo.views.first { $0.id == "sidebar" }!
        #expect(sidebar.recognizers.map(\.name) == ["drawerSwipe", "sidebarPan"])
        #expect(sidebar.recognizers[0].settings.directions == [.right, .left])
        #expect(sidebar.recognizers[0].receiveRegion == Rect(x: 0, y: 0, width: 280, height: 1000))
        #expect(sidebar.recognizers[1].requireToFail == ["drawerSwipe"])
        let memos = demo.views.first { $0.id == "memos" }!
        #expect(memos.recognizers.first { $0.name == "memoDoubleTap" }?.settings.tapsRequired == 2)
        #expect(memos.recognizers.first { $0.name == "memoPan" }?.settings.maxTouches == 1)
        #expect(demo.views.first { $0.id == "sketch" }?.recognizers.first?.cancelsTouches == false)
        #expect(demo.views.first { $0.id == "menu" }?.parent == "sidebar")
        let minimal = GestureScene(try Scene(json: Replay.text("scenes/minimal.json")))
        #expect(minimal.views.map(\.id) == ["pad"])
    }

    @Test func errorsNameTheField() {
        func error(_ json: String) -> SceneError? {
            do {
                _ = GestureScene(try Scene(json: json))
                return nil
            } catch {
                return error
            }
        }
        let view = #""id": "v", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}"#
        #expect(error("{")?.rule == .json)
        #expect(error(#"{"name": "s", "height": 10, "views": []}"#)?.path == "$.width")
        #expect(error(#"{"name": "s", "width": -1, "height": 10, "views": []}"#)?.path == "$.width")
        let badKind =
            #"{"width": 10, "height": 10, "views": [{\#(view), "recognizers": [{"name": "a", "kind": "wave"}]}]}"#
        #expect(error(badKind)?.path == "$.views[0].recognizers[0].kind")
        let badSetting =
            #"{"width": 10, "height": 10, "views": [{\#(view), "recognizers": [{"name": "a", "kind": "pan", "settings": {"slop": "x"}}]}]}"#
        #expect(error(badSetting)?.path == "$.views[0].recognizers[0].settings.slop")
        let badReference =
            #"{"width": 10, "height": 10, "views": [{\#(view), "recognizers": [{"name": "a", "kind": "pan", "require_to_fail": ["b"]}]}]}"#
        #expect(error(badReference)?.rule == .reference)
        #expect(error(badReference)?.path == "$.views[0].recognizers[0].require_to_fail[0]")
        let duplicate = #"{"width": 10, "height": 10, "views": [{\#(view)}, {\#(view)}]}"#
        #expect(error(duplicate)?.path == "$.views[1].id")
        let missingFrame = #"{"width": 10, "height": 10, "views": [{"id": "v"}]}"#
        #expect(error(missingFrame)?.path == "$.views[0].frame")
    }

    @Test func disabledRecognizersAreLeftOut() throws {
        let json = #"""
            {"width": 10, "height": 10, "views": [{"id": "v", "frame": {"x": 0, "y": 0, "width": 10, "height": 10},
             "recognizers": [{"name": "a", "kind": "pan", "enabled": false}, {"name": "b", "kind": "tap"}]}]}
            """#
        #expect(GestureScene(try Scene(json: json)).views[0].recognizers.map(\.name) == ["b"])
    }

    @Test func demoSceneSidebarPanWaitsForTheDrawerSwipe() throws {
        // The drawer seed against the schema's example scene.
        let demo = GestureScene(try Scene(json: Replay.text("scenes/demo-like.json")))
        let vertical = Replay.events(
            Replay.generator.pan(fromX: 100, fromY: 100, toX: 100, toY: 400, durationMs: 300), scene: demo)
        #expect(vertical.named("drawerSwipe").states == [.failed])
        #expect(vertical.named("sidebarPan").first?.state == .began)
        let swipe = Replay.events(Replay.generator.swipe(.right, x: 60, y: 300), scene: demo)
        #expect(swipe.named("drawerSwipe").states == [.recognized])
        #expect(swipe.named("sidebarPan").states == [.failed])
    }
}

@Suite struct GestureEventTests {
    @Test(arguments: [
        "edge-pan-began", "pan-changed", "pinch-changed", "rotation-ended", "swipe-right", "tap", "touch-down-began",
    ])
    func schemaExamplesRoundTrip(name: String) throws {
        let value = try JSONReader.parse(Replay.text("gesture.event/\(name).json"))
        let event = try GestureEvent(messagePack: value.messagePack)
        // Same fields and values; the examples order some optional keys differently.
        let decoded = Dictionary(uniqueKeysWithValues: event.value.mapValue!.entries.map { ($0.key, $0.value) })
        #expect(decoded == Dictionary(uniqueKeysWithValues: value.mapValue!.entries.map { ($0.key, $0.value) }))
    }
}
