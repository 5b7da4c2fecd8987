import BusSchema
import Foundation
import Testing

/// The repository's `schemas/` directory (or `$UIBUS_SCHEMAS`), if present.
private let schemasDirectory: String? = {
    if let path = ProcessInfo.processInfo.environment["UIBUS_SCHEMAS"] { return path }
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("schemas").path
    return FileManager.default.fileExists(atPath: path + "/memo.command/v1.json") ? path : nil
}()

private let memoMessages: [any BusMessage.Type] = [
    MemoCommand.self, MemoAck.self, MemoChanged.self, MemoSnapshot.self,
]

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

    @Test(.enabled(if: schemasDirectory != nil))
    func fieldsMatchTheJSONSchemas() throws {
        for type in memoMessages {
            let text = try String(
                contentsOfFile: "\(schemasDirectory!)/\(type.schema.id)/v\(type.schema.major).json", encoding: .utf8)
            let schema = try JSONReader.parse(text)
            let properties = try #require(schema["properties"]?.mapValue)
            let required = Set((schema["required"]?.arrayValue ?? []).compactMap(\.stringValue))
            #expect(Set(properties.keys) == Set(type.fields.map(\.name)), "\(type.schema)")
            #expect(required == Set(type.fields.filter(\.required).map(\.name)), "\(type.schema)")
            for field in type.fields {
                let declared = properties[field.name]?["type"]
                let types = declared?.arrayValue?.compactMap(\.stringValue) ?? [declared?.stringValue ?? ""]
                #expect(types.contains(field.type), "\(type.schema).\(field.name)")
            }
        }
    }

    @Test(.enabled(if: schemasDirectory != nil))
    func everySchemaExampleDecodesAndReEncodesItsFields() throws {
        for type in memoMessages {
            let directory = "\(schemasDirectory!)/\(type.schema.id)/examples"
            for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
                let example = try JSONReader.parse(String(contentsOfFile: directory + "/" + name, encoding: .utf8))
                let message = try type.init(messagePack: example.messagePack)
                let reencoded = message.value
                for (key, value) in try #require(example.mapValue) {
                    #expect(Self.sameNumbers(reencoded[key], value), "\(type.schema) \(name) \(key)")
                }
            }
        }
    }

    /// Equal, treating `1` and `1.0` alike (numbers re-encode as doubles).
    private static func sameNumbers(_ lhs: Value?, _ rhs: Value?) -> Bool {
        switch (lhs, rhs) {
        case (.some(.map(let left)), .some(.map(let right))):
            return left.count == right.count && right.allSatisfy { Self.sameNumbers(left[$0.key], $0.value) }
        case (.some(.array(let left)), .some(.array(let right))):
            return left.count == right.count && zip(left, right).allSatisfy { Self.sameNumbers($0, $1) }
        default:
            if let left = lhs?.doubleValue, let right = rhs?.doubleValue { return left == right }
            return lhs == rhs
        }
    }
}
