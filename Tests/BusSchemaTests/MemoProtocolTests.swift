import BusSchema
import MessageFixtures
import Testing

/// The memo protocol's edges: client names that can be a topic segment, and answers too large
/// for one message split into parts and put back together.
@Suite struct MemoProtocolTests {
    @Test(arguments: ["board1", "render-worker", "web-3f.a_b", "c", String(repeating: "z", count: 64)])
    func aTopicSafeClientNameIsAccepted(name: String) {
        #expect(MemoClientName.problem(name) == nil)
        #expect(MemoClientName.ackTopic(for: name) == "memo/ack/\(name)/")
    }

    @Test(arguments: ["", " ", "a b", String(repeating: "z", count: 65), "c\u{0}1", "a/b", "_invalid", ".", "über"])
    func aClientNameThatIsNoTopicSegmentIsRefusedAndAnsweredOnTheReservedTopic(name: String) {
        #expect(MemoClientName.problem(name) != nil)
        #expect(MemoClientName.ackTopic(for: name) == "memo/ack/_invalid/")
    }

    @Test func aLargeExportIsSplitIntoPartsUnderTheLimitThatReassembleExactly() throws {
        // Three-byte kanji and four-byte emoji: no part may cut a scalar in two.
        let text = String(repeating: "東京タワー🗼 memo\n", count: 40_000)
        let ack = MemoAck.ack("c:1", .ok, seq: 9) {
            $0.export = text
            $0.op = .export
        }
        let parts = ack.chunked(maximumBytes: 64 * 1024)
        #expect(parts.count > 10)
        for part in parts {
            #expect(part.messagePack.count <= 64 * 1024)
            #expect(part.cmdId == "c:1" && part.status == .ok && part.chunks == parts.count)
            // Each part survives the wire on its own.
            #expect(try MemoAck(messagePack: part.messagePack) == part)
        }
        #expect(MemoAck.reassembled(parts.reversed()) == ack)
        #expect(MemoAck.reassembled(Array(parts.dropLast())) == nil)
    }

    @Test func emlFilesAndSearchResultsAreSplitBetweenItems() throws {
        let files = (0..<50).map { MemoExportFile(name: "m\($0).eml", content: String(repeating: "あ", count: 10_000)) }
        let export = MemoAck.ack("c:2", .ok, seq: 1) {
            $0.op = .export
            $0.files = files
        }
        let fileParts = export.chunked(maximumBytes: 100_000)
        #expect(fileParts.count > 1 && fileParts.allSatisfy { $0.messagePack.count <= 100_000 })
        #expect(MemoAck.reassembled(fileParts) == export)
        let hits = (0..<200).map {
            MemoSearchHit(memoId: "m\($0)", text: String(repeating: "牛乳", count: 2000), trashed: false, ranges: [0..<2])
        }
        let search = MemoAck.ack("c:3", .ok, seq: 1) {
            $0.results = hits
            $0.op = .search
        }
        let hitParts = search.chunked(maximumBytes: 256 * 1024)
        #expect(hitParts.count > 1 && hitParts.allSatisfy { $0.messagePack.count <= 256 * 1024 })
        #expect(MemoAck.reassembled(hitParts) == search)
    }

    @Test func aSmallAckIsOnePartWithoutChunkNumbers() {
        let ack = MemoAck.ack("c:1", .ok, seq: 1) {
            $0.export = "short"
            $0.op = .export
        }
        #expect(ack.chunked(maximumBytes: 1024) == [ack])
    }

    @Test(arguments: [(5, 5), (-1, 2), (0, 0)])
    func chunkNumbersOutOfRangeAreRefusedByTheDecoder(chunk: Int, chunks: Int) {
        var ack = MemoAck.ack("c:1", .ok, seq: 1)
        ack.chunk = chunk
        ack.chunks = chunks
        #expect(throws: CodecError.self) { try MemoAck(messagePack: ack.messagePack) }
    }
}
