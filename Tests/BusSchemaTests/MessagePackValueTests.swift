import BusSchema
import Testing

/// The map writer every generated encoder is a call of: a field's type decides whether a nil is
/// left out (an optional field) or written as null (a nullable one), so each case is pinned here.
@Suite struct MessagePackValueTests {
    /// A map of two fields, as a generated type lists its fields.
    private struct Two<A: MessagePackValue, B: MessagePackValue>: MapFields, MessagePackValue {
        var a: (key: StaticString, value: A)
        var b: (key: StaticString, value: B)

        init(_ a: (StaticString, A), _ b: (StaticString, B)) {
            self.a = a
            self.b = b
        }

        func visitFields<Visitor: MapFieldVisitor & ~Copyable>(_ visitor: inout Visitor) {
            visitor.field(self.a.key, self.a.value)
            visitor.field(self.b.key, self.b.value)
        }

        func write(to writer: inout MessagePackWriter) { writer.writeMap(self) }
    }

    private static func written(_ body: (inout MessagePackWriter) -> Void) throws -> Value {
        var writer = MessagePackWriter()
        body(&writer)
        return try Value(messagePack: writer.bytes)
    }

    @Test func anOptionalFieldIsLeftOutWhenNilAndCountedOnlyWhenPresent() throws {
        let absent: Double? = nil
        let present: Double? = 2.5
        let value = try Self.written {
            $0.writeMap(Two(("always", "x"), ("pair", Two(("absent", absent), ("present", present)))))
        }
        #expect(value == .map(["always": .string("x"), "pair": .map(["present": .double(2.5)])]))
    }

    @Test func aNullableFieldIsWrittenAsNullWhenNil() throws {
        let value = try Self.written {
            $0.writeMap(Two(("gone", Nullable(String?.none)), ("here", Nullable(Optional(3)))))
        }
        #expect(value == .map(["gone": .null, "here": .int(3)]))
    }

    @Test func anOptionalNullableFieldWritesItsInnerNullAndLeavesOutItsAbsence() throws {
        let inner: Int?? = .some(nil)
        let outer: Int?? = nil
        let value = try Self.written { $0.writeMap(Two(("inner", inner), ("outer", outer))) }
        #expect(value == .map(["inner": .null]))
    }

    @Test func aFieldAtItsDefaultIsLeftOutOnlyWhereTheSchemaSaysSo() throws {
        let value = try Self.written {
            $0.writeMap(Two(("off", Optional(false, unless: false)), ("on", Optional(true, unless: false))))
        }
        #expect(value == .map(["on": .bool(true)]))
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
