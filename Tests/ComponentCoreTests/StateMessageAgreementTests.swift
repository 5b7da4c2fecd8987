import BusSchema
import Foundation
import Testing

/// The state messages against their schemas, field by field, reading a nullable type
/// (`["integer", "null"]`) as `integer|null` — the spelling their ``FieldSpec``s use.
@Suite struct StateMessageAgreementTests {
    static let types: [any ValueMessage.Type] = [
        ScrollViewState.self, PullToRefreshState.self, PagerState.self, SlideTableState.self, DrawerState.self,
        NumberPadState.self, CanvasState.self, ZoomViewState.self, MemoBoardState.self, ComponentCommand.self,
    ]

    @Test func stateMessages_agreeWithTheirSchemasFieldByField() throws {
        for type in Self.types {
            let schema = try JSONReader.parse(
                try Repository.read("schemas/\(type.schema.id)/v\(type.schema.major).json"))
            let properties = try #require(schema["properties"]?.mapValue)
            let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            #expect(Set(type.fields.map(\.name)) == Set(properties.keys), "\(type.schema.id): field names")
            for field in type.fields {
                let declared = properties[field.name]?["type"]
                let name =
                    declared?.stringValue ?? declared?.arrayValue?.compactMap(\.stringValue).joined(separator: "|")
                #expect(name == field.type, "\(type.schema.id).\(field.name) type")
                #expect(required.contains(field.name) == field.required, "\(type.schema.id).\(field.name) required")
            }
            #expect(schema["x-uibus-minor"]?.intValue == Int64(type.schema.minor), "\(type.schema.id) minor")
        }
    }

    @Test func stateMessages_decodeEveryExampleAndEncodeItBackUnchanged() throws {
        for type in Self.types {
            let directory = "schemas/\(type.schema.id)/examples"
            for name in try Self.exampleNames(directory) {
                let example = try JSONReader.parse(try Repository.read("\(directory)/\(name)"))
                let back = try type.init(payload: example).payload
                #expect(Self.sameJSON(back, example), "\(directory)/\(name): \(back.json)")
            }
        }
    }

    /// JSON equality: maps compare as key sets (order is free), numbers by value.
    static func sameJSON(_ lhs: Value, _ rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.map(let left), .map(let right)):
            return Set(left.keys) == Set(right.keys)
                && left.allSatisfy { key, value in right[key].map { Self.sameJSON(value, $0) } ?? false }
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { Self.sameJSON($0, $1) }
        default:
            if let left = lhs.doubleValue, let right = rhs.doubleValue { return left == right }
            return lhs == rhs
        }
    }

    static func exampleNames(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "\(Repository.root)/\(directory)").filter {
            $0.hasSuffix(".json")
        }
        .sorted()
    }
}
