import BusSchema
import Testing

@Suite struct JSONTests {
    @Test func documentsRoundTripWithKeyOrderKept() throws {
        let text = #"{"b":1,"a":[true,false,null],"c":{"z":-2.5,"y":"é\n\"q\""},"d":18446744073709551615}"#
        let value = try JSONReader.parse(text)
        #expect(value.json == text)
        #expect(value["d"] == .uint(UInt64.max))
    }

    @Test func escapesAndSurrogatePairsDecode() throws {
        let value = try JSONReader.parse(#""\u3042\ud83d\ude00\t\/""#)
        #expect(value == .string("あ😀\t/"))
    }

    @Test func controlCharactersAreEscapedOnOutput() {
        #expect(Value.string("a\u{01}b").json == #""a\u0001b""#)
    }

    @Test(arguments: [
        ("", "truncated"), ("{", "truncated"), ("[1,]", "invalid_byte"), ("{\"a\" 1}", "invalid_byte"),
        ("01", "trailing_bytes"), ("1.", "truncated"), ("1.x", "invalid_byte"), ("tru", "invalid_byte"),
        ("\"\\x\"", "invalid_byte"),
        ("\"\\ud800\"", "invalid_value"), ("1e999", "invalid_value"), ("[1] x", "trailing_bytes"),
    ])
    func malformedDocumentsNameTheProblem(_ text: String, _ code: String) {
        let error = #expect(throws: CodecError.self) { try JSONReader.parse(text) }
        #expect(error?.code.rawValue == code)
    }

    @Test func errorsGiveTheByteOffset() {
        let error = #expect(throws: CodecError.self) { try JSONReader.parse(#"{"a": [1, 2, ?]}"#) }
        #expect(error?.offset == 13)
    }

    @Test func numbersKeepIntegerAndFloatApart() throws {
        #expect(try JSONReader.parse("42") == .int(42))
        #expect(try JSONReader.parse("-7") == .int(-7))
        #expect(try JSONReader.parse("1.5") == .double(1.5))
        #expect(try JSONReader.parse("2e3") == .double(2000))
    }
}
