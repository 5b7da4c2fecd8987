import BusSchema
import Testing

@testable import DemoReport

/// A component's lane follows every message that changes it: a memo board's deltas too, applied
/// to its last full state, so the board's lane does not stall after its first state.
@Suite struct ComponentPhasesTests {
    static let board = """
        {"instance":"board1","t_ms":13000,"selected":null,"arrange_order":"updated","background":null,
         "editing":null,"store_seq":42,"pending_commands":0,"syncing":false,"revision":57,
         "memos":[{"id":"m1","x":24,"y":40,"width":160,"height":120,"scale":1,"rotation":0,"z":1,
                   "color":"yellow","minimized":false,"text":"牛乳","version":3}]}
        """

    static func delta(base: Int, editing: String?, memoID: String) throws -> Value {
        let editing = editing.map { "\"\($0)\"" } ?? "null"
        return try JSONReader.parse(
            """
            {"instance":"board1","t_ms":13016,"revision":\(base + 1),"base_revision":\(base),
             "memos":[{"id":"\(memoID)","x":412.5,"y":96,"width":160,"height":120,"scale":1,"rotation":0,"z":7,
                       "color":"yellow","minimized":false,"text":"卵","version":1}],
             "trash":[],"removed":[],"selected":null,"arrange_order":"created","background":null,
             "editing":\(editing),"store_seq":43,"pending_commands":0,"syncing":false}
            """)
    }

    @Test func aMemoBoardsLaneFollowsItsDeltasAppliedToItsLastFullState() throws {
        var phases = ComponentPhases()
        let topic = "ui/memoBoard/board1/"
        let full = try phases.phase(schema: "state.memoBoard", topic: topic, JSONReader.parse(Self.board))
        #expect(full == .init(component: "memoBoard/board1", phase: "1 memos"))
        let added = phases.phase(
            schema: "memoBoard.delta", topic: topic + "delta/", try Self.delta(base: 57, editing: nil, memoID: "m2"))
        #expect(added == .init(component: "memoBoard/board1", phase: "2 memos"), "the delta's new memo counted")
        let editing = phases.phase(
            schema: "memoBoard.delta", topic: topic + "delta/", try Self.delta(base: 58, editing: "m2", memoID: "m2"))
        #expect(editing == .init(component: "memoBoard/board1", phase: "editing"))
        let stale = phases.phase(
            schema: "memoBoard.delta", topic: topic + "delta/", try Self.delta(base: 40, editing: nil, memoID: "m3"))
        #expect(stale == nil, "a delta for another revision names nothing")
    }

    @Test func otherStatesAreNamedAsTheirPhaseAndOtherMessagesNotAtAll() throws {
        var phases = ComponentPhases()
        let drawer = try phases.phase(
            schema: "state.drawer", topic: "ui/drawer/drawer1/",
            JSONReader.parse(#"{"instance":"drawer1","open":true}"#))
        #expect(drawer == .init(component: "drawer/drawer1", phase: "open"))
        let gesture = phases.phase(schema: "gesture.event", topic: "gesture/d/v/tap/", .map([:]))
        #expect(gesture == nil)
        let malformed = phases.phase(schema: "memoBoard.delta", topic: "ui/memoBoard/b/delta/", .map([:]))
        #expect(malformed == nil)
    }
}
