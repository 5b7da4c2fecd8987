import BusSchema
import Testing

@Suite struct MemoMessageTests {
    static let memo = MemoRecord(
        id: "m1", text: "東京タワー", x: 1.5, y: -2, width: 160, height: 120, scale: 1.25, rotation: 0.5, z: 3,
        color: "pink", minimized: true, trashedAt: 42, createdAt: 1, updatedAt: 2, version: 4)

    @Test func everyMemoMessageRoundTripsThroughMessagePack() throws {
        let command = MemoCommand(
            cmdId: "c:1", client: "c", op: .edit, memoId: "m1", text: "t", x: 1, y: 2, width: 3, height: 4,
            scale: 5, rotation: 6, color: "blue", baseVersion: 7, order: .color, image: nil, query: "q",
            includeTrash: true, format: .mbox)
        #expect(try MemoCommand(messagePack: command.messagePack) == command)
        let ack = MemoAck(
            cmdId: "c:1", status: .ok, seq: 9, memoId: "m1", version: 2, reason: "r",
            results: [MemoSearchHit(memoId: "m1", text: "abc", trashed: false, ranges: [0..<1, 2..<3])],
            export: "e", op: .search, files: [MemoExportFile(name: "m1.eml", content: "x")])
        #expect(try MemoAck(messagePack: ack.messagePack) == ack)
        let changed = MemoChanged(seq: 3, change: .upsert, memo: Self.memo, cmdId: "c:1")
        #expect(try MemoChanged(messagePack: changed.messagePack) == changed)
        let settings = MemoChanged(seq: 4, change: .settings, settings: MemoSettings(arrangeOrder: .text))
        #expect(try MemoChanged(messagePack: settings.messagePack) == settings)
        let snapshot = MemoSnapshot(
            requestId: "c:2", chunk: 0, last: true, seq: 4, memos: [Self.memo],
            settings: MemoSettings(background: "cork.png"), chunkCount: 1, memoCount: 1)
        #expect(try MemoSnapshot(messagePack: snapshot.messagePack) == snapshot)
    }

    @Test func nullTrashedAtAndBackgroundRoundTrip() throws {
        var memo = Self.memo
        memo.trashedAt = nil
        let changed = MemoChanged(seq: 1, change: .upsert, memo: memo)
        #expect(changed.value["memo"]?["trashed_at"] == .null)
        #expect(try MemoChanged(messagePack: changed.messagePack) == changed)
    }
}
