import BusSchema
import MemoStore
import Testing

@Suite struct StorageFailureTests {
    /// A full database (here a page cap, as a full disk would) rejects the whole batch with
    /// the reason, acks nothing as stored, and the store keeps working afterwards.
    @Test func fullDatabaseRejectsTheBatchAndAcksNothingAsStored() throws {
        let fixture = try StoreFixture()
        do { _ = try fixture.open() }
        var configuration = MemoStoreConfiguration()
        configuration.maximumPageCount = 40
        let store = try fixture.open(configuration)
        var full: MemoApplyResult?
        var stored = 0
        for round in 0..<200 {
            let batch = (0..<10).map { index in
                fixture.command(.create) { $0.text = String(repeating: "東京タワー\(round)-\(index) ", count: 40) }
            }
            let result = store.apply(batch: batch, now: 1)
            if result.storageError != nil {
                full = result
                break
            }
            stored += result.acks.count
        }
        let result = try #require(full)
        #expect(result.storageError?.resultCode == 13)  // SQLITE_FULL
        #expect(result.changes.isEmpty && result.snapshots.isEmpty)
        #expect(result.acks.allSatisfy { $0.message.seq == UInt64(stored) })
        #expect(
            result.acks.allSatisfy {
                $0.message.status == .rejected && $0.message.reason?.hasPrefix("not stored") == true
            })
        #expect(try store.allMemos().count == stored)
        let move = store.run(
            fixture.command(.move) {
                $0.memoId = "m1"
                $0.x = 5
                $0.y = 5
            })
        #expect(move.ack.status == .ok)
        #expect(try MemoCheck.run(path: fixture.path).isSound)
    }
}
