extension Scene {
    /// View ids, component ids and recognizer names are each unique in the scene.
    func checkIDs() throws(SceneError) {
        var views: [String: Int] = [:]
        var components: [String: Int] = [:]
        var recognizers: Set<String> = []
        for (index, view) in self.views.enumerated() {
            if let first = views[view.id] {
                throw SceneError(
                    path: "$.views[\(index)].id", rule: .uniqueID,
                    "view id '\(view.id)' is also used at $.views[\(first)]")
            }
            views[view.id] = index
            if let component = view.component {
                if let first = components[component.id] {
                    throw SceneError(
                        path: "$.views[\(index)].component.id", rule: .uniqueID,
                        "component id '\(component.id)' is also used at $.views[\(first)].component")
                }
                components[component.id] = index
            }
            for (recognizerIndex, recognizer) in view.recognizers.enumerated()
            where !recognizers.insert(recognizer.name).inserted {
                throw SceneError(
                    path: "$.views[\(index)].recognizers[\(recognizerIndex)].name", rule: .uniqueID,
                    "recognizer name '\(recognizer.name)' is used twice")
            }
        }
    }

    /// Every reference names something that exists, and parents form no cycle.
    func checkReferences() throws(SceneError) {
        let viewIDs = Set(self.views.map(\.id))
        let names = Set(self.views.flatMap { $0.recognizers.map(\.name) })
        var kinds: [String: Component.Kind] = [:]
        for view in self.views { if let component = view.component { kinds[component.id] = component.kind } }
        let parents = Dictionary(self.views.map { ($0.id, $0.parent) }, uniquingKeysWith: { first, _ in first })
        for (index, view) in self.views.enumerated() {
            let path = "$.views[\(index)]"
            if let parent = view.parent {
                guard viewIDs.contains(parent) else {
                    throw SceneError(path: "\(path).parent", rule: .reference, "no view has id '\(parent)'")
                }
                var seen: Set<String> = [view.id]
                var next: String? = parent
                while let current = next {
                    guard seen.insert(current).inserted else {
                        throw SceneError(
                            path: "\(path).parent", rule: .reference, "view '\(view.id)' is its own ancestor")
                    }
                    next = parents[current] ?? nil
                }
            }
            for (recognizerIndex, recognizer) in view.recognizers.enumerated() {
                let recognizerPath = "\(path).recognizers[\(recognizerIndex)]"
                for (key, list) in [
                    ("require_to_fail", recognizer.requireToFail), ("simultaneous_with", recognizer.simultaneousWith),
                ] {
                    for (nameIndex, name) in list.enumerated() where !names.contains(name) {
                        throw SceneError(
                            path: "\(recognizerPath).\(key)[\(nameIndex)]", rule: .reference,
                            "no recognizer is named '\(name)'")
                    }
                }
                for (targetIndex, target) in (recognizer.targets ?? []).enumerated() where kinds[target] == nil {
                    throw SceneError(
                        path: "\(recognizerPath).targets[\(targetIndex)]", rule: .reference,
                        "no component has id '\(target)'")
                }
            }
            try Self.checkConfigReferences(view, path: "\(path).component.config", viewIDs: viewIDs, kinds: kinds)
        }
    }

    private static func checkConfigReferences(
        _ view: View, path: String, viewIDs: Set<String>, kinds: [String: Component.Kind]
    ) throws(SceneError) {
        switch view.component?.config {
        case .pullToRefresh(let pull)?:
            if let scroll = pull.scrollView, !viewIDs.contains(scroll) {
                throw SceneError(path: "\(path).scroll_view", rule: .reference, "no view has id '\(scroll)'")
            }
        case .canvas(let canvas)?:
            if let zoom = canvas.zoomView, kinds[zoom] != .zoomView {
                throw SceneError(path: "\(path).zoom_view", rule: .reference, "no zoomView component has id '\(zoom)'")
            }
        case .zoomView(let zoom)?:
            for (index, overlay) in zoom.overlays.enumerated() where !viewIDs.contains(overlay) {
                throw SceneError(path: "\(path).overlays[\(index)]", rule: .reference, "no view has id '\(overlay)'")
            }
        default:
            break
        }
    }
}
