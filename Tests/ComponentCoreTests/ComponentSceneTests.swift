import BusSchema
import ComponentCore
import GestureCore
import Testing

@Suite struct ComponentSceneTests {
    static func demo() throws -> String { try Repository.read("deploy/scenes/demo.json") }

    /// The demo scene with `edit` applied to its JSON value.
    static func demo(editing edit: (inout [Value]) -> Void) throws -> String {
        let root = try JSONReader.parse(try Self.demo())
        var views = root["views"]?.arrayValue ?? []
        edit(&views)
        var map = root.mapValue ?? [:]
        map["views"] = .array(views)
        return Value.map(map).json
    }

    static func setComponent(_ views: inout [Value], view: String, _ change: (inout ValueMap) -> Void) {
        guard let index = views.firstIndex(where: { $0["id"]?.stringValue == view }),
            var viewMap = views[index].mapValue, var component = viewMap["component"]?.mapValue
        else { return }
        change(&component)
        viewMap["component"] = .map(component)
        views[index] = .map(viewMap)
    }

    static func setConfig(_ views: inout [Value], view: String, _ key: String, _ value: Value) {
        Self.setComponent(&views, view: view) { component in
            var config = component["config"]?.mapValue ?? [:]
            config[key] = value
            component["config"] = .map(config)
        }
    }

    static func loadError(_ text: String) -> SceneError? {
        do {
            _ = try Scene(json: text, file: "deploy/scenes/bad.json")
            return nil
        } catch {
            return error
        }
    }

    @Test func scene_demo_hostsEveryComponentKind() throws {
        let scene = ComponentScene(try Scene(json: try Self.demo(), file: "demo.json"))
        #expect(Set(scene.components.map(\.kind)) == Set(ComponentScene.Kind.allCases))
        #expect(ComponentHost(scene: scene).instanceIDs.count == scene.components.count)
    }

    @Test func state_schema_isTheSchemaOfItsMessageForEveryKind() throws {
        var host = ComponentHost(scene: ComponentScene(try Scene(json: try Self.demo(), file: "demo.json")))
        let states = host.allStates(at: ms(0)).compactMap { if case .state(let state) = $0 { state } else { nil } }
        #expect(Set(states.map(\.kind)) == Set(ComponentScene.Kind.allCases))
        for state in states {
            #expect(state.schema == type(of: state.message).schema, "\(state.kind)")
        }
    }

    @Test func scene_demo_drawerSwipeIsReceivedOnlyInItsRegionAndThePanRequiresItToFail() throws {
        let scene = ComponentScene(try Scene(json: try Self.demo(), file: "demo.json"))
        let recognizers = scene.gesture.views.flatMap(\.recognizers)
        let swipe = try #require(recognizers.first { $0.name == "drawerSwipe" })
        #expect(swipe.receiveRegion != nil)
        #expect(scene.targets["drawerSwipe"] == ["drawer1"])
        let pan = try #require(recognizers.first { $0.name == "sidebarPan" })
        #expect(pan.requireToFail == ["drawerSwipe"])
    }

    @Test func scene_demo_tablePanDrivesTheTableAndItsPullToRefreshHeader() throws {
        let scene = ComponentScene(try Scene(json: try Self.demo(), file: "demo.json"))
        #expect(scene.targets["tablePan"] == ["table1", "refresh1"])
        #expect(scene.targets["cellSwipe"] == ["table1"])
    }

    @Test func scene_unknownComponentKind_isRejectedNamingTheFieldAndTheFile() throws {
        let text = try Self.demo { views in
            Self.setComponent(&views, view: "keypad") { $0["kind"] = .string("keyboard") }
        }
        let error = try #require(Self.loadError(text))
        #expect(error.file == "deploy/scenes/bad.json")
        #expect(error.path == "$.views[9].component.kind")
        #expect("\(error)".contains("deploy/scenes/bad.json"))
        #expect("\(error)".contains("keyboard"))
    }

    @Test func scene_slideTableWithMoreRowsThanAStateHolds_isRejectedNotATrap() throws {
        // Found by the fuzzer (Tests/data/fuzz/scene/): every row's offset was allocated first.
        let text = try Self.demo { Self.setConfig(&$0, view: "table", "rows", .int(214_748_364_840)) }
        let error = try #require(Self.loadError(text))
        #expect(error.rule == .bounds)
        #expect(error.path == "$.views[2].component.config.rows")
        #expect(error.message.contains("214748364840"))
    }

    @Test func scene_referenceToAMissingView_isRejectedNamingTheField() throws {
        let text = try Self.demo { Self.setConfig(&$0, view: "tableHeader", "scroll_view", .string("nowhere")) }
        let error = try #require(Self.loadError(text))
        #expect(error.rule == .reference)
        #expect(error.path == "$.views[3].component.config.scroll_view")
        let overlay = try Self.demo { Self.setConfig(&$0, view: "photo", "overlays", .array([.string("ghost")])) }
        #expect(Self.loadError(overlay)?.path == "$.views[6].component.config.overlays[0]")
    }

    @Test func scene_targetThatNamesNoComponent_isRejected() throws {
        let text = try Self.demo { views in
            guard var sidebar = views[0].mapValue, var recognizers = sidebar["recognizers"]?.arrayValue,
                var swipe = recognizers[0].mapValue
            else { return }
            swipe["targets"] = .array([.string("drawer9")])
            recognizers[0] = .map(swipe)
            sidebar["recognizers"] = .array(recognizers)
            views[0] = .map(sidebar)
        }
        let error = try #require(Self.loadError(text))
        #expect(error.path == "$.views[0].recognizers[0].targets[0]")
    }

    @Test(arguments: [
        ("table", "rows", Value.int(-1)), ("sidebar", "deceleration_rate", .double(1.5)),
        ("keypad", "layout", .string("qwerty")), ("sketch", "stroke_color", .string("red")),
        ("keypad", "enabled", .array([.int(1), .int(1)])), ("photo", "max_scale", .double(0.5)),
        ("pager", "page_count", .string("five")), ("menu", "edge", .string("top")),
    ])
    func scene_badSetting_isRejectedNamingTheField(view: String, key: String, value: Value) throws {
        let text = try Self.demo { Self.setConfig(&$0, view: view, key, value) }
        let error = try #require(Self.loadError(text))
        #expect(
            error.path.hasSuffix(".component.config.\(key)") || error.path.contains(".config.\(key)["))
    }

    @Test func scene_duplicateInstanceID_isRejected() throws {
        let text = try Self.demo { Self.setComponent(&$0, view: "keypad") { $0["id"] = .string("canvas1") } }
        #expect(Self.loadError(text)?.path == "$.views[9].component.id")
    }

    @Test func scene_recognizerProblems_areReportedWithTheFile() throws {
        let error = try #require(Self.loadError(#"{"name":"x","width":10,"height":10,"views":[{"id":"a"}]}"#))
        #expect(error.path == "$.views[0].frame")
        #expect(Self.loadError("{")?.rule == .json)
    }
}
