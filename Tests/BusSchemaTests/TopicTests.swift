import BusSchema
import Testing

@Suite struct TopicTests {
    @Test(arguments: ["touch/d0/", "gesture/d0/main/pan/", "sys/health/bus-proxy/", "memo/ack/board/"])
    func wellFormedTopicsAreAccepted(_ text: String) throws {
        #expect(try Topic(text).rawValue == text)
    }

    @Test(arguments: ["", "touch", "touch/d0", "/touch/", "touch//d0/", "touch/d 0/", "touch/\u{7f}/"])
    func malformedTopicsAreRejectedWithTheRule(_ text: String) {
        #expect(Topic.problem(in: text) != nil)
        #expect(throws: CodecError.self) { try Topic(text) }
    }

    @Test func aTrailingSlashKeepsPrefixesExact() throws {
        let d1 = try Topic.touch("d1").rawValue
        #expect(!(try Topic.touch("d10").rawValue.hasPrefix(d1)))
    }
}
