import Testing

@testable import BusSchema

/// The one encoder and decoder every generated type uses (``MessageTable``).
@Suite struct MessageTableTests {
    @Test func aMapWrittenBeforeItsCountGetsTheShortestHeaderAsIfWrittenFirst() {
        for (maximum, count) in [(3, 0), (3, 2), (15, 15), (20, 5), (20, 16), (40, 33)] {
            var writer = MessagePackWriter()
            writer.writeMap(maximumCount: maximum) { writer in
                for index in 0..<count {
                    writer.write(Int64(index))
                    writer.write("value \(index)")
                }
                return count
            }
            var expected = MessagePackWriter()
            expected.writeMapHeader(count)
            for index in 0..<count {
                expected.write(Int64(index))
                expected.write("value \(index)")
            }
            #expect(writer.bytes == expected.bytes, "\(count) pairs of at most \(maximum)")
        }
    }

    @Test func aMissingRequiredFieldIsNamedWithItsPath() throws {
        var writer = MessagePackWriter()
        writer.writeMapHeader(1)
        writer.writeKey("animation")
        writer.writeMapHeader(0)
        #expect {
            _ = try writer.bytes.withUnsafeBytes { raw in
                var reader = MessagePackReader(raw)
                return try TouchInput(from: &reader, path: "input")
            }
        } throws: { error in
            (error as? CodecError)?.code == .missingField && (error as? CodecError)?.context == "input.device"
        }
    }
}
