import BusSchema
import MessageFixtures
import Testing

@Suite struct MessagePackTests {
    static let samples: [Value] = [
        .null, .bool(true), .bool(false), .int(0), .int(127), .int(128), .int(255), .int(256), .int(65_535),
        .int(65_536), .int(Int64(UInt32.max)), .int(Int64(UInt32.max) + 1), .int(Int64.max), .int(-1), .int(-32),
        .int(-33), .int(-128), .int(-129), .int(-32_768), .int(-32_769), .int(Int64(Int32.min)),
        .int(Int64(Int32.min) - 1), .int(Int64.min), .uint(UInt64.max), .double(1.5), .double(-0.25),
        .double(1e300), .string(""), .string("引き下げて…"), .string(String(repeating: "a", count: 31)),
        .string(String(repeating: "b", count: 32)), .string(String(repeating: "c", count: 256)),
        .string(String(repeating: "d", count: 70_000)), .binary([1, 2, 3]),
        .binary([UInt8](repeating: 7, count: 300)), .array([]), .array((0..<16).map { .int($0) }),
        .array((0..<70_000).map { _ in .null }), .map(["a": .int(1), "b": .array([.string("x")])]),
        .map(ValueMap((0..<20).map { ("k\($0)", .int(Int64($0))) })),
    ]

    @Test(arguments: samples)
    func everyValueRoundTripsUnchanged(_ value: Value) throws {
        #expect(try Value(messagePack: value.messagePack) == value)
    }

    @Test func integersUseTheShortestEncoding() {
        #expect(Value.int(5).messagePack == [0x05])
        #expect(Value.int(-5).messagePack == [0xfb])
        #expect(Value.int(200).messagePack == [0xcc, 200])
        #expect(Value.int(-100).messagePack == [0xd0, 0x9c])
        #expect(Value.int(1000).messagePack == [0xcd, 0x03, 0xe8])
    }

    @Test func numbersWrittenAsOneArrayAreTheBytesOfEachWrittenAlone() throws {
        let values: [Double] = [
            0, -0.0, 1, -1, 127, 128, -33, 65_536, 1.5, -0.25, 9.0e15, -9.0e15, 8.9e15, 1e300, .nan, .infinity,
            -.infinity, Double(Int64.max), .leastNonzeroMagnitude,
        ]
        var batched = MessagePackWriter(capacity: 1)
        batched.writeNumbers(values)
        var oneByOne = MessagePackWriter()
        oneByOne.writeArrayHeader(values.count)
        for value in values { oneByOne.writeNumber(value) }
        #expect(batched.bytes == oneByOne.bytes)
        guard case .array(let decoded) = try Value(messagePack: batched.bytes) else {
            Issue.record("not an array")
            return
        }
        #expect(decoded.count == values.count)
        #expect(decoded[0] == .int(0) && decoded[8] == .double(1.5) && decoded[11] == .double(-9.0e15))
    }

    @Test func truncatedInputIsAnErrorAtItsOffset() {
        let bytes = Value.map(["text": .string("hello")]).messagePack
        for length in 0..<bytes.count {
            #expect(throws: CodecError.self) { try Value(messagePack: Array(bytes.prefix(length))) }
        }
    }

    @Test func aLyingLengthIsRejectedWithoutAllocating() {
        // An array header claiming 4 billion elements in a five-byte message.
        let error = #expect(throws: CodecError.self) { try Value(messagePack: [0xdd, 0xff, 0xff, 0xff, 0xff]) }
        #expect(error?.code == .truncated)
    }

    @Test func unusedTypeBytesAreRejected() {
        let error = #expect(throws: CodecError.self) { try Value(messagePack: [0xc1]) }
        #expect(error?.code == .invalidByte)
        #expect(error?.offset == 0)
    }

    @Test func invalidUTF8IsRejected() {
        let error = #expect(throws: CodecError.self) { try Value(messagePack: [0xa2, 0xff, 0xfe]) }
        #expect(error?.code == .invalidUTF8)
    }

    @Test func nonStringMapKeysAreRejected() {
        let error = #expect(throws: CodecError.self) { try Value(messagePack: [0x81, 0x01, 0x02]) }
        #expect(error?.code == .nonStringKey)
    }

    @Test func nestingDeeperThanTheLimitIsRejected() {
        let bytes = [UInt8](repeating: 0x91, count: 100) + [0xc0]
        let error = #expect(throws: CodecError.self) { try Value(messagePack: bytes) }
        #expect(error?.code == .tooDeep)
    }

    @Test func trailingBytesAreRejected() {
        let error = #expect(throws: CodecError.self) { try Value(messagePack: [0x01, 0x02]) }
        #expect(error?.code == .trailingBytes)
        #expect(error?.offset == 1)
    }

    @Test func skippingAcceptsAndRefusesExactlyWhatReadingDoesAndStopsAtTheSameByte() {
        func outcome(_ bytes: [UInt8], _ body: (inout MessagePackReader) throws -> Void) -> String {
            bytes.withUnsafeBytes { raw in
                var reader = MessagePackReader(raw)
                do {
                    try body(&reader)
                    return "ok at \(reader.offset)"
                } catch let error as CodecError {
                    return "\(error.code) at \(error.offset)"
                } catch {
                    return "\(error)"
                }
            }
        }
        var inputs =
            Self.samples.map(\.messagePack) + [
                [0xc1], [0xa2, 0xff, 0xfe], [0x81, 0x01, 0x02], [UInt8](repeating: 0x91, count: 100) + [0xc0],
                [0xdd, 0xff, 0xff, 0xff, 0xff],
            ]
        var generator = SplitMix64(seed: 11)
        let nested = Value.map([
            "a": .array([.string("é"), .binary([1, 2]), .map(["k": .double(1.5), "n": .null]), .uint(UInt64.max)])
        ]).messagePack
        for _ in 0..<20_000 {
            var bytes = nested
            for _ in 0..<(1 + generator.next() % 3) {
                bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            inputs.append(bytes)
        }
        let disagreements = inputs.filter { bytes in
            outcome(bytes) { try $0.skip() } != outcome(bytes) { _ = try $0.readValue() }
        }
        #expect(disagreements.isEmpty, "first: \(disagreements.first ?? [])")
    }

    @Test func randomBytesNeverCrashTheDecoder() {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 40)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            _ = try? Value(messagePack: bytes)
            _ = try? TouchFrame(messagePack: bytes)
            _ = try? bytes.withUnsafeBytes { try Envelope(messagePack: $0) }
        }
    }

    @Test func mutatedValidFramesNeverCrashTheTypedDecoders() {
        var generator = SplitMix64(seed: 7)
        let frame = TouchFrame.frame(
            "d0", 9, tNs: 123,
            contacts: [
                .contact(1, .moved, x: 1, y: 2) {
                    $0.pressure = 0.5
                    $0.major = 3
                    $0.tool = .finger
                }
            ])
        let valid = frame.messagePack
        for _ in 0..<20_000 {
            var bytes = valid
            for _ in 0..<(1 + generator.next() % 3) {
                bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            _ = try? TouchFrame(messagePack: bytes)
        }
    }
}
