import BusSchema
import ComponentCore
import MessageFixtures
import Testing

@Suite struct ComponentHostTests {
    /// A table with a pull-to-refresh header, a zoom view with a canvas that follows it, and a
    /// memo board.
    static let sceneJSON = #"""
        {"name": "host", "width": 1000, "height": 1000, "views": [
          {"id": "table", "frame": {"x": 0, "y": 0, "width": 400, "height": 600},
           "component": {"kind": "slideTable", "id": "table1", "config": {"rows": 30, "row_height": 50}},
           "recognizers": [{"name": "tablePan", "kind": "pan", "targets": ["table1", "refresh1"]},
                           {"name": "cellSwipe", "kind": "swipe", "settings": {"directions": ["left", "right"]}}]},
          {"id": "header", "parent": "table", "frame": {"x": 0, "y": 0, "width": 400, "height": 60},
           "component": {"kind": "pullToRefresh", "id": "refresh1", "config": {"scroll_view": "table", "timeout_ms": 1000}}},
          {"id": "photo", "frame": {"x": 500, "y": 0, "width": 400, "height": 400},
           "component": {"kind": "zoomView", "id": "zoom1", "config": {"max_scale": 4}},
           "recognizers": [{"name": "photoPinch", "kind": "pinch"}]},
          {"id": "sketch", "parent": "photo", "frame": {"x": 500, "y": 0, "width": 400, "height": 400},
           "component": {"kind": "canvas", "id": "canvas1", "config": {"zoom_view": "zoom1"}},
           "recognizers": [{"name": "ink", "kind": "touchDown"}]},
          {"id": "plain", "frame": {"x": 0, "y": 700, "width": 100, "height": 100},
           "recognizers": [{"name": "plainTap", "kind": "tap"}]},
          {"id": "memos", "frame": {"x": 500, "y": 500, "width": 400, "height": 400},
           "component": {"kind": "memoBoard", "id": "board1", "config": {"client": "c1"}}}
        ]}
        """#

    static func command(_ instance: String, _ command: String, args: ValueMap? = nil) -> ComponentCommand {
        ComponentCommand {
            $0.instance = instance
            $0.command = command
            $0.args = args
        }
    }

    static func host() throws -> ComponentHost {
        ComponentHost(scene: ComponentScene(try Scene(json: Self.sceneJSON, file: "host.json")))
    }

    static func gesture(
        _ t: Double, _ view: String, _ kind: GestureEvent.Kind, _ state: GestureEvent.State, x: Double = 10,
        y: Double = 10, name: String? = nil, translation: GestureEvent.Vector? = nil, scale: Double? = nil,
        direction: GestureEvent.Direction? = nil
    ) -> GestureEvent {
        GestureEvent.gesture(kind, state, view: view, x: x, y: y, tMs: t) {
            $0.direction = direction
            $0.translation = translation
            $0.scale = scale
            $0.name = name
        }
    }

    /// The states among `outputs`, of `instance` only unless it is nil.
    static func states(_ outputs: [HostOutput], _ instance: String?) -> [ComponentState] {
        outputs.compactMap {
            guard case .state(let state) = $0, instance == nil || state.instance == instance else { return nil }
            return state
        }
    }

    @Test func host_start_publishesEveryInitialStateAndTheBoardAsksForASnapshot() throws {
        var host = try Self.host()
        let outputs = host.start(at: ms(0), session: "s1")
        let instances = outputs.compactMap { output -> String? in
            if case .state(let state) = output { return state.instance }
            return nil
        }
        #expect(Set(instances) == Set(host.instanceIDs))
        #expect(
            outputs.contains {
                if case .memoCommand(let request) = $0 { return request.op == .snapshot } else { return false }
            })
    }

    @Test func host_gestureWithoutAName_isRoutedByItsViewAndKind() throws {
        var host = try Self.host()
        let outputs = host.handle(Self.gesture(0, "table", .swipe, .recognized, y: 75, direction: .right))
        guard case .slideTable(let state)? = Self.states(outputs, "table1").last else {
            Issue.record("no table state")
            return
        }
        #expect(state.openRow == 1)
    }

    @Test func host_refreshDone_stampsTheUpdateTimeItNamesOrElseWhenItWasSent() throws {
        func refreshed(_ args: ValueMap?, wallMs: Double?) throws -> [HostOutput] {
            var host = try Self.host()
            _ = host.handle(Self.gesture(0, "table", .pan, .began, name: "tablePan"))
            let pull = GestureEvent.Vector(x: 0, y: 400)
            _ = host.handle(Self.gesture(10, "table", .pan, .changed, name: "tablePan", translation: pull))
            _ = host.handle(Self.gesture(20, "table", .pan, .ended, name: "tablePan", translation: pull))
            return host.handle(
                Self.command("refresh1", "refresh_done", args: args), at: ms(100), wallMs: wallMs
            )
        }
        func updated(_ outputs: [HostOutput]) -> Double?? {
            guard case .pullToRefresh(let state)? = Self.states(outputs, "refresh1").last else { return nil }
            return .some(state.updatedAtMs)
        }
        #expect(updated(try refreshed(["updated_at_ms": .double(1_314_007_500_000)], wallMs: 5)) == 1_314_007_500_000)
        #expect(updated(try refreshed(nil, wallMs: 1_314_007_560_000)) == 1_314_007_560_000, "when it was sent")
        #expect(updated(try refreshed(["updated_at_ms": .string("noon")], wallMs: 5)) == nil, "refused")
        #expect(updated(try refreshed(["updated_at_ms": .double(-1)], wallMs: 5)) == nil, "no date: refused")
    }

    @Test func host_oneRecognizer_feedsEveryTarget() throws {
        var host = try Self.host()
        let began = host.handle(Self.gesture(0, "table", .pan, .began, name: "tablePan"))
        #expect(Self.states(began, "table1").count == 1)
        #expect(Self.states(began, "refresh1").count == 1)
    }

    @Test func host_pullOnAScrolledTable_doesNotShowTheHeader() throws {
        var host = try Self.host()
        _ = host.handle(Self.gesture(0, "table", .pan, .began, name: "tablePan"))
        _ = host.handle(Self.gesture(16, "table", .pan, .changed, name: "tablePan", translation: vector(0, -300)))
        _ = host.handle(Self.gesture(32, "table", .pan, .ended, name: "tablePan", translation: vector(0, -300)))
        let began = host.handle(Self.gesture(100, "table", .pan, .began, name: "tablePan"))
        #expect(Self.states(began, "refresh1").isEmpty)
        _ = host.handle(Self.gesture(116, "table", .pan, .changed, name: "tablePan", translation: vector(0, 200)))
        guard case .pullToRefresh(let state)? = host.state(of: "refresh1") else {
            Issue.record("no header state")
            return
        }
        #expect(state.phase == .hidden)
    }

    @Test func host_gestureNoComponentListensTo_isCountedAsUnrouted() throws {
        var host = try Self.host()
        #expect(host.handle(Self.gesture(0, "plain", .tap, .recognized, name: "plainTap")).isEmpty)
        #expect(host.handle(Self.gesture(1, "nowhere", .tap, .recognized)).isEmpty)
        #expect(host.counters.unrouted == 2)
        #expect(host.counters.gestures == 2)
    }

    @Test func host_routes_stayRightWithMoreKindsOfGestureInterleavedThanItKeepsInMind() throws {
        var host = try Self.host()
        // (view, kind, name, the instances its states may come from; empty: unrouted)
        var kinds: [(String, GestureEvent.Kind, String?, Set<String>)] = [
            ("table", .swipe, nil, ["table1"]), ("table", .pan, "tablePan", ["table1", "refresh1"]),
            ("photo", .pinch, nil, ["zoom1", "canvas1"]), ("sketch", .touchDown, nil, ["canvas1"]),
            ("plain", .tap, "plainTap", []),
        ]
        kinds += (0..<6).map { ("nowhere\($0)", .tap, nil, []) }
        var t = 0.0
        var unrouted = 0
        for round in 0..<3 {
            // Right opens the row, left closes it again: each swipe changes the table.
            let direction: GestureEvent.Direction = round == 1 ? .left : .right
            for (view, kind, name, targets) in kinds {
                t += 10
                // Timers due by then fire first, so the gesture's outputs are its own.
                _ = host.advance(to: ms(t))
                let state: GestureEvent.State = kind == .swipe || kind == .tap ? .recognized : .began
                let outputs = host.handle(Self.gesture(t, view, kind, state, y: 75, name: name, direction: direction))
                let instances = Set(Self.states(outputs, nil).map(\.instance))
                #expect(instances.isSubset(of: targets), "\(view) \(kind): states of \(instances)")
                if targets.isEmpty { unrouted += 1 }
                if kind == .swipe { #expect(instances == ["table1"], "every swipe moves a row") }
            }
        }
        #expect(host.counters.unrouted == unrouted)
        #expect(host.counters.gestures == 3 * kinds.count)
    }

    @Test func host_commandsForUnknownInstancesOrThatAComponentDoesNotTake_areCountedAsRejected() throws {
        var host = try Self.host()
        #expect(host.handle(Self.command("ghost", "clear"), at: ms(0)).isEmpty)
        #expect(host.handle(Self.command("table1", "clear"), at: ms(0)).isEmpty)
        #expect(host.handle(Self.command("board1", "edit", args: ["text": .string("x")]), at: ms(0)).isEmpty)
        #expect(host.counters.rejectedCommands == 3)
        #expect(!host.handle(Self.command("canvas1", "clear"), at: ms(0)).isEmpty)
    }

    /// A pinch about the view's top-left corner keeps the content offset at zero.
    @Test func host_canvas_mapsPointsBackByTheScaleOfTheZoomViewItFollows() throws {
        var host = try Self.host()
        _ = host.handle(Self.gesture(0, "photo", .pinch, .began, x: 500, y: 0, name: "photoPinch", scale: 1))
        _ = host.handle(Self.gesture(16, "photo", .pinch, .changed, x: 500, y: 0, name: "photoPinch", scale: 2))
        _ = host.handle(Self.gesture(32, "photo", .pinch, .ended, x: 500, y: 0, name: "photoPinch", scale: 2))
        let outputs = host.handle(Self.gesture(100, "sketch", .touchDown, .began, x: 600, y: 80, name: "ink"))
        guard case .canvas(let state)? = Self.states(outputs, "canvas1").last else {
            Issue.record("no canvas state")
            return
        }
        #expect(state.strokes.first?.points == [vector(50, 40)])
        #expect(state.zoomScale == 2)
    }

    /// A pinch about the view's centre (700, 200 in the scene) to 2× scrolls the content to
    /// (200, 200); a touch at view point (100, 80) then lands on content point (150, 140),
    /// not on (50, 40) as the scale alone would put it.
    @Test func host_canvas_mapsPointsThroughTheContentOffsetOfTheZoomViewItFollows() throws {
        var host = try Self.host()
        _ = host.handle(Self.gesture(0, "photo", .pinch, .began, x: 700, y: 200, name: "photoPinch", scale: 1))
        _ = host.handle(Self.gesture(16, "photo", .pinch, .changed, x: 700, y: 200, name: "photoPinch", scale: 2))
        _ = host.handle(Self.gesture(32, "photo", .pinch, .ended, x: 700, y: 200, name: "photoPinch", scale: 2))
        guard case .zoomView(let zoom)? = host.state(of: "zoom1") else {
            Issue.record("no zoom state")
            return
        }
        #expect((zoom.scale, zoom.offsetX, zoom.offsetY) == (2, 200, 200))
        let outputs = host.handle(Self.gesture(100, "sketch", .touchDown, .began, x: 600, y: 80, name: "ink"))
        guard case .canvas(let state)? = Self.states(outputs, "canvas1").last else {
            Issue.record("no canvas state")
            return
        }
        #expect(state.strokes.first?.points == [vector(150, 140)])
    }

    @Test func host_timers_fireInTimeOrderBeforeALaterInput() throws {
        var host = try Self.host()
        _ = host.handle(Self.gesture(0, "table", .swipe, .recognized, y: 75, name: "cellSwipe", direction: .right))
        #expect(host.nextTimer == ms(200))
        let outputs = host.handle(
            Self.gesture(500, "table", .swipe, .recognized, y: 175, name: "cellSwipe", direction: .right))
        let times = Self.states(outputs, "table1").map { state -> Double in
            if case .slideTable(let table) = state { return table.tMs }
            return -1
        }
        #expect(times == [200, 500])
    }

    @Test func host_aGestureALittleEarlierThanTheClock_movesItBackAndLeavesTheTimersWhereTheyAre() throws {
        var host = try Self.host()
        _ = host.handle(Self.gesture(1000, "table", .swipe, .recognized, y: 75, name: "cellSwipe", direction: .right))
        _ = host.advance(to: ms(1100))
        _ = host.handle(Self.gesture(1050, "table", .pan, .began, name: "tablePan"))
        #expect(host.now == ms(1050))
        #expect(host.nextTimer == ms(1200), "a live tick that ran ahead of a late gesture moves no timer")
    }

    @Test func host_aSourceWhoseClockStartsAgain_keepsEachTimersRemainingTime() throws {
        var host = try Self.host()
        _ = host.handle(
            Self.gesture(100_000, "table", .swipe, .recognized, y: 75, name: "cellSwipe", direction: .right))
        #expect(host.nextTimer == ms(100_200))
        _ = host.handle(Self.gesture(50, "table", .pan, .began, name: "tablePan"))
        #expect(host.now == ms(50))
        #expect(host.nextTimer == ms(250), "the slide still ends 200 ms after it began")
    }

    @Test func host_refreshTimeout_runsOnTheHostClock() throws {
        var host = try Self.host()
        _ = host.handle(Self.gesture(0, "table", .pan, .began, name: "tablePan"))
        _ = host.handle(Self.gesture(16, "table", .pan, .changed, name: "tablePan", translation: vector(0, 500)))
        _ = host.handle(Self.gesture(32, "table", .pan, .ended, name: "tablePan", translation: vector(0, 500)))
        guard case .pullToRefresh(let refreshing)? = host.state(of: "refresh1") else { return }
        #expect(refreshing.phase == .refreshing)
        let outputs = host.advance(to: ms(1032))
        guard case .pullToRefresh(let hidden)? = Self.states(outputs, "refresh1").last else {
            Issue.record("no timeout")
            return
        }
        #expect(hidden.phase == .hidden)
        #expect(hidden.tMs == 1032)
    }

    @Test func host_lifecycleAndNetwork_reachEveryComponent() throws {
        var host = try Self.host()
        _ = host.handle(Self.gesture(0, "sketch", .touchDown, .began, x: 600, y: 80, name: "ink"))
        let resigned = host.appActiveChanged(false, at: ms(10))
        guard case .canvas(let canvas)? = Self.states(resigned, "canvas1").last else {
            Issue.record("stroke not cancelled")
            return
        }
        #expect(canvas.strokes.isEmpty)
        _ = host.connectivityChanged(.none, at: ms(20))
        _ = host.handle(Self.gesture(30, "table", .pan, .began, name: "tablePan"))
        _ = host.handle(Self.gesture(46, "table", .pan, .changed, name: "tablePan", translation: vector(0, 500)))
        let ended = host.handle(Self.gesture(62, "table", .pan, .ended, name: "tablePan", translation: vector(0, 500)))
        guard case .pullToRefresh(let header)? = Self.states(ended, "refresh1").last else {
            Issue.record("no header state")
            return
        }
        #expect(header.phase == .hidden)
        #expect(header.offline == true)
    }

    @Test func host_allStates_givesEveryComponentAtTheCurrentTime() throws {
        var host = try Self.host()
        _ = host.handle(Self.gesture(40, "plain", .tap, .recognized, name: "plainTap"))
        let outputs = host.allStates(at: ms(50))
        #expect(
            Set(outputs.compactMap { if case .state(let state) = $0 { state.instance } else { nil } })
                == Set(host.instanceIDs))
        #expect(host.now == ms(50))
    }

    @Test func host_memoAck_goesToTheBoardOfItsClient() throws {
        var host = try Self.host()
        let started = host.start(at: ms(0), session: "s1")
        let snapshot = try #require(
            started.compactMap { output -> MemoCommand? in
                if case .memoCommand(let request) = output { return request }
                return nil
            }.first)
        #expect(
            host.memoAckReceived(
                MemoAck.ack(snapshot.cmdId, .ok, seq: 0), client: "other", at: ms(5)
            )
            .isEmpty)
        let acked = host.memoAckReceived(
            MemoAck.ack(snapshot.cmdId, .ok, seq: 0), client: "c1", at: ms(5))
        guard case .memoBoardDelta(let delta)? = Self.states(acked, "board1").last else {
            Issue.record("ack not applied")
            return
        }
        #expect(delta.pendingCommands == 0)
        guard case .memoBoard(let board)? = host.state(of: "board1") else {
            Issue.record("no board")
            return
        }
        #expect(board.pendingCommands == 0 && board.revision == delta.revision)
    }

    /// The recognizer configurations among `outputs`.
    static func configs(_ outputs: [HostOutput]) -> [RecognizerConfig] {
        outputs.compactMap {
            guard case .recognizerConfig(let config) = $0 else { return nil }
            return config
        }
    }

    @Test func host_drawerStates_configureTheSwipeThatTargetsIt_directionAndPanelRegion() throws {
        var host = try ComponentHost(
            scene: ComponentScene(try Scene(json: try ComponentSceneTests.demo(), file: "demo.json")))
        let started = Self.configs(host.start(at: ms(0), session: "s1"))
        #expect(started.map(\.recognizer) == ["drawerSwipe"], "only the drawer's swipe, not the table's")
        #expect(started.first?.directions == [.right])
        #expect(
            started.first?.receiveRegion
                == Scene.Frame(x: 0, y: 0, width: 44, height: 1000))
        #expect(started.first?.instance == "drawer1")
        let swipe = Self.gesture(100, "sidebar", .swipe, .recognized, name: "drawerSwipe", direction: .right)
        let opened = host.handle(swipe)
        #expect(Self.configs(opened).map(\.directions) == [[.left]])
        #expect(Self.configs(opened).first?.receiveRegion?.width == 240)
        // The state first, then the configuration it implies.
        let order = opened.compactMap { output -> String? in
            switch output {
            case .state(.drawer): "state"
            case .recognizerConfig: "config"
            default: nil
            }
        }
        #expect(order == ["state", "config"])
        #expect(Self.configs(host.allStates(at: ms(200))).count == 1, "a resync republishes it")
    }
}
