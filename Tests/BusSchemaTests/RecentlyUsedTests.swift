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
