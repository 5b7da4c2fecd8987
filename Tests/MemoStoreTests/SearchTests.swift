import BusSchema
import MemoStore
import Testing

@Suite struct SearchTests {
    private func store(_ texts: [String]) throws -> (StoreFixture, MemoStore) {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        for text in texts { _ = store.create(fixture, text: text) }
        return (fixture, store)
    }

    @Test func threeOrMoreCharactersUseTheTrigramIndexAndReportOriginalRanges() throws {
        let (_, store) = try self.store(["明日の会議は東京タワーで行います", "大阪"])
        let hits = try store.search("東京タワー", includeTrash: false)
        #expect(hits.map(\.memoId) == ["m1"])
        #expect(hits.first?.ranges == [6..<11])
    }

    @Test func hiraganaQueryFindsKatakanaAndHalfWidthKatakana() throws {
        let (_, store) = try self.store(["トウキョウへ行く", "ﾄｳｷｮｳ駅", "とうきょう"])
        let hits = try store.search("とうきょう", includeTrash: false)
        #expect(Set(hits.map(\.memoId)) == ["m1", "m2", "m3"])
        let halfWidth = try #require(hits.first { $0.memoId == "m2" })
        #expect(halfWidth.ranges == [0..<5])
    }

    @Test func halfWidthVoicedKatakanaMapsBackToBothScalars() throws {
        let (_, store) = try self.store(["ｶﾞｽ代"])
        let hits = try store.search("がす", includeTrash: false)
        #expect(hits.first?.ranges == [0..<3])
    }

    @Test func fullWidthAndASCIIFindEachOtherIgnoringCase() throws {
        let (_, store) = try self.store(["ＡＢＣ商事", "abc corp", "xyz"])
        #expect(try store.search("abc", includeTrash: false).map(\.memoId) == ["m2", "m1"])
        #expect(try store.search("ＡＢＣ", includeTrash: false).map(\.memoId) == ["m2", "m1"])
        #expect(try store.search("aBc", includeTrash: false).first { $0.memoId == "m1" }?.ranges == [0..<3])
    }

    @Test func twoCharacterJapaneseQueryFallsBackToAScan() throws {
        let (_, store) = try self.store(["明日の会議は東京で行います", "京都"])
        let hits = try store.search("東京", includeTrash: false)
        #expect(hits.map(\.memoId) == ["m1"])
        #expect(hits.first?.ranges == [6..<8])
    }

    @Test func oneCharacterQueryFindsEveryOccurrence() throws {
        let (_, store) = try self.store(["京都と東京", "大阪"])
        let hits = try store.search("京", includeTrash: false)
        #expect(hits.first?.ranges == [0..<1, 4..<5])
    }

    @Test func trashIsSearchedOnlyWhenAsked() throws {
        let (fixture, store) = try self.store(["買い物メモ", "古いメモ"])
        _ = store.run(fixture.command(.trash) { $0.memoId = "m2" })
        #expect(try store.search("メモ", includeTrash: false).map(\.memoId) == ["m1"])
        let both = try store.search("メモ", includeTrash: true)
        #expect(both.map(\.memoId) == ["m1", "m2"])
        #expect(both.map(\.trashed) == [false, true])
    }

    @Test func searchCommandDefaultsToBoardAndTrash() throws {
        let (fixture, store) = try self.store(["古いメモ"])
        _ = store.run(fixture.command(.trash) { $0.memoId = "m1" })
        let ack = store.run(fixture.command(.search) { $0.query = "古いメモ" }).ack
        #expect(ack.results?.map(\.trashed) == [true])
    }

    @Test func editedTextIsFoundAndOldTextIsNot() throws {
        let (fixture, store) = try self.store(["りんご"])
        _ = store.run(
            fixture.command(.edit) {
                $0.memoId = "m1"
                $0.text = "みかんジュース"
                $0.baseVersion = 1
            })
        #expect(try store.search("りんご", includeTrash: true).isEmpty)
        #expect(try store.search("じゅーす", includeTrash: true).map(\.memoId) == ["m1"])
    }

    @Test func queryWithQuotesAndOperatorsIsTakenLiterally() throws {
        let (_, store) = try self.store(["say \"hi\" AND bye", "hi"])
        #expect(try store.search("\"hi\" AND", includeTrash: false).map(\.memoId) == ["m1"])
        #expect(try store.search("*", includeTrash: false).isEmpty)
    }

    @Test func emptyQueryIsRejected() throws {
        let (fixture, store) = try self.store(["a"])
        #expect(store.run(fixture.command(.search) { $0.query = "" }).ack.status == .rejected)
    }

    @Test func rangesCountUnicodeScalarsNotUTF16() throws {
        let (_, store) = try self.store(["😀😀東京タワー"])
        #expect(try store.search("東京タ", includeTrash: false).first?.ranges == [2..<5])
    }

    @Test func trigramCandidatesWithoutTheWholeStringAreNotHits() throws {
        let (_, store) = try self.store(["abca cab", "xabcabx"])
        #expect(try store.search("abcab", includeTrash: false).map(\.memoId) == ["m2"])
    }

    @Test func limitCountsExactHits() throws {
        let fixture = try StoreFixture()
        var configuration = MemoStoreConfiguration()
        configuration.searchLimit = 2
        let store = try fixture.open(configuration)
        for text in ["東京タワー1", "東京タワー2", "東京 タワー", "東京タワー3"] { _ = store.create(fixture, text: text) }
        #expect(try store.search("東京タワー", includeTrash: false).map(\.text) == ["東京タワー3", "東京タワー2"])
    }
}
