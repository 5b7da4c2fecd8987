import BusSchema
import Testing

@Suite struct RecentlyUsedTests {
    @Test func aKeptKeyIsFoundAndAnUnknownOneIsNot() {
        var recent = RecentlyUsed<String, Int>(capacity: 3)
        recent.remember("a/", 1)
        recent.remember("b/", 2)
        #expect(recent.value(for: "b/") == 2)
        #expect(recent.value(for: "a/") == 1)
        #expect(recent.value(for: "c/") == nil)
    }

    @Test func whenFullANewKeyReplacesTheOneKeptLongest() {
        var recent = RecentlyUsed<String, Int>(capacity: 3)
        for (index, key) in ["a/", "b/", "c/", "d/", "e/"].enumerated() { recent.remember(key, index) }
        #expect(recent.value(for: "a/") == nil)
        #expect(recent.value(for: "b/") == nil)
        #expect([recent.value(for: "c/"), recent.value(for: "d/"), recent.value(for: "e/")] == [2, 3, 4])
    }

    @Test func theKeyFoundLastIsTriedFirstButAnyMatchingKeyIsStillFound() {
        var recent = RecentlyUsed<Int, String>(capacity: 4)
        for key in 0..<4 { recent.remember(key, "v\(key)") }
        var tried: [Int] = []
        _ = recent.first {
            tried.append($0)
            return $0 == 2
        }
        #expect(tried == [0, 1, 2])
        tried = []
        #expect(
            recent.first {
                tried.append($0)
                return $0 == 2
            } == "v2")
        #expect(tried == [2])
        tried = []
        #expect(
            recent.first {
                tried.append($0)
                return $0 == 1
            } == "v1")
        #expect(tried == [2, 0, 1])
    }

    @Test func aKeyKeepsItsSlotUntilAnotherKeyIsPutThere() {
        var recent = RecentlyUsed<String, Int>(capacity: 2)
        let a = recent.remember("a/", 1)
        let b = recent.remember("b/", 2)
        #expect(a != b)
        #expect(recent.slot { $0 == "b/" } == b)
        #expect(recent.slot { $0 == "a/" } == a)
        #expect(recent.value(inSlot: a) == 1)
        #expect(recent.remember("c/", 3) == a)
        #expect(recent.slot { $0 == "a/" } == nil)
        #expect(recent.slot { $0 == "c/" } == a)
        #expect(recent.value(inSlot: a) == 3)
    }

    @Test func aKeyReplacedWhileItWasTheLastFoundIsNotFoundAgain() {
        var recent = RecentlyUsed<String, Int>(capacity: 2)
        recent.remember("a/", 1)
        recent.remember("b/", 2)
        #expect(recent.value(for: "a/") == 1)
        recent.remember("c/", 3)
        #expect(recent.value(for: "a/") == nil)
        #expect(recent.value(for: "c/") == 3)
    }

    @Test func forgettingEverythingLeavesNothingToFind() {
        var recent = RecentlyUsed<String, Int>(capacity: 2)
        recent.remember("a/", 1)
        #expect(recent.value(for: "a/") == 1)
        recent.removeAll()
        #expect(recent.value(for: "a/") == nil)
        recent.remember("b/", 2)
        #expect(recent.value(for: "b/") == 2)
    }
}

@Suite struct RecentlyUsedDictionaryTests {
    @Test func aKeyGetsItsValueMadeOnceAndKeptEvenAfterItLeavesTheRecentOnes() {
        var dictionary = RecentlyUsedDictionary<String, Int>(recentCapacity: 2)
        var made = 0
        func value(_ key: String) -> Int {
            dictionary.value(for: key) {
                made += 1
                return made * 10
            }
        }
        #expect(
            [value("a/"), value("b/"), value("c/"), value("a/"), value("b/"), value("c/")] == [10, 20, 30, 10, 20, 30])
        #expect(made == 3)
        #expect(dictionary.all == ["a/": 10, "b/": 20, "c/": 30])
    }

    @Test func aValueThatCannotBeMadeKeepsNothing() {
        struct Refused: Error {}
        var dictionary = RecentlyUsedDictionary<String, Int>()
        #expect(throws: Refused.self) { try dictionary.value(for: "bad") { throw Refused() } }
        #expect(dictionary.all.isEmpty)
        #expect(dictionary.value(for: "bad") { 7 } == 7)
    }
}
