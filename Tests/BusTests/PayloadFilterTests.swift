import BusSchema
import BusTools
import Testing

@Suite struct PayloadFilterTests {
    static let tap: Value = .map([
        "kind": .string("tap"), "x": .double(120.5), "taps": .int(2), "ok": .bool(true),
        "contacts": .array([.map(["id": .int(3), "phase": .string("began")])]),
    ])

    @Test(arguments: [
        ("kind == \"tap\"", true), ("kind == 'pan'", false), ("kind != \"pan\"", true),
        ("x > 100", true), ("x >= 120.5", true), ("x < 100", false), ("taps <= 2", true),
        ("taps == 2.0", true), ("kind == \"tap\" and x > 100", true), ("kind == \"pan\" or taps == 2", true),
        ("not kind == \"tap\"", false), ("(kind == \"pan\" or x > 100) and taps == 2", true),
        ("contacts.0.phase == \"began\"", true), ("contacts[0].id == 3", true), ("missing == 1", false),
        ("missing != 1", true), ("ok", true), ("missing", false), ("kind > \"ta\"", true), ("ok == true", true),
        ("kind == 1", false), ("a or b and c", false),
    ])
    func expressionsCompareFieldsOfThePayload(_ expression: String, _ expected: Bool) throws {
        #expect(try PayloadFilter(expression).matches(Self.tap) == expected, "\(expression)")
    }

    @Test func andBindsTighterThanOr() throws {
        #expect(
            try PayloadFilter("kind == \"tap\" or x < 0 and taps == 9")
                == .any([
                    .compare(try FieldPath("kind"), .equal, .string("tap")),
                    .all([
                        .compare(try FieldPath("x"), .less, .int(0)),
                        .compare(try FieldPath("taps"), .equal, .int(9)),
                    ]),
                ]))
    }

    @Test(arguments: [
        ("x >", "expected a value"), ("x = 1", "not an operator"), ("and x", "expected a field"),
        ("(x > 1", "expected ')'"), ("kind == \"tap", "never closed"), ("x > 1 y", "unexpected y"),
        ("x == pan", "expected a value"), ("", "expected a field"),
    ])
    func malformedExpressionsAreRefusedWithWhereAndWhy(_ expression: String, _ reason: String) {
        #expect {
            try PayloadFilter(expression)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func aFieldPathReadsNestedMapsAndArrays() throws {
        #expect(try FieldPath("contacts.0.id").value(in: Self.tap) == .int(3))
        #expect(try FieldPath("contacts.1.id").value(in: Self.tap) == nil)
        #expect(try FieldPath("x.y").value(in: Self.tap) == nil)
        #expect(throws: ToolError.self) { try FieldPath("a..b") }
    }
}
