import BusSchema
import ServiceSupport

/// Checks the states given to `render --state` before drawing: each must name an instance of the
/// scene and match its kind's schema (no unknown field: a misspelled one would be silently ignored).
enum StateCheck {
    /// The problems of `states` (by instance) against `scene`, each naming the file and the field.
    static func problems(_ states: [String: Value], scene: Scene, file: String) -> [String] {
        let kinds = scene.componentKinds.mapValues(\.rawValue)
        var problems: [String] = []
        for instance in states.keys.sorted() {
            guard let kind = kinds[instance] else {
                let known = kinds.keys.sorted().joined(separator: ", ")
                problems.append(
                    "\(file): state for instance '\(instance)', which the scene does not have (it has \(known))")
                continue
            }
            guard let path = Tool.checkoutFile("schemas/state.\(kind)/v1.json"),
                let schema = try? JSONReader.parse(String(decoding: try Files.read(path), as: UTF8.self))
            else { continue }
            let state = states[instance]!
            let allowed = Set(schema["properties"]?.mapValue?.keys ?? [])
            for key in state.mapValue?.keys ?? [] where !allowed.contains(key) {
                let near = allowed.min { EditDistance.between(key, $0) < EditDistance.between(key, $1) }
                let hint = near.flatMap { EditDistance.between(key, $0) <= 2 ? " (did you mean '\($0)'?)" : nil } ?? ""
                problems.append("\(file): \(instance): unknown field '\(key)' for a \(kind)\(hint)")
            }
            for violation in SchemaValidator(schema: schema).violations(of: state) {
                problems.append("\(file): \(instance): \(violation)")
            }
        }
        return problems
    }

    /// `states` (checked by ``problems(_:scene:file:)``) decoded into their instances' kinds.
    static func decode(_ states: [String: Value], scene: Scene, file: String) throws -> [String: ComponentState] {
        let kinds = scene.componentKinds
        var decoded: [String: ComponentState] = [:]
        for (instance, state) in states {
            guard let kind = kinds[instance] else { continue }
            do {
                decoded[instance] = try ComponentState(kind: kind, payload: state)
            } catch {
                throw ConfigurationError("\(file): \(instance): \(error)")
            }
        }
        return decoded
    }
}
