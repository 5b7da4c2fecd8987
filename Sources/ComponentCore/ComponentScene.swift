import BusSchema
import GestureCore

/// What the component host runs of a scene: the components the views host with their settings,
/// and which component instances get each recognizer's events.
public struct ComponentScene: Sendable {
    /// Component kinds; each one's state schema is `state.<kind>`.
    public typealias Kind = Scene.Component.Kind

    /// One component hosted by a view.
    public struct Component: Sendable {
        public var instance: String
        public var view: Scene.View
        /// Its settings, checked and with defaults filled in.
        public var config: Scene.Config
        /// For a pull-to-refresh header: the frame of the scroll view whose pan drives it
        /// (`scroll_view`, else the parent view).
        public var scrollFrame: Scene.Frame?

        public var kind: Kind { self.config.kind }
    }

    /// The scene it was built from.
    public var scene: Scene
    /// The views, frames and recognizers, as the gesture recognizer runs them.
    public var gesture: GestureScene
    public var components: [Component]
    /// Component instances that receive each recognizer's events, by recognizer name.
    public var targets: [String: [String]]
    /// Recognizer names by view id and kind, for events that carry no name.
    public var recognizerNames: [String: [GestureEvent.Kind: String]]

    /// The host's reading of a scene (checked when it was parsed).
    public init(_ scene: Scene) {
        self.scene = scene
        self.gesture = GestureScene(scene)
        self.components = []
        self.targets = [:]
        self.recognizerNames = [:]
        for view in scene.views {
            if let component = view.component {
                var hosted = Component(
                    instance: component.id, view: view, config: component.config, scrollFrame: nil)
                if case .pullToRefresh(let pull) = component.config {
                    hosted.scrollFrame = pull.scrollView.flatMap { scene.view($0)?.frame }
                }
                self.components.append(hosted)
            }
            for recognizer in view.recognizers {
                self.targets[recognizer.name] = recognizer.targets ?? view.component.map { [$0.id] } ?? []
                self.recognizerNames[view.id, default: [:]][recognizer.kind] =
                    self.recognizerNames[view.id]?[recognizer.kind] ?? recognizer.name
            }
        }
    }
}
