import BusSchema
import Testing

/// Test states written as JSON, decoded as the render worker decodes them: each into the kind
/// of its instance's component in the scene.
enum TypedStates {
    static func decode(_ payloads: [String: Value], scene: Scene) throws -> [String: ComponentState] {
        let kinds = scene.componentKinds
        return try payloads.mapValues { payload in
            let instance = payload["instance"]?.stringValue ?? ""
            return try ComponentState(kind: try #require(kinds[instance]), payload: payload)
        }
    }
}
