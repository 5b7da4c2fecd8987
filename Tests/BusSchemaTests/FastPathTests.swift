import BusSchema
import Testing

/// The codec's fast paths must behave exactly like the slow ones they replace.
@Suite struct FastPathTests {
    @Test func aWriterHandedOnKeepsItsBytesAndResetKeepsItsCapacity() throws {
        var original = MessagePackWriter(capacity: 16)
        original.write("moved")
        var moved = consume original
        moved.write(Int64(2))
        #expect(try Value(messagePack: Array(moved.bytes.suffix(1))) == .int(2))
        #expect(moved.count == 7)
        moved.reset()
        moved.write(Int64(3))
        #expect(moved.bytes == [3])
    }

    @Test func aWriterGrowsPastItsFirstCapacityAndKeepsEveryByte() throws {
        var writer = MessagePackWriter(capacity: 16)
        let value = Value.array((0..<1000).map { .string("item \($0)") })
        writer.write(value)
        #expect(try Value(messagePack: writer.bytes) == value)
        writer.reset()
        #expect(writer.count == 0)
    }

    @Test func keysMatchStaticStringsByteForByte() throws {
        var writer = MessagePackWriter()
        writer.writeMapHeader(3)
        for key: StaticString in ["device", "devices", "dev"] {
            writer.writeKey(key)
            writer.writeNil()
        }
        var matched: [String] = []
        try writer.withUnsafeBytes { raw in
            var reader = MessagePackReader(raw)
            try reader.readMap { reader, key in
                switch key {
                case "device": matched.append("device")
                case "dev": matched.append("dev")
                default: matched.append("other:\(key)")
                }
                try reader.skip()
            }
        }
        #expect(matched == ["device", "other:devices", "dev"])
    }

    @Test func nonASCIIStringsAreValidatedAndInvalidOnesRejected() throws {
        let japanese = "指をはなすと更新"
        #expect(try Value(messagePack: Value.string(japanese).messagePack) == .string(japanese))
        // A lone continuation byte after valid ASCII.
        #expect(throws: CodecError.self) { try Value(messagePack: [0xa3, 0x61, 0x62, 0x80]) }
        [UInt8]("abc".utf8).withUnsafeBytes { #expect(String(validatedUTF8: $0) == "abc") }
        [UInt8]([0xe3, 0x81]).withUnsafeBytes { #expect(String(validatedUTF8: $0) == nil) }
    }

    @Test func topicValidationOnBytesAgreesWithTheRules() {
        for (text, valid) in [("a/b/", true), ("a//", false), ("a/b", false), ("/a/", false), ("a\u{1}/", false)] {
            var text = text
            let problem = text.withUTF8 { Topic.problem(inUTF8: UnsafeRawBufferPointer($0)) }
            #expect((problem == nil) == valid, "\(text)")
        }
    }
}
