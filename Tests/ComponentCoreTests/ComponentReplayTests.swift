import BusSchema
import ComponentCore
import Testing

/// A scripted session through every component of the demo scene, replayed as `component-host
/// replay` does.
@Suite struct ComponentReplayTests {
    /// One gesture event line.
    static func gesture(
        _ t: Double, _ view: String, _ name: String, _ kind: String, _ state: String, x: Double, y: Double,
        touches: Int = 1, extra: ValueMap = [:]
    ) -> String {
        var map: ValueMap = [
            "t_ms": .number(t), "device": .string("d0"), "view": .string(view), "recognizer": .string(kind),
            "state": .string(state), "x": .number(x), "y": .number(y), "touches": .int(Int64(touches)),
            "name": .string(name),
        ]
        for (key, value) in extra { map[key] = value }
        return Value.map(map).json
    }

    static func translation(_ x: Double, _ y: Double) -> ValueMap { ["translation": .point(x, y)] }

    static let session: [String] = [
        // Drawer: opens with a right swipe in the sidebar, closes with a left one.
        gesture(
            100, "sidebar", "drawerSwipe", "swipe", "recognized", x: 150, y: 500, extra: ["direction": .string("right")]
        ),
        gesture(
            1000, "sidebar", "drawerSwipe", "swipe", "recognized", x: 150, y: 500, extra: ["direction": .string("left")]
        ),
        // Sidebar scroll: a fling that decelerates.
        gesture(1500, "sidebar", "sidebarPan", "pan", "began", x: 100, y: 800, extra: translation(0, 0)),
        gesture(1550, "sidebar", "sidebarPan", "pan", "changed", x: 100, y: 600, extra: translation(0, -200)),
        gesture(
            1600, "sidebar", "sidebarPan", "pan", "ended", x: 100, y: 500,
            extra: ["translation": .point(0, -300), "velocity": .point(0, -1500)]),
        // Table: pull to refresh, then refresh_done.
        gesture(2000, "table", "tablePan", "pan", "began", x: 400, y: 100, extra: translation(0, 0)),
        gesture(2050, "table", "tablePan", "pan", "changed", x: 400, y: 200, extra: translation(0, 100)),
        gesture(2150, "table", "tablePan", "pan", "changed", x: 400, y: 400, extra: translation(0, 400)),
        gesture(2200, "table", "tablePan", "pan", "ended", x: 400, y: 400, extra: translation(0, 400)),
        #"{"t_ms": 2600, "instance": "refresh1", "command": "refresh_done"}"#,
        // Slide cells: open row 1, then row 4 (row 1 closes).
        gesture(
            3000, "table", "cellSwipe", "swipe", "recognized", x: 400, y: 100, extra: ["direction": .string("right")]),
        gesture(
            3500, "table", "cellSwipe", "swipe", "recognized", x: 400, y: 300, extra: ["direction": .string("right")]),
        // Pager: next page.
        gesture(
            4000, "pager", "pageSwipe", "swipe", "recognized", x: 900, y: 250, extra: ["direction": .string("left")]),
        // Number pad (phone order, keys 92 pt wide from x 680): 3 then 5 within 0.75 s.
        gesture(5000, "keypad", "padDown", "touchDown", "began", x: 910, y: 950),
        gesture(5050, "keypad", "padDown", "touchDown", "ended", x: 910, y: 950),
        gesture(5500, "keypad", "padDown", "touchDown", "began", x: 1094, y: 950),
        gesture(5550, "keypad", "padDown", "touchDown", "ended", x: 1094, y: 950),
        // Canvas: one stroke.
        gesture(6000, "sketch", "ink", "touchDown", "began", x: 1200, y: 620),
        gesture(6016, "sketch", "ink", "touchDown", "changed", x: 1250, y: 650),
        gesture(6032, "sketch", "ink", "touchDown", "ended", x: 1250, y: 650),
        // Zoom view: pinch to 2×.
        gesture(6500, "photo", "photoPinch", "pinch", "began", x: 900, y: 700, touches: 2, extra: ["scale": .int(1)]),
        gesture(6550, "photo", "photoPinch", "pinch", "changed", x: 900, y: 700, touches: 2, extra: ["scale": .int(2)]),
        gesture(6600, "photo", "photoPinch", "pinch", "ended", x: 900, y: 700, touches: 2, extra: ["scale": .int(2)]),
        // Memo board: create a memo, double-tap it open.
        #"{"t_ms": 7000, "instance": "board1", "command": "create", "args": {"text": "牛乳を買う", "x": 40, "y": 50}}"#,
        gesture(7200, "memos", "memoDoubleTap", "doubleTap", "recognized", x: 1300, y: 110),
        // App lifecycle, then offline: the next pull fails fast.
        #"{"t_ms": 8000, "event": "will_resign_active"}"#,
        #"{"t_ms": 8100, "event": "did_become_active"}"#,
        #"{"t_ms": 8200, "connectivity": "none"}"#,
        gesture(8300, "table", "tablePan", "pan", "began", x: 400, y: 100, extra: translation(0, 0)),
        gesture(8350, "table", "tablePan", "pan", "changed", x: 400, y: 400, extra: translation(0, 400)),
        gesture(8400, "table", "tablePan", "pan", "ended", x: 400, y: 400, extra: translation(0, 400)),
        // Malformed lines are counted and skipped.
        "{not json",
        #"{"t_ms": 8500, "recognizer": "pan", "state": "began"}"#,
    ]

    static func replay() throws -> ComponentReplay {
        let scene = ComponentScene(try Scene(json: try Repository.read("deploy/scenes/demo.json"), file: "demo.json"))
        return ComponentReplay(scene: scene, lines: Self.session.joined(separator: "\n"))
    }

    static func states(_ replay: ComponentReplay, _ instance: String) -> [Value] {
        replay.states.map(\.payload).filter { $0["instance"]?.stringValue == instance }
    }

    @Test func replay_everyStateValidatesAgainstItsSchema() throws {
        let replay = try Self.replay()
        #expect(replay.states.count > 50)
        for state in replay.states {
            let validator = try Repository.validator(type(of: state.message).schema.id)
            #expect(validator.violations(of: state.payload).isEmpty, "\(state.payload.json)")
        }
    }

    @Test func replay_isDeterministic() throws {
        #expect(try Self.replay().jsonLines == (try Self.replay().jsonLines))
    }

    @Test func replay_malformedLines_areCountedAndSkipped() throws {
        let replay = try Self.replay()
        #expect(replay.problems.map(\.line) == [Self.session.count - 1, Self.session.count])
    }

    @Test func replay_drawer_opensAnimatesAndClosesAgain() throws {
        let states = Self.states(try Self.replay(), "drawer1")
        #expect(states.contains { $0["open"] == .bool(true) && $0["progress"] == .int(1) && $0["t_ms"] == .int(400) })
        #expect(states.last?["open"] == .bool(false))
        #expect(states.last?["progress"] == .int(0))
        #expect(states.last?["listening_direction"] == .string("right"))
    }

    @Test func replay_sidebarScroll_deceleratesAndComesToRest() throws {
        let states = Self.states(try Self.replay(), "sidebarScroll")
        #expect(states.contains { $0["decelerating"] == .bool(true) })
        let last = try #require(states.last)
        #expect(last["decelerating"] == .bool(false))
        #expect((last["offset"]?["y"]?.doubleValue ?? 0) > 300)
    }

    @Test func replay_pullToRefresh_goesThroughEveryPhaseThenFailsFastOffline() throws {
        let states = Self.states(try Self.replay(), "refresh1")
        var phases: [String] = []
        for phase in states.compactMap({ $0["phase"]?.stringValue }) where phases.last != phase { phases.append(phase) }
        #expect(phases.starts(with: ["hidden", "pullingDown", "overThreshold", "refreshing", "hidden"]))
        #expect(states.contains { $0["phase"] == .string("refreshing") && $0["t_ms"] == .int(2200) })
        let last = try #require(states.last)
        #expect(last["phase"] == .string("hidden"))
        #expect(last["offline"] == .bool(true))
        #expect(last["label"] == .string("オフラインです"))
    }

    @Test func replay_slideTable_endsWithOnlyRow4Open() throws {
        let last = try #require(Self.states(try Self.replay(), "table1").last)
        #expect(last["open_row"] == .int(4))
        let offsets = last["offsets"]?.arrayValue?.compactMap(\.doubleValue) ?? []
        #expect(offsets[4] == 400)
        #expect(offsets.filter { $0 > 0 }.count == 1)
    }

    @Test func replay_pagerNumberPadCanvasAndZoom_endWhereTheSessionLeftThem() throws {
        let replay = try Self.replay()
        #expect(Self.states(replay, "pager1").last?["page"] == .int(1))
        let pad = try #require(Self.states(replay, "pad1").last)
        #expect(pad["touched_string"] == .string("5"))
        #expect(pad["sequential_string"] == .string("35"))
        let touching = Self.states(replay, "pad1").first { $0["t_ms"] == .int(5000) }
        #expect(touching?["popup"]?["kind"] == .string("inner"))
        let canvas = try #require(Self.states(replay, "canvas1").last)
        #expect(
            canvas["strokes"]?.arrayValue?.first?["points"]
                == .array([.array([.int(20), .int(20)]), .array([.int(70), .int(50)])]))
        let zoom = Self.states(replay, "zoom1")
        #expect(zoom.contains { $0["overlay_visible"] == .bool(false) })
        #expect(zoom.last?["scale"] == .int(2))
        #expect(zoom.last?["overlay_visible"] == .bool(true))
    }

    @Test func replay_memoBoard_showsTheNewMemoPendingAndOpenInTheEditor() throws {
        let replay = try Self.replay()
        let last = try #require(Self.states(replay, "board1").last)
        let memos = last["memos"]?.arrayValue ?? []
        #expect(memos.count == 1)
        #expect(memos.first?["text"] == .string("牛乳を買う"))
        #expect(memos.first?["pending"] == .bool(true))
        #expect(last["editing"] == memos.first?["id"])
        #expect(last["background"] == .string("deploy/assets/cork.png"))
        let creates = replay.memoCommands.filter { $0.op == .create }
        #expect(creates.count > 2)
        #expect(Set(creates.map(\.cmdId)).count == 1)
    }
}
