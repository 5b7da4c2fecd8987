import BusSchema
import RenderService
import Testing

/// The render worker follows the memo store's change stream and resyncs by snapshot.
@Suite struct RenderSceneMemoSyncTests {
    static func change(_ seq: Int, _ kind: String, _ id: String) throws -> Value {
        try JSONReader.parse(#"{"seq": \#(seq), "change": "\#(kind)", "memo": \#(RenderSceneTests.memo(id))}"#)
    }

    static func chunk(_ request: String, _ index: Int, last: Bool, seq: Int, _ ids: [String]) throws -> Value {
        let memos = ids.map { RenderSceneTests.memo($0) }.joined(separator: ",")
        return try JSONReader.parse(
            #"{"request_id": "\#(request)", "chunk": \#(index), "last": \#(last), "seq": \#(seq), "memos": [\#(memos)], "settings": {}}"#
        )
    }

    /// A scene that has been in step with store epoch 1 up to seq 2, holding m1 and m2.
    static func syncedScene() throws -> RenderScene {
        var scene = RenderScene(scene: try Scene(value: RenderSceneTests.scene), snapshotPrefix: "rw")
        let request = scene.requestMemoSnapshot()
        #expect(
            try scene.receiveMemoSnapshot(try Self.chunk(request, 0, last: true, seq: 2, ["m1", "m2"]), epoch: 1) == nil
        )
        #expect(scene.pendingMemoSnapshot == nil)
        return scene
    }

    @Test func changesInSequenceNeedNoSnapshot() throws {
        var scene = try Self.syncedScene()
        #expect(try scene.receiveMemoChange(try Self.change(3, "upsert", "m3"), epoch: 1) == nil)
        #expect(try scene.receiveMemoChange(try Self.change(3, "delete", "m3"), epoch: 1) == nil, "a repeat is skipped")
        #expect(try RenderSceneTests.memoLayers(scene).map(\.name) == ["m1", "m2", "m3"])
    }

    @Test func aNewStoreEpochAsksForASnapshotThatReplacesTheMemos() throws {
        var scene = try Self.syncedScene()
        // The store restarted: its seq goes on from the database, the epoch is new.
        let request = try #require(try scene.receiveMemoChange(try Self.change(5, "upsert", "m5"), epoch: 2))
        #expect(scene.pendingMemoSnapshot == request)
        #expect(try RenderSceneTests.memoLayers(scene).map(\.name) == ["m1", "m2", "m5"], "drawn while waiting")
        #expect(try scene.receiveMemoChange(try Self.change(6, "upsert", "m6"), epoch: 2) == nil, "one request")
        // m1 was deleted while the worker was not listening; the snapshot reflects seq 5.
        _ = try scene.receiveMemoSnapshot(try Self.chunk(request, 0, last: false, seq: 5, ["m2"]), epoch: 2)
        #expect(scene.pendingMemoSnapshot == request)
        _ = try scene.receiveMemoSnapshot(try Self.chunk(request, 1, last: true, seq: 5, ["m5"]), epoch: 2)
        #expect(scene.pendingMemoSnapshot == nil)
        #expect(try RenderSceneTests.memoLayers(scene).map(\.name) == ["m2", "m5", "m6"], "seq 6 replayed on top")
        #expect(try scene.receiveMemoChange(try Self.change(7, "delete", "m2"), epoch: 2) == nil, "in step again")
    }

    @Test func aGapAsksForASnapshot() throws {
        var scene = try Self.syncedScene()
        #expect(try scene.receiveMemoChange(try Self.change(4, "upsert", "m4"), epoch: 1) != nil)
    }

    @Test func chunksOutOfOrderAskAgainAndChunksOfOldRequestsAreIgnored() throws {
        var scene = RenderScene(scene: try Scene(value: RenderSceneTests.scene), snapshotPrefix: "rw")
        let first = scene.requestMemoSnapshot()
        let second = try #require(
            try scene.receiveMemoSnapshot(try Self.chunk(first, 1, last: true, seq: 1, ["m1"]), epoch: 1))
        #expect(second != first)
        #expect(try scene.receiveMemoSnapshot(try Self.chunk(first, 0, last: true, seq: 1, ["m1"]), epoch: 1) == nil)
        #expect(scene.pendingMemoSnapshot == second)
        #expect(try RenderSceneTests.memoLayers(scene).isEmpty)
    }
}
