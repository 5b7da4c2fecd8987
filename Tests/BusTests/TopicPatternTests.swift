import BusTools
import Testing

@Suite struct TopicPatternTests {
    @Test func aPatternWithoutWildcardsIsAPrefixAsASubscriptionIs() throws {
        let pattern = try TopicPattern("touch")
        #expect(pattern.subscription == "touch/")
        #expect(pattern.matches("touch/d0/"))
        #expect(!pattern.matches("touchy/d0/"))
        #expect(try TopicPattern("").matches("anything/at/all/"))
    }

    @Test func aStarIsExactlyOneLevel() throws {
        let pattern = try TopicPattern("gesture/*/screen/tap/")
        #expect(pattern.subscription == "gesture/")
        #expect(pattern.matches("gesture/d0/screen/tap/"))
        #expect(!pattern.matches("gesture/d0/screen/tap/extra/"))
        #expect(!pattern.matches("gesture/screen/tap/"))
        #expect(!pattern.matches("gesture/d0/list/tap/"))
    }

    @Test func aDoubleStarIsAnyDepthIncludingNone() throws {
        let pattern = try TopicPattern("ui/**/state/")
        #expect(pattern.matches("ui/state/"))
        #expect(pattern.matches("ui/drawer/state/"))
        #expect(pattern.matches("ui/a/b/c/state/"))
        #expect(!pattern.matches("ui/a/b/"))
        #expect(try TopicPattern("sys/**").matches("sys/health/bus-proxy/"))
        #expect(try TopicPattern("**/tap/").matches("gesture/d0/screen/tap/"))
        #expect(try TopicPattern("**/tap/").subscription == "")
    }

    @Test func aWildcardInsideALevelIsRefused() {
        #expect(throws: ToolError.self) { try TopicPattern("ges*/") }
    }
}
