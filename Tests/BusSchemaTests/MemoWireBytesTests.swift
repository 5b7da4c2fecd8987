import BusSchema
import MessageFixtures
import Testing

/// The memo store's messages keep their bytes: clients of other languages read them, and a memo's
/// geometry goes out as float64 even when it is a whole number (`x: 40` as `cb 40 44 00 …`).
@Suite struct MemoWireBytesTests {
    static let memo = MemoRecord.memo(
        "m1", text: "milk", x: 40, y: 60.5, width: 200, height: 120, z: 3, color: "yellow", version: 2
    ) {
        $0.rotation = -0.25
        $0.createdAt = 1_700_000_000_000
        $0.updatedAt = 1_700_000_000_500
    }

    /// Written by the hand-written encoders these types had before they were generated.
    static let changedBytes = [
        "85a373657107a66368616e6765a6757073657274a46d656d6f8fa26964a26d31a474657874a46d696c6ba178cb4044000000",
        "000000a179cb404e400000000000a57769647468cb4069000000000000a6686569676874cb405e000000000000a57363616c",
        "65cb3ff0000000000000a8726f746174696f6ecbbfd0000000000000a17a03a5636f6c6f72a679656c6c6f77a96d696e696d",
        "697a6564c2aa747261736865645f6174c0aa637265617465645f6174cf0000018bcfe56800aa757064617465645f6174cf00",
        "00018bcfe569f4a776657273696f6e02a873657474696e677382ad617272616e67655f6f72646572a5636f6c6f72aa626163",
        "6b67726f756e64c0a6636d645f6964aa626f617264313a313a32",
    ].joined()
    static let snapshotBytes = [
        "88aa726571756573745f6964aa626f617264313a313a31a56368756e6b00a46c617374c3a373657107a56d656d6f73928fa2",
        "6964a26d31a474657874a46d696c6ba178cb4044000000000000a179cb404e400000000000a57769647468cb406900000000",
        "0000a6686569676874cb405e000000000000a57363616c65cb3ff0000000000000a8726f746174696f6ecbbfd00000000000",
        "00a17a03a5636f6c6f72a679656c6c6f77a96d696e696d697a6564c2aa747261736865645f6174c0aa637265617465645f61",
        "74cf0000018bcfe56800aa757064617465645f6174cf0000018bcfe569f4a776657273696f6e028fa26964a26d31a4746578",
        "74a46d696c6ba178cb4044000000000000a179cb404e400000000000a57769647468cb4069000000000000a6686569676874",
        "cb405e000000000000a57363616c65cb3ff0000000000000a8726f746174696f6ecbbfd0000000000000a17a03a5636f6c6f",
        "72a679656c6c6f77a96d696e696d697a6564c2aa747261736865645f6174cf0000018bcfe56be8aa637265617465645f6174",
        "cf0000018bcfe56800aa757064617465645f6174cf0000018bcfe569f4a776657273696f6e02a873657474696e677382ad61",
        "7272616e67655f6f72646572a763726561746564aa6261636b67726f756e64c0ab6368756e6b5f636f756e7401aa6d656d6f",
        "5f636f756e7402",
    ].joined()

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0\(String($0, radix: 16))" : String($0, radix: 16) }.joined()
    }

    @Test func aChangedMemoIsEncodedByteForByteAsBefore() throws {
        let changed = MemoChanged {
            $0.seq = 7
            $0.change = .upsert
            $0.memo = Self.memo
            $0.settings = MemoSettings {
                $0.arrangeOrder = .color
                $0.background = nil
            }
            $0.cmdId = "board1:1:2"
        }
        #expect(Self.hex(changed.messagePack) == Self.changedBytes)
        #expect(try MemoChanged(messagePack: changed.messagePack) == changed)
    }

    @Test func aSnapshotChunkIsEncodedByteForByteAsBefore() throws {
        var trashed = Self.memo
        trashed.trashedAt = 1_700_000_001_000
        let snapshot = MemoSnapshot.chunk("board1:1:1", seq: 7, memos: [Self.memo, trashed]) {
            $0.chunkCount = 1
            $0.memoCount = 2
        }
        #expect(Self.hex(snapshot.messagePack) == Self.snapshotBytes)
        #expect(try MemoSnapshot(messagePack: snapshot.messagePack) == snapshot)
    }
}
