import BusSchema
import Testing

/// The field list every generated type is (``MapFields``): each field kind written and read back,
/// and the decoder's order-independence, unknown keys and missing required fields.
@Suite struct MessagePackValueTests {
    /// One field of each kind a generated type lists.
    private struct Sample: MapFields, MessagePackMap, Hashable {
        var name = ""
        var count = 0
        var note: String?
        var gone: Int?
        var inner: Int??
        var flag = false
        var delay = 0.0
        var x = 0.0
        var y = 0.0

        init() {}

        mutating func visitFields<V: MapFieldVisitor & ~Copyable>(_ visitor: inout V) throws(V.Failure) {
            try visitor.field("name", &self.name, StringRule(length: 1...Int.max))
            try visitor.field("count", &self.count, 0...10)
            try visitor.optional("note", &self.note, .any)
            try visitor.nullable("gone", &self.gone, Int64.min...Int64.max)
            try visitor.optionalNullable("inner", &self.inner, Int64.min...Int64.max)
            try visitor.field("flag", &self.flag, .any, omittedAt: false)
            try visitor.defaulted("delay", &self.delay, .atLeast(0))
            try visitor.flattened("at", "x", &self.x, .finite, "y", &self.y, .finite)
        }
    }

    private static func sample(note: String? = nil, gone: Int? = nil, inner: Int?? = nil, flag: Bool = false) -> Sample
    {
        var sample = Sample()
        sample.name = "a"
        sample.count = 3
        sample.note = note
        sample.gone = gone
        sample.inner = inner
        sample.flag = flag
        sample.x = 1
        sample.y = 2.5
        return sample
    }

    private static func written(_ body: (inout MessagePackWriter) -> Void) throws -> Value {
        var writer = MessagePackWriter()
        body(&writer)
        return try Value(messagePack: writer.bytes)
    }

    private static func decoded(_ body: (inout MessagePackWriter) -> Void) throws -> Sample {
        var writer = MessagePackWriter()
        body(&writer)
        return try Self.read(writer.bytes)
    }

    private static func read(_ bytes: [UInt8]) throws -> Sample {
        try bytes.withUnsafeBytes { raw in
            var reader = MessagePackReader(raw)
            let sample = try Sample(from: &reader, path: "")
            try reader.expectEnd()
            return sample
        }
    }

    @Test func eachFieldKindWritesAsItsSchemaSays() throws {
        let value = try Self.written { $0.writeMap(Self.sample(inner: .some(nil))) }
        // note (optional, nil) and flag (at its omitted default) are left out; gone (nullable) and
        // inner (optional nullable, .some(nil)) are nulls; the header counts what is written.
        let expected: Value = .map([
            "name": .string("a"), "count": .int(3), "gone": .null, "inner": .null, "delay": .int(0),
            "at": .map(["x": .int(1), "y": .double(2.5)]),
        ])
        #expect(value == expected)
        let flagged = try Self.written { $0.writeMap(Self.sample(note: "n", gone: 4, flag: true)) }
        #expect(flagged.mapValue?["note"] == .string("n") && flagged.mapValue?["gone"] == .int(4))
        #expect(flagged.mapValue?["flag"] == .bool(true) && flagged.mapValue?["inner"] == nil)
    }

    @Test func everyFieldKindReadsBackWhatItWrote() throws {
        for sample in [
            Self.sample(), Self.sample(inner: .some(nil)), Self.sample(note: "n", gone: 4, inner: 5, flag: true),
        ] {
            var writer = MessagePackWriter()
            writer.writeMap(sample)
            #expect(try Self.read(writer.bytes) == sample)
        }
    }

    @Test func keysInAnyOrderAndUnknownKeysDecodeAlike() throws {
        let decoded = try Self.decoded {
            $0.writeMapHeader(8)
            $0.write("extra", ["deep": Value.array([.int(1)])] as ValueMap)
            $0.write("at", TwoFields(("y", 2.5), ("x", 1.0)))
            $0.write("inner", 5)
            $0.write("count", 3)
            $0.write("later", "ignored")
            $0.write("gone", Nullable(Int?.none))
            $0.write("name", "a")
            $0.write("count", 3)
        }
        #expect(decoded == Self.sample(inner: 5))
    }

    @Test func aNullReadsAsAbsenceOrDefaultWhereTheFieldIsOptional() throws {
        let decoded = try Self.decoded {
            $0.writeMapHeader(6)
            $0.write("name", "a")
            $0.write("count", 3)
            $0.write("note", Nullable(String?.none))
            $0.write("gone", Nullable(Int?.none))
            $0.write("flag", Nullable(Bool?.none))
            $0.write("at", TwoFields(("x", 1.0), ("y", 2.5)))
        }
        #expect(decoded == Self.sample())
    }

    @Test func aMissingRequiredFieldIsRefusedByName() throws {
        for (missing, name) in [("count", "count"), ("gone", "gone"), ("y", "at.y")] {
            #expect {
                _ = try Self.decoded { writer in
                    writer.writeMapHeader(missing == "y" ? 4 : 3)
                    writer.write("name", "a")
                    if missing != "count" { writer.write("count", 3) }
                    if missing != "gone" { writer.write("gone", 1) }
                    writer.writeKey("at")
                    writer.writeMapHeader(missing == "y" ? 1 : 2)
                    writer.write("x", 1.0)
                    if missing != "y" { writer.write("y", 2.5) }
                }
            } throws: { error in
                (error as? CodecError).map { $0.code == .missingField && $0.context == name } == true
            }
        }
    }

    @Test func aValueOutsideItsRuleIsRefusedByName() throws {
        #expect {
            _ = try Self.decoded {
                $0.writeMapHeader(4)
                $0.write("name", "a")
                $0.write("count", 11)
                $0.write("gone", 1)
                $0.write("at", TwoFields(("x", 1.0), ("y", 2.5)))
            }
        } throws: { error in
            (error as? CodecError).map { $0.code == .invalidValue && $0.context.hasPrefix("count:") } == true
        }
    }

    @Test func valuesWriteAsTheirShapes() throws {
        let value = try Self.written {
            $0.writeMapHeader(6)
            $0.write("numbers", [1.0, 1.5])
            $0.write("enum", GestureEvent.Direction.left)
            $0.write("nested", [GestureEvent.Vector(x: 1, y: 2)])
            $0.write("open", ["k": Value.int(1)] as ValueMap)
            $0.write("big", UInt64.max)
            $0.write("flat", TwoFields(("x", 0.5), ("y", -2.0)))
        }
        let expected: Value = .map([
            "numbers": .array([.int(1), .double(1.5)]), "enum": .string("left"),
            "nested": .array([.map(["x": .int(1), "y": .int(2)])]), "open": .map(["k": .int(1)]),
            "big": .uint(UInt64.max), "flat": .map(["x": .double(0.5), "y": .int(-2)]),
        ])
        #expect(value == expected)
    }
}
