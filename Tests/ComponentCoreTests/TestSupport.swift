import BusSchema
import ComponentCore
import Foundation

/// Shorthands for the machine tests.
enum Effects {
    static func states(_ effects: [ComponentEffect]) -> [ComponentState] {
        effects.compactMap {
            if case .publishState(let state) = $0 { return state }
            return nil
        }
    }

    /// The instant of the last timer asked for, in ms.
    static func timer(_ effects: [ComponentEffect]) -> Double? {
        effects.compactMap {
            if case .scheduleTimer(let at) = $0 { return at.milliseconds }
            return nil
        }.last
    }

    static func commands(_ effects: [ComponentEffect]) -> [MemoCommand] {
        effects.compactMap {
            if case .sendMemoCommand(let request) = $0 { return request }
            return nil
        }
    }
}

/// The source instant `value` ms after the epoch.
func ms(_ value: Double) -> SourceInstant { SourceInstant(milliseconds: value) }

func vector(_ x: Double, _ y: Double) -> GestureEvent.Vector { GestureEvent.Vector(x: x, y: y) }

/// Paths in the repository, found from this file.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func read(_ relative: String) throws -> String {
        try String(contentsOfFile: "\(Self.root)/\(relative)", encoding: .utf8)
    }

    /// The validator for `schemas/<id>/v1.json`.
    static func validator(_ id: String) throws -> SchemaValidator {
        SchemaValidator(schema: try JSONReader.parse(try Self.read("schemas/\(id)/v1.json")))
    }
}
