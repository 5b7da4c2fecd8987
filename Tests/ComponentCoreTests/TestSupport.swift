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

    static func timer(_ effects: [ComponentEffect]) -> Double? {
        effects.compactMap {
            if case .scheduleTimer(let at) = $0 { return at }
            return nil
        }.last
    }

    static func commands(_ effects: [ComponentEffect]) -> [MemoCommand] {
        effects.compactMap {
            if case .sendMemoCommand(let request) = $0 { return request }
            return nil
        }
    }

    static func animations(_ effects: [ComponentEffect]) -> [ComponentAnimation] {
        effects.compactMap {
            if case .startAnimation(let animation) = $0 { return animation }
            return nil
        }
    }
}

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
