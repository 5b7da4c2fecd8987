import BusSchema

/// What the gesture recognizer runs of a ``Scene``: the screen size, the views
/// with their frames and stacking, and the recognizers attached to each view with their settings
/// and relationships.
public struct GestureScene: Sendable, Hashable {
    public struct View: Sendable, Hashable {
        public var id: String
        public var frame: Rect
        /// The enclosing view: touches delivered to a view also reach its ancestors' recognizers.
        public var parent: String?
        /// Stacking order, higher on top; ties keep array order.
        public var z: Int
        public var recognizers: [Recognizer]

        public init(id: String, frame: Rect, parent: String? = nil, z: Int = 0, recognizers: [Recognizer] = []) {
            self.id = id
            self.frame = frame
            self.parent = parent
            self.z = z
            self.recognizers = recognizers
        }
    }

    /// A recognizer as the scene declares it (its `targets` and `enabled` are the host's and the loader's).
    public typealias Recognizer = Scene.Recognizer

    public var width: Double
    public var height: Double
    /// Back to front.
    public var views: [View]
    /// Every pair of recognizers may recognize together (the no-scene default).
    public var allSimultaneous: Bool

    public init(width: Double, height: Double, views: [View], allSimultaneous: Bool = false) {
        self.width = width
        self.height = height
        self.views = views
        self.allSimultaneous = allSimultaneous
    }

    /// The scene used when none is given: one full-screen view `screen` with every standard
    /// recognizer, all allowed to recognize simultaneously and none cancelling touches. Swipes
    /// accept all four directions and edge pans all four edges.
    public static func standard(width: Double = 100_000, height: Double = 100_000) -> GestureScene {
        let recognizers = GestureEvent.Kind.allCases.map { kind in
            var settings = RecognizerSettings.defaults(for: kind)
            settings.directions = Set(GestureEvent.Direction.allCases)
            settings.edges = Set(GestureEvent.Edge.allCases)
            return Recognizer(name: kind.rawValue, kind: kind, settings: settings, cancelsTouches: false)
        }
        let view = View(id: "screen", frame: Rect(x: 0, y: 0, width: width, height: height), recognizers: recognizers)
        return GestureScene(width: width, height: height, views: [view], allSimultaneous: true)
    }
}

extension GestureScene {
    /// What the recognizer runs of `scene`: its size, the views' frames and stacking, and their
    /// enabled recognizers with settings and relationships.
    public init(_ scene: Scene) {
        self.init(
            width: scene.width, height: scene.height,
            views: scene.views.map { view in
                View(
                    id: view.id, frame: view.frame, parent: view.parent, z: view.z,
                    recognizers: view.recognizers.filter(\.enabled))
            })
    }
}
