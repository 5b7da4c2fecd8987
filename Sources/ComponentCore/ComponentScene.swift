import BusSchema
import GestureCore

/// The part of a scene (schema `scene` v1) the component host needs: the components the views
/// host with their settings, and which component instances get each recognizer's events.
public struct ComponentScene: Sendable {
    /// Component kinds; each one's state schema is `state.<kind>`.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case scrollView, pullToRefresh, pager, slideTable, drawer, numberPad, canvas, zoomView, memoBoard
    }

    /// One component hosted by a view.
    public struct Component: Sendable {
        public var kind: Kind
        public var instance: String
        public var view: GestureScene.View
        /// The `config` object (an empty map when absent).
        public var config: Value
        /// Where it sits in the file, e.g. `views[3].component`.
        public var path: String
        /// For a pull-to-refresh header: the frame of the scroll view whose pan drives it
        /// (`scroll_view`, else the parent view).
        public var scrollFrame: Rect?
    }

    /// The views, frames and recognizers, as the gesture recognizer loads them.
    public var gesture: GestureScene
    public var components: [Component]
    /// Component instances that receive each recognizer's events, by recognizer name.
    public var targets: [String: [String]]
    /// Recognizer names by view id and kind, for events that carry no name.
    public var recognizerNames: [String: [GestureEvent.Kind: String]]

    /// Loads and checks a scene file.
    ///
    /// - Parameter file: the file name errors name.
    /// - Throws: ``ComponentSceneError`` naming the file and the field: anything the gesture
    ///   recognizer rejects, an unknown component kind, a duplicate instance id, a target or view
    ///   reference that names nothing, or a bad setting.
    public static func load(json text: String, file: String) throws(ComponentSceneError) -> ComponentScene {
        let gesture: GestureScene
        let root: Value
        do {
            gesture = try GestureScene.load(json: text)
            root = try JSONReader.parse(text)
        } catch let error as SceneError {
            throw ComponentSceneError(file: file, error)
        } catch {
            throw ComponentSceneError(file: file, SceneError(.invalidJSON, field: "$", "\(error)"))
        }
        do {
            return try Self.components(root, gesture: gesture)
        } catch {
            throw ComponentSceneError(file: file, error)
        }
    }

    private static func components(_ root: Value, gesture: GestureScene) throws(SceneError) -> ComponentScene {
        let viewsByID = Dictionary(gesture.views.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var components: [Component] = []
        var instances: [String: String] = [:]
        var targets: [String: [String]] = [:]
        var recognizerNames: [String: [GestureEvent.Kind: String]] = [:]
        var targetPaths: [(path: String, instance: String)] = []
        for (index, viewValue) in (root["views"]?.arrayValue ?? []).enumerated() {
            let path = "views[\(index)]"
            guard let viewID = viewValue["id"]?.stringValue, let view = viewsByID[viewID] else { continue }
            var own: String?
            if let component = viewValue["component"], component != .null {
                let parsed = try Self.component(component, view: view, path: "\(path).component")
                if let previous = instances[parsed.instance] {
                    throw SceneError(
                        .badReference, field: "\(path).component.id",
                        "instance id '\(parsed.instance)' is also used at \(previous)")
                }
                instances[parsed.instance] = parsed.path
                components.append(parsed)
                own = parsed.instance
            }
            for (recognizerIndex, recognizer) in (viewValue["recognizers"]?.arrayValue ?? []).enumerated() {
                guard let name = recognizer["name"]?.stringValue,
                    let kind = recognizer["kind"]?.stringValue.flatMap(GestureEvent.Kind.init(rawValue:))
                else { continue }
                let recognizerPath = "\(path).recognizers[\(recognizerIndex)].targets"
                var list: [String] = []
                if let explicit = recognizer["targets"], explicit != .null {
                    guard let array = explicit.arrayValue else {
                        throw SceneError(.invalidValue, field: recognizerPath, "expected an array of instance ids")
                    }
                    for (targetIndex, target) in array.enumerated() {
                        guard let instance = target.stringValue else {
                            throw SceneError(
                                .invalidValue, field: "\(recognizerPath)[\(targetIndex)]", "expected a string")
                        }
                        list.append(instance)
                        targetPaths.append(("\(recognizerPath)[\(targetIndex)]", instance))
                    }
                } else if let own {
                    list = [own]
                }
                targets[name] = list
                recognizerNames[viewID, default: [:]][kind] = recognizerNames[viewID]?[kind] ?? name
            }
        }
        for (path, instance) in targetPaths where instances[instance] == nil {
            throw SceneError(.badReference, field: path, "no component has id '\(instance)'")
        }
        for index in components.indices where components[index].kind == .pullToRefresh {
            let view = components[index].config["scroll_view"]?.stringValue ?? components[index].view.parent
            components[index].scrollFrame = view.flatMap { viewsByID[$0]?.frame }
        }
        let scene = ComponentScene(
            gesture: gesture, components: components, targets: targets, recognizerNames: recognizerNames)
        try scene.checkConfigReferences(viewIDs: Set(viewsByID.keys), instances: instances)
        return scene
    }

    private static func component(
        _ value: Value, view: GestureScene.View, path: String
    ) throws(SceneError) -> Component {
        guard value.mapValue != nil else { throw SceneError(.invalidValue, field: path, "expected an object") }
        guard let kindName = value["kind"] else {
            throw SceneError(.missingField, field: "\(path).kind", "required field is missing")
        }
        guard let name = kindName.stringValue, let kind = Kind(rawValue: name) else {
            throw SceneError(
                .invalidValue, field: "\(path).kind",
                "unknown component kind \(kindName.json); known: \(Kind.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        guard let instanceValue = value["id"] else {
            throw SceneError(.missingField, field: "\(path).id", "required field is missing")
        }
        guard let instance = instanceValue.stringValue, !instance.isEmpty, !instance.contains("/") else {
            throw SceneError(.invalidValue, field: "\(path).id", "expected a non-empty id without '/'")
        }
        let config = value["config"] ?? .map([:])
        guard config.mapValue != nil else {
            throw SceneError(.invalidValue, field: "\(path).config", "expected an object")
        }
        let component = Component(
            kind: kind, instance: instance, view: view, config: config, path: path, scrollFrame: nil)
        _ = try ComponentInstance(component)
        return component
    }

    private func checkConfigReferences(viewIDs: Set<String>, instances: [String: String]) throws(SceneError) {
        for component in self.components {
            let config = ConfigReader(component.config, path: "\(component.path).config")
            if let view = try config.optionalString("scroll_view"), !viewIDs.contains(view) {
                throw SceneError(.badReference, field: "\(config.path).scroll_view", "no view has id '\(view)'")
            }
            if let zoom = try config.optionalString("zoom_view"), instances[zoom] == nil {
                throw SceneError(.badReference, field: "\(config.path).zoom_view", "no component has id '\(zoom)'")
            }
            for (index, overlay) in (try config.optionalStrings("overlays") ?? []).enumerated()
            where !viewIDs.contains(overlay) {
                throw SceneError(
                    .badReference, field: "\(config.path).overlays[\(index)]", "no view has id '\(overlay)'")
            }
        }
    }
}

/// A scene the component host cannot run, naming the file and the field.
public struct ComponentSceneError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var error: SceneError

    public init(file: String, _ error: SceneError) {
        self.file = file
        self.error = error
    }

    public var description: String { "\(self.file): \(self.error)" }
}
