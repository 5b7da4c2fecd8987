import BusSchema
import MessageFixtures
import Testing

/// The touch frame decoder has a path specialised to the encoder's key order; whatever the
/// layout, the result must be what the schema says, and bad bytes must fail cleanly.
@Suite struct TouchFrameDecodingTests {
    static let frame = TouchFrame.frame(
        "d0", 77, tNs: 1_000_000_000_123,
        contacts: [
            .contact(0, .moved, x: 120.5, y: 340.25) { $0.pressure = 0.5 },
            .contact(1, .stationary, x: 200, y: 300) {
                $0.pressure = 0.7
                $0.major = 4
                $0.tool = .pen
            },
            .contact(2, .cancelled, x: -3, y: 1e6) { $0.tool = .palm },
        ])

    /// Decodes `value`'s MessagePack into a frame that already holds other contents, as a
    /// subscriber reusing one frame does.
    static func decodeReusing(_ value: Value) throws -> TouchFrame {
        var frame = TouchFrame.frame(
            "another device", 1, tNs: 2,
            contacts: (0..<5).map { id in
                TouchContact.contact(id, .began, x: 9, y: 9) {
                    $0.pressure = 1
                    $0.major = 1
                }
            })
        try value.messagePack.withUnsafeBytes { raw in
            var reader = MessagePackReader(raw)
            try frame.decode(from: &reader)
            try reader.expectEnd()
        }
        return frame
    }

    static func map(_ value: Value) -> [(String, Value)] {
        value.mapValue!.entries.map { ($0.key, $0.value) }
    }

    @Test func encodedFramesDecodeToThemselvesIntoAFreshOrAReusedFrame() throws {
        var generator = SplitMix64(seed: 3)
        for _ in 0..<500 {
            let contacts = (0..<Int(generator.next() % 6)).map { index in
                TouchContact {
                    $0.id = Int(generator.next() % 3) == 0 ? index : index * 1000
                    $0.phase = TouchContact.Phase.allCases[Int(generator.next() % 5)]
                    $0.x = Double(Int64(bitPattern: generator.next()) % 5000) / 7
                    $0.y = Double(generator.next() % 900)
                    $0.pressure = generator.next() % 2 == 0 ? nil : 0.25
                    $0.major = generator.next() % 2 == 0 ? nil : 3
                    $0.tool = generator.next() % 2 == 0 ? nil : TouchContact.Tool.allCases[Int(generator.next() % 3)]
                }
            }
            let frame = TouchFrame {
                $0.device = generator.next() % 4 == 0 ? "d" : "device-\(generator.next() % 3)"
                $0.frame = 1 + generator.next() >> Int(11 + generator.next() % 53)
                $0.tNs = Int64(bitPattern: generator.next() >> 1) >> Int(generator.next() % 64)
                $0.contacts = contacts
            }
            #expect(try TouchFrame(messagePack: frame.messagePack) == frame)
            #expect(try Self.decodeReusing(frame.value) == frame)
        }
    }

    @Test func reorderedKeysDecodeToTheSameFrame() throws {
        let value = Self.frame.value
        var top = Self.map(value)
        top.reverse()
        top = top.map { key, field in
            guard key == "contacts" else { return (key, field) }
            return (key, .array(field.arrayValue!.map { .map(ValueMap(Self.map($0).reversed())) }))
        }
        #expect(try Self.decodeReusing(.map(ValueMap(top))) == Self.frame)
    }

    @Test func missingOptionalKeysLeaveThemNil() throws {
        let contacts: [Value] = [
            .map(["id": .int(4), "phase": .string("began"), "x": .double(1), "y": .double(2)]),
            .map(["id": .int(5), "phase": .string("ended"), "x": .double(1), "y": .double(2), "major": .double(6)]),
            .map([
                "id": .int(6), "phase": .string("moved"), "x": .double(1), "y": .double(2), "tool": .string("finger"),
            ]),
        ]
        let value: Value = .map(
            ["device": .string("d1"), "frame": .int(3), "t_ns": .int(10), "contacts": .array(contacts)])
        let frame = try Self.decodeReusing(value)
        #expect(
            frame.contacts == [
                .contact(4, .began, x: 1, y: 2),
                .contact(5, .ended, x: 1, y: 2) { $0.major = 6 },
                .contact(6, .moved, x: 1, y: 2) { $0.tool = .finger },
            ])
    }

    @Test func unknownExtraKeysAreSkippedAnywhere() throws {
        var top = Self.map(Self.frame.value)
        top.insert(("schema_note", .array([.int(1), .map(["nested": .null])])), at: 2)
        top.append(("later", .string("field")))
        top = top.map { key, field in
            guard key == "contacts" else { return (key, field) }
            return (
                key,
                .array(
                    field.arrayValue!.map {
                        var contact = Self.map($0)
                        contact.insert(("hover", .bool(true)), at: 1)
                        contact.append(("azimuth", .double(0.3)))
                        return .map(ValueMap(contact))
                    })
            )
        }
        #expect(try Self.decodeReusing(.map(ValueMap(top))) == Self.frame)
    }

    @Test func otherNumberFormsDecodeLikeTheEncodersOwn() throws {
        // Integers where floats are written, a small timestamp: valid, just not our layout.
        let value: Value = .map([
            "device": .string("d0"), "frame": .uint(2), "t_ns": .int(5),
            "contacts": .array([
                .map(["id": .int(0), "phase": .string("moved"), "x": .double(1.5), "y": .double(2)]),
                .map(["id": .int(1), "phase": .string("moved"), "x": .int(200), "y": .int(-3), "pressure": .int(1)]),
            ]),
        ])
        let frame = try Self.decodeReusing(value)
        #expect(frame.tNs == 5)
        #expect(
            frame.contacts == [
                .contact(0, .moved, x: 1.5, y: 2),
                .contact(1, .moved, x: 200, y: -3) { $0.pressure = 1 },
            ])
    }

    @Test func everyTruncationFailsWithACodecError() {
        let bytes = Self.frame.messagePack
        for count in 0..<bytes.count {
            #expect(throws: CodecError.self, "\(count) of \(bytes.count) bytes") {
                try TouchFrame(messagePack: Array(bytes[..<count]))
            }
        }
    }

    @Test func badValuesInTheEncodersLayoutAreNamed() throws {
        let good = Self.frame.value
        func replacing(_ field: String, in contact: Int, with replacement: Value) -> Value {
            var top = Self.map(good)
            let index = top.firstIndex { $0.0 == "contacts" }!
            var contacts = top[index].1.arrayValue!
            contacts[contact] = .map(
                ValueMap(Self.map(contacts[contact]).map { $0.0 == field ? ($0.0, replacement) : $0 }))
            top[index].1 = .array(contacts)
            return .map(ValueMap(top))
        }
        let phase = #expect(throws: CodecError.self) {
            try Self.decodeReusing(replacing("phase", in: 1, with: .string("hovering")))
        }
        #expect(phase?.code == .invalidValue)
        #expect(phase?.context.contains("hovering") == true)
        let tool = #expect(throws: CodecError.self) {
            try Self.decodeReusing(replacing("tool", in: 2, with: .string("eraser")))
        }
        #expect(tool?.context.contains("contacts[2].tool") == true)
        // A device name that is not UTF-8, in the encoder's exact layout.
        var bytes = Self.frame.messagePack
        let device = bytes.firstIndex(of: 0xa2)!
        bytes[device + 1] = 0xff
        let utf8 = #expect(throws: CodecError.self) { try TouchFrame(messagePack: bytes) }
        #expect(utf8?.code == .invalidUTF8)
        let missing: Value = .map(["device": .string("d0"), "frame": .int(1), "contacts": .array([])])
        #expect((try? Self.decodeReusing(missing)) == nil)
    }
}
