import BusSchema
import Testing

@Suite struct EnvelopeDecoderTests {
    static func encoded(_ envelope: Envelope) -> [UInt8] {
        var writer = MessagePackWriter()
        envelope.encode(to: &writer)
        return writer.bytes
    }

    static func envelope(publisher: String = "p", schema: String = "touch.frame", seq: UInt64) -> Envelope {
        Envelope(
            schema: SchemaID(schema, major: 1), publisher: publisher, epoch: 77, seq: seq, mono: seq * 10,
            wall: seq * 100)
    }

    @Test func repeatedHeadersDecodeExactlyAsTheGeneralDecoderDoes() throws {
        var decoder = EnvelopeDecoder()
        for seq in 1...50 as ClosedRange<UInt64> {
            let bytes = Self.encoded(Self.envelope(seq: seq))
            let fast = try bytes.withUnsafeBytes { try decoder.decode($0) }
            let general = try bytes.withUnsafeBytes { try Envelope(messagePack: $0) }
            #expect(fast == general)
            #expect(fast.seq == seq && fast.mono == seq * 10 && fast.wall == seq * 100)
        }
    }

    @Test func anotherPublisherOrSchemaIsNeverMistakenForTheCachedOne() throws {
        var decoder = EnvelopeDecoder()
        let headers = [
            Self.envelope(seq: 1), Self.envelope(publisher: "q", seq: 2), Self.envelope(schema: "health", seq: 3),
            Self.envelope(seq: 4),
        ]
        for header in headers {
            let decoded = try Self.encoded(header).withUnsafeBytes { try decoder.decode($0) }
            #expect(decoded == header)
        }
    }

    @Test func interleavedPublishersBeyondTheCacheStillDecodeExactly() throws {
        var decoder = EnvelopeDecoder()
        // More publishers than prefixes kept, taking turns: hits, misses and evictions all happen.
        let publishers = (0...EnvelopeDecoder.capacity).map { "publisher-\($0)" }
        for seq in 1...40 as ClosedRange<UInt64> {
            for publisher in publishers.prefix(Int(seq) % publishers.count + 1) {
                let header = Self.envelope(publisher: publisher, seq: seq)
                let decoded = try Self.encoded(header).withUnsafeBytes { try decoder.decode($0) }
                #expect(decoded == header)
            }
        }
    }

    @Test func headersFromOtherEncodersTakeTheGeneralPath() throws {
        var decoder = EnvelopeDecoder()
        _ = try Self.encoded(Self.envelope(seq: 1)).withUnsafeBytes { try decoder.decode($0) }
        // Shortest-form integers, as msgpack in Python writes them: same fields, different layout.
        let value: Value = .map([
            "v": .int(1), "schema": .string("touch.frame"), "major": .int(1), "minor": .int(0), "pub": .string("p"),
            "epoch": .int(77), "seq": .int(2), "mono": .int(20), "wall": .int(200),
        ])
        let decoded = try value.messagePack.withUnsafeBytes { try decoder.decode($0) }
        #expect(decoded == Self.envelope(seq: 2))
    }

    @Test func aDamagedTailIsNotReadFromTheCache() throws {
        var decoder = EnvelopeDecoder()
        _ = try Self.encoded(Self.envelope(seq: 1)).withUnsafeBytes { try decoder.decode($0) }
        var bytes = Self.encoded(Self.envelope(seq: 2))
        bytes[bytes.count - Envelope.tailSize + 4] = 0xc1  // the seq marker
        #expect(throws: CodecError.self) { try bytes.withUnsafeBytes { try decoder.decode($0) } }
    }
}
