import BusSchema
import Testing

@Suite struct SchemaAgreementTests {
    @Test func everySchemaHasExamples() throws {
        #expect(RepositoryFiles.schemaIDs.count >= 20)
        for id in RepositoryFiles.schemaIDs {
            #expect(try !RepositoryFiles.examples(id).isEmpty, "schema \(id) has no examples")
        }
    }

    @Test(arguments: RepositoryFiles.schemaIDs)
    func everyExampleRoundTripsThroughTheCodecUnchanged(_ id: String) throws {
        for (name, example) in try RepositoryFiles.examples(id) {
            let decoded = try Value(messagePack: example.messagePack)
            #expect(decoded == example, "\(id)/\(name)")
            #expect(decoded.json == example.json, "\(id)/\(name)")
        }
    }

    @Test(arguments: RepositoryFiles.schemaIDs)
    func everyExampleValidatesWithTheSwiftValidator(_ id: String) throws {
        let validator = SchemaValidator(schema: try RepositoryFiles.json("\(RepositoryFiles.schemas)/\(id)/v1.json"))
        for (name, example) in try RepositoryFiles.examples(id) {
            #expect(validator.violations(of: example).isEmpty, "\(id)/\(name): \(validator.violations(of: example))")
        }
    }

    @Test(arguments: MessageCatalog.all.map(TypeBox.init))
    func swiftTypesAndSchemasAgreeOnTheMinor(_ box: TypeBox) throws {
        let type = box.type
        let schema = try RepositoryFiles.json("\(RepositoryFiles.schemas)/\(type.schema.id)/v\(type.schema.major).json")
        #expect(schema["x-uibus-minor"]?.intValue == Int64(type.schema.minor), "\(type.schema.id) minor")
    }

    /// The generated types come from their schema (and ``GeneratedCodeTests`` holds them to it);
    /// the hand-written ones list their fields.
    @Test(arguments: MessageCatalog.all.compactMap { $0 as? any HandWrittenMessage.Type }.map(TypeBox.init))
    func handWrittenTypesAndSchemasAgreeFieldByField(_ box: TypeBox) throws {
        let type = try #require(box.type as? any HandWrittenMessage.Type)
        let path = "\(RepositoryFiles.schemas)/\(type.schema.id)/v\(type.schema.major).json"
        let schema = try RepositoryFiles.json(path)
        let properties = try #require(schema["properties"]?.mapValue)
        let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        #expect(Set(type.fields.map(\.name)) == Set(properties.keys), "\(type.schema.id): field names")
        for field in type.fields {
            // A nullable field's type is a list (`["integer", "null"]`); FieldSpec spells it `integer|null`.
            let declared = properties[field.name]?["type"]
            let spelled =
                declared?.stringValue ?? declared?.arrayValue?.compactMap(\.stringValue).joined(separator: "|")
            #expect(spelled == field.type, "\(type.schema.id).\(field.name) type")
            #expect(required.contains(field.name) == field.required, "\(type.schema.id).\(field.name) required")
        }
    }

    @Test(arguments: MessageCatalog.all.map(TypeBox.init))
    func typedMessagesDecodeEveryExampleAndEncodeItBack(_ box: TypeBox) throws {
        for (name, example) in try RepositoryFiles.examples(box.type.schema.id) {
            let reencoded = try box.roundTrip(example.messagePack)
            #expect(Self.sameJSON(reencoded, example), "\(box.type.schema.id)/\(name): \(reencoded.json)")
        }
    }

    @Test func theEnvelopeTypeMatchesItsSchemaAndExamples() throws {
        let schema = try RepositoryFiles.json("\(RepositoryFiles.schemas)/envelope/v1.json")
        #expect(Set(Envelope.fields.map(\.name)) == Set(schema["properties"]?.mapValue?.keys ?? []))
        for (name, example) in try RepositoryFiles.examples("envelope") {
            let bytes = example.messagePack
            let envelope = try bytes.withUnsafeBytes { try Envelope(messagePack: $0) }
            #expect(Self.sameJSON(envelope.value, example), "envelope/\(name)")
        }
    }

    @Test func theValidatorReportsEachViolationWithItsPath() throws {
        let schema = try RepositoryFiles.json("\(RepositoryFiles.schemas)/touch.frame/v1.json")
        let bad = try JSONReader.parse(
            #"{"device":"d0","frame":"1","t_ns":5,"contacts":[{"id":0,"phase":"flying","x":1}]}"#)
        let paths = Set(SchemaValidator(schema: schema).violations(of: bad).map(\.path))
        #expect(paths == ["/frame", "/contacts/0", "/contacts/0/phase"])
    }

    /// JSON equality: maps compare as key sets, numbers by value, a bin as its array of bytes.
    static func sameJSON(_ lhs: Value, _ rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.binary(let bytes), .array), (.array, .binary(let bytes)):
            let asArray = Value.array(bytes.map { .int(Int64($0)) })
            if case .binary = lhs { return Self.sameJSON(asArray, rhs) }
            return Self.sameJSON(lhs, asArray)
        case (.map(let left), .map(let right)):
            return Set(left.keys) == Set(right.keys)
                && left.allSatisfy { key, value in Self.sameJSON(value, right[key]!) }
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { Self.sameJSON($0, $1) }
        default:
            if let left = lhs.doubleValue, let right = rhs.doubleValue { return left == right }
            return lhs == rhs
        }
    }
}

/// A message type as a test argument, with a way to run it through its own codec.
struct TypeBox: Sendable, CustomTestStringConvertible {
    let type: any BusMessage.Type

    var testDescription: String { self.type.schema.id }

    func roundTrip(_ bytes: [UInt8]) throws -> Value {
        try Self.roundTrip(self.type, bytes)
    }

    private static func roundTrip<M: BusMessage>(_ type: M.Type, _ bytes: [UInt8]) throws -> Value {
        try M(messagePack: bytes).value
    }
}
