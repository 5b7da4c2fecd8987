import BusSchema
import MessageFixtures
import Testing

@Suite struct MemoMessageTests {
    static let memo = MemoRecord.memo(
        "m1", text: "東京タワー", x: 1.5, y: -2, width: 160, height: 120, z: 3, color: "pink", version: 4
    ) {
        $0.scale = 1.25
        $0.rotation = 0.5
        $0.minimized = true
        $0.trashedAt = 42
        $0.createdAt = 1
        $0.updatedAt = 2
    }

    @Test func everyMemoMessageRoundTripsThroughMessagePack() throws {
        let command = MemoCommand {
            $0.cmdId = "c:1"
            $0.client = "c"
            $0.op = .edit
            $0.memoId = "m1"
            $0.text = "t"
            $0.x = 1
            $0.y = 2
            $0.width = 3
            $0.height = 4
            $0.scale = 5
            $0.rotation = 6
            $0.color = "blue"
            $0.baseVersion = 7
            $0.order = .color
            $0.image = nil
            $0.query = "q"
            $0.includeTrash = true
            $0.format = .mbox
        }
        #expect(try MemoCommand(messagePack: command.messagePack) == command)
        let ack = MemoAck.ack("c:1", .ok, seq: 9) {
            $0.memoId = "m1"
            $0.version = 2
            $0.reason = "r"
            $0.results = [MemoSearchHit(memoId: "m1", text: "abc", trashed: false, ranges: [0..<1, 2..<3])]
            $0.export = "e"
            $0.op = .search
            $0.files = [MemoExportFile(name: "m1.eml", content: "x")]
        }
        #expect(try MemoAck(messagePack: ack.messagePack) == ack)
        let changed = MemoChanged {
            $0.seq = 3
            $0.change = .upsert
            $0.memo = Self.memo
            $0.cmdId = "c:1"
        }
        #expect(try MemoChanged(messagePack: changed.messagePack) == changed)
        let settings = MemoChanged {
            $0.seq = 4
            $0.change = .settings
            $0.settings = MemoSettings {
                $0.arrangeOrder = .text
            }
        }
        #expect(try MemoChanged(messagePack: settings.messagePack) == settings)
        let snapshot = MemoSnapshot.chunk("c:2", seq: 4, memos: [Self.memo]) {
            $0.settings = MemoSettings { $0.background = "cork.png" }
            $0.chunkCount = 1
            $0.memoCount = 1
        }
        #expect(try MemoSnapshot(messagePack: snapshot.messagePack) == snapshot)
    }

    @Test func nullTrashedAtAndBackgroundRoundTrip() throws {
        var memo = Self.memo
        memo.trashedAt = nil
        let changed = MemoChanged {
            $0.seq = 1
            $0.change = .upsert
            $0.memo = memo
        }
        #expect(changed.value["memo"]?["trashed_at"] == .null)
        #expect(try MemoChanged(messagePack: changed.messagePack) == changed)
    }
}
